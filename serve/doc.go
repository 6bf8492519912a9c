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
package serve
