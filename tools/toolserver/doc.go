// Package toolserver is a small MCP server written for gemgo's tests and
// demos: an exact calculator, a key-value store and text files in a
// scratch directory. Each server holds one session's state; the command
// cmd/toolserver serves it over stdio (one process per session) or
// streamable HTTP (a fresh server per session).
//
// Tools: calculate {expression}, kv_set {key, value}, kv_get {key},
// write_file {path, content}, read_file {path}, list_files {}. File paths
// are confined to the scratch directory (os.Root: no "..", no symlink out).
// A failing tool returns an MCP tool error (IsError), never a protocol
// error.
package toolserver
