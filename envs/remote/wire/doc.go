// Package wire is the message format that gemgo's env server (package
// remote) and its Go client (package client) share: OpenEnv's message
// types and error codes, the Error a server answers, text fields that
// carry bytes that are not UTF-8 (message and message_b64), and the JSON
// encoding that keeps Go's number kinds apart (a float is written 1.0, an
// int 1) so that Info values cross the wire with their types.
//
// It imports no other gemgo package, so that the server and the client
// each import it without importing each other: the client stays a leaf
// that the env builder (package envs/envbuild) can import, and the server
// builds its envs with that builder.
package wire
