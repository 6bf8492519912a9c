package words

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed data/common.txt
var commonText string

//go:embed data/clues.txt
var cluesText string

// Common returns the embedded list of common English words (3 to 7
// letters, a few hundred of each length). It is parsed once and shared.
func Common() *List { return common() }

var common = sync.OnceValue(func() *List {
	return NewList(fields(commonText, false))
})

// Clue is a crossword entry: a lowercase word and a short clue.
type Clue struct {
	Word string
	Text string
}

// Clues returns the embedded crossword clues, sorted by word. The slice is
// shared: do not modify it.
func Clues() []Clue { return clues() }

var clues = sync.OnceValue(func() []Clue {
	cs, err := ParseClues(cluesText)
	if err != nil {
		// The file is part of the binary and checked by the tests.
		panic(fmt.Sprintf("words: embedded clues: %v", err))
	}
	return cs
})

// fields splits text into its white-space separated entries, skipping
// comment lines (starting with #). With fold, entries are lowercased.
func fields(text string, fold bool) []string {
	var out []string
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if fold {
				f = strings.ToLower(f)
			}
			out = append(out, f)
		}
	}
	return out
}
