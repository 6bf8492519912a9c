// Command serve puts a gemgo checkpoint behind the OpenAI chat
// completions API, for any OpenAI-compatible client (cmd/eval included):
//
//	go run ./cmd/serve -checkpoint runs/rebn_guess -addr 127.0.0.1:8080
//	curl -s 127.0.0.1:8080/v1/chat/completions -H 'Content-Type: application/json' -d '{"model":"gemgo","temperature":0,
//	    "messages":[{"role":"user","content":"Guess the number between 1 and 10 in 4 turns. Answer \\boxed{n}."}]}'
//	go run ./cmd/eval -policy gemgo@http://127.0.0.1:8080/v1 -env game:GuessTheNumber-v0-easy -opt style=brief -out runs/eval_served
//
// Conversations are rendered as the checkpoint's training run rendered
// observations (its env.history), and a request without a temperature
// samples at the run's (sample.temperature): the checkpoint carries these
// serving settings (chat.Settings), so the server links neither the
// trainer nor the tools. Requests with tools (tool_choice none or auto)
// are rendered into the checkpoint's text tool protocol, and its text
// calls come back as tool_calls (docs/eval.md). Concurrent requests are batched into
// one KV-cache sampler call; more than -queue waiting requests are
// answered 429 with Retry-After. Ctrl-C or SIGTERM stops accepting,
// finishes the requests in flight (up to -grace) and exits 0; a second
// signal exits at once with 130. -max-conns,
// -keep-alive and -body-timeout bound idle and slow clients; -decode-mib
// bounds the bodies decoded at once.
package main
