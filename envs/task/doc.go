// Package task is the shared machinery of gemgo's single-turn task families
// (rg, math, qa, logic): one question per episode, one answer read from the
// last \boxed{...} of the response (or, with Config.Format FormatAnswerTag,
// option answer_format, the last <answer>...</answer>), one scored step that
// ends the episode. LoadShared parses a JSONL dataset once per process and
// file and shares the items, read-only, between envs.
//
// A family supplies a Generator that draws a Problem (question, reference
// answer, scorer, answer sampler) from the env's own random source; Env does
// the rest: instructions in the "gem" or "brief" style, the format-error
// rule (reward -format_penalty, default 0.1, and termination), and the info
// keys every single-turn task reports ("correct", "score", "answer",
// envs.InfoSuccess, envs.InfoTurn, envs.InfoMaxTurns).
package task
