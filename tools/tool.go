package tools

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Call is one tool call parsed from an action.
type Call struct {
	// Tool is the kind of tool that parsed it ("python", "search", "mcp"):
	// the step info's tool_type.
	Tool string
	// Name is the called function of a tool that serves several (an MCP
	// server's tool name); "" otherwise.
	Name string
	// Input is the call's content: the code, the query, the JSON arguments.
	Input string
	// Cut is the action cut just after the call: what GEM keeps as the
	// parsed action (text written after the call is dropped).
	Cut string
}

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
	Parse(action string) (Call, bool)
	Run(ctx context.Context, c Call) (obs string, err error)
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

// firstBlock finds the first complete block open…close in s (the one that
// ends earliest; blocks do not nest, so it is also the leftmost) and
// returns its content and the end of its closing tag.
func firstBlock(s, open, close string) (content string, end int, ok bool) {
	i := strings.Index(s, open)
	if i < 0 {
		return "", 0, false
	}
	j := strings.Index(s[i+len(open):], close)
	if j < 0 {
		return "", 0, false
	}
	start := i + len(open)
	return s[start : start+j], start + j + len(close), true
}
