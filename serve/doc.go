// Package serve puts a chat.Model (a checkpoint run by a chat.Engine)
// behind the OpenAI chat completions API, so that any OpenAI-compatible
// client can talk to a gemgo policy:
//
//	POST /v1/chat/completions   model, messages, temperature, top_p,
//	                            max_completion_tokens (or max_tokens), stop, n, seed,
//	                            tools, tool_choice (none, auto), parallel_tool_calls
//	GET  /v1/models             the one model served
//
// Errors are OpenAI-shaped: a non-2xx status with
// {"error": {"message", "type", "param", "code"}}. A full request queue
// answers 429 with Retry-After; a closed engine 503; a bad request 400.
// Streaming is not supported (400).
//
// Function calling is rendered into the text protocol the checkpoint
// trained on (package tools/protocol, which links none of the tools' back
// ends): the functions' instructions are appended to the first user
// message as the tool wrapper of package tools appends them, each call of
// an assistant message's tool_calls is an assistant turn in its tag form
// followed by its tool message as the observation, and a generated text
// that holds a call is answered as that call in tool_calls (content the
// text before it, null when blank; finish_reason tool_calls).
//
// Content is a string, null or a list of text content parts (joined with
// newlines; other parts are refused). A body is one JSON object, sent as
// application/json (or without Content-Type) and uncompressed; anything
// else is refused (400, 415). Bodies are decoded within a byte budget
// (Server.DecodeBytes), and a full queue or an oversized body is refused
// before the body is read. ListenAndServe bounds connections and slow
// clients with httpserve.Limits.
package serve
