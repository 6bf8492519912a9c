// Package serve puts a chat.Model (a checkpoint run by a chat.Engine)
// behind the OpenAI chat completions API, so that any OpenAI-compatible
// client can talk to a gemgo policy:
//
//	POST /v1/chat/completions   model, messages, temperature, top_p,
//	                            max_completion_tokens (or max_tokens), stop, n, seed
//	GET  /v1/models             the one model served
//
// Errors are OpenAI-shaped: a non-2xx status with
// {"error": {"message", "type", "param", "code"}}. A full request queue
// answers 429 with Retry-After; a closed engine 503; a bad request 400.
// Streaming and tools are not supported (400).
//
// Content is a string, null or a list of text content parts (joined with
// newlines; other parts are refused). A body is one JSON object, sent as
// application/json (or without Content-Type) and uncompressed; anything
// else is refused (400, 415). Bodies are decoded within a byte budget
// (Server.DecodeBytes), and a full queue or an oversized body is refused
// before the body is read. ListenAndServe bounds connections and slow
// clients with httpserve.Limits.
package serve
