// Package sites holds small web sites written for webagent's demo, tests and
// eval suites. Each is an http.Handler meant to be served on 127.0.0.1; none
// reaches the network.
package sites
