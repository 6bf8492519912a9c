// Package openai is a chat.Model behind any OpenAI-compatible chat
// completions endpoint (vLLM, llama.cpp, Ollama, OpenAI, cmd/serve),
// called with the official client, github.com/openai/openai-go/v3:
// package eval plays MODEL@URL policies with it.
//
// It is apart from package chat so that what links chat for its messages,
// its engine or its serving record (package train writes chat.Settings
// into every checkpoint, cmd/serve serves a checkpoint) links no OpenAI
// client.
package openai
