// Package nginxtest runs Debian's nginx in front of env servers for
// tests: Start writes an nginx.conf into the test's temp dir (an upstream
// of the given loopback addresses, the WebSocket upgrade headers, every
// path nginx writes inside the temp dir, no daemon), starts nginx, waits
// until it answers, and stops it when the test ends. Config returns the
// same file for a user to read: docs/envserver.md shows it.
//
// A test that needs nginx where it is not installed is skipped with the
// install line (apt-get install nginx).
package nginxtest
