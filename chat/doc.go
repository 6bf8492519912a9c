// Package chat is the conversation side of gemgo: the chat messages an
// LLM reads and writes, the Model contract every chat model meets, the
// rendering of messages to a gemgo policy's prompt, and an Engine that
// runs a checkpoint as a Model (concurrent requests batched into one
// KV-cache sampler call). Package chat/openai is the OpenAI-compatible client, a
// Model too, apart so that chat links no OpenAI SDK.
//
// An episode is a conversation: the env's first observation (its
// instructions and the initial state) is the first user message, each
// action the policy takes is an assistant message, and each observation
// after it is the next user message. An optional system message comes
// first. The reply's text is the action.
//
// A gemgo policy has no chat template: it reads one observation string,
// the episode so far as the history wrappers of package envs render it
// (envs.ObservationHistory or envs.ActionObservationHistory). Format
// renders a conversation to exactly that string, so a checkpoint reads a
// conversation as it read its training episodes. System messages are
// dropped: no checkpoint was trained with one.
//
// Settings are how a checkpoint is served: its run's history format,
// answer length, sampling and env. Package train writes them into every
// checkpoint (Meta[SettingsKey], JSON); CheckpointSettings reads them, or
// in an older checkpoint the few keys it needs from the training config
// saved beside it, so that serving never links the trainer.
package chat
