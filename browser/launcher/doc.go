// Package launcher runs Chromium processes for package browser: it finds
// the binary, starts it with its flags, a profile folder and a temporary
// folder of its own, tells when it exits, and stops it with everything it
// leaves behind. go-rod's lib/launcher has the same job; this one is
// smaller and webagent's own.
//
// A Process is started with Start and ends with Close, which kills the
// browser with its helper processes (its process group, and any process
// still started with its profile folder) and removes its temporary
// profile and its TMPDIR. The browser also dies with the program that
// started it, even on SIGKILL (the parent-death signal).
//
// What a Process leaves when its program is killed or exits before Close
// ends (a temporary profile, Chromium's singleton folder) carries a prefix
// (ProfilePrefix, TempPrefix) in the system's temporary folder and names
// its owner; the next Start removes the folders whose owner has ended
// (SweepLeftovers).
package launcher
