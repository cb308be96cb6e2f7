// Package testfixture is the roof of the fixtures webagent's tests and
// examples share, as net/http/httptest is net/http's: real servers on
// loopback that a test starts and stops, never used by the product.
//
//   - signin: a members' site with a sign-in form that can change as a
//     real one does, and the scripted model that signs in;
//   - contactform: a contact form in a dataset's shape that notes every
//     request, its scripted agent and a scripted judge;
//   - chrometest: one Chromium shared by a package's tests, a browser
//     context per test, so that tests run in parallel;
//   - machinelock: test binaries share the machine, except with a test
//     that loads it to measure a bound, which holds it alone;
//   - sigcheck: a Web Bot Auth signature verifier written apart from the
//     signer of package botauth;
//   - devtemporal: a Temporal dev server (the temporal CLI) for the
//     fleet's tests.
//
// It stands outside internal/, the ground floor of the product's helpers:
// its fixtures import browser and modelserver, which import internal/. It
// is no API: its packages change with the tests they serve.
package testfixture
