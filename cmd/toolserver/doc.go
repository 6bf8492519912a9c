// Command toolserver serves gemgo's demo MCP server (package
// tools/toolserver: calculator, key-value store, files in a scratch
// directory).
//
//	toolserver                      # one session over stdio, scratch in a fresh temp directory
//	toolserver -dir /tmp/scratch    # the same, with files in /tmp/scratch
//	toolserver -http 127.0.0.1:8931 # streamable HTTP at http://127.0.0.1:8931/mcp, a fresh server per session
//
// Use it from a config as an MCP tool:
//
//	env:
//	  tools:
//	    - {name: mcp, command: [go, run, ./cmd/toolserver]}
//
// The MCP session of stdio mode runs over the process's stdin and stdout.
// SIGINT or SIGTERM stops the server (exit status 0); a second one exits
// at once with 130. -h prints the usage on stdout (status 0); a bad flag
// is one line on stderr and status 2.
package main
