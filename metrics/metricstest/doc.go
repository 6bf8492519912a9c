// Package metricstest checks gemgo's HTML pages in a real browser: it
// starts Debian's chromium headless and cut off from the network (see
// NewBrowser), serves a directory over a local HTTP server, and reports
// what a page drew (charts, series, points, ink on the canvas) and what it
// must not do (JavaScript errors, failed requests, requests other than
// itself). Tests skip with an install hint when chromium is missing.
package metricstest
