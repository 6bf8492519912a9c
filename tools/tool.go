package tools

import (
	"context"
	"math/rand/v2"
	"regexp"
	"unicode"
	"unicode/utf8"

	"github.com/gemgo/gemgo/tools/protocol"
)

// Tool is one tool an agent can call. Its methods are safe to call from one
// goroutine at a time (each env holds its own tools).
//
// Parse reports whether action holds a call of this tool, and the first
// such call: the one whose closing tag ends earliest. A call that parses is
// handled by the tool even when it then fails. Run executes the call: it
// returns the observation for the model, and, when the call failed (bad
// code, no results, an unreachable server, ctx done), also an error saying
// why, with obs then the tool's error text for the model. Run never panics
// on any Call that Parse returned, and returns within ctx's deadline plus
// the tool's own clean-up time.
type Tool interface {
	Instructions() string
	Parse(action string) (protocol.Call, bool)
	Run(ctx context.Context, c protocol.Call) (obs string, err error)
}

// CallSampler is implemented by tools that can draw a well-formed call of
// themselves with arbitrary content (for the env's SampleAction: warm-up
// then teaches the call format without solving the task). task is the
// inner env's first observation, the task statement: a sampler may draw
// its content from random pieces of it (words, numbers), as a model that
// copies from its prompt would, or ignore it.
type CallSampler interface {
	SampleCall(r *rand.Rand, task string) string
}

// taskNumbers returns the whole numbers written in s, in order.
func taskNumbers(s string) []string { return numberRE.FindAllString(s, -1) }

// taskWords returns the words of s: runs of letters and digits, with
// runs of letters joined by hyphens kept as one word ("Dul-ka-tal", a
// name of the v1 fictional world, but "4" and "digit" in "4-digit").
func taskWords(s string) []string { return wordRE.FindAllString(s, -1) }

// copied is word as a sampler writes it when it copies it: a word that
// starts with a letter gets the space before it that it has in running
// text, so that it is the same token as there (the policy's tokenizer
// attaches a space to the letters after it, and keeps digits apart). Search
// queries and answers are compared without surrounding spaces.
func copied(word string) string {
	if r, _ := utf8.DecodeRuneInString(word); unicode.IsLetter(r) {
		return " " + word
	}
	return word
}

var (
	numberRE = regexp.MustCompile(`\d+`)
	wordRE   = regexp.MustCompile(`\p{L}+(?:-\p{L}+)+|[\p{L}\p{N}]+`)
)

// Episodic is implemented by tools that hold state for one episode (an MCP
// session): the wrapper calls EndEpisode at every Reset and at Close.
type Episodic interface {
	EndEpisode() error
}
