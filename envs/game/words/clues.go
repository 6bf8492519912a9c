package words

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Lengths of the words a crossword entry may have.
const (
	MinClueWord = 3
	MaxClueWord = 7
)

// ParseClues reads crossword entries, one "word: clue" per line; blank
// lines and lines starting with # are skipped. The word is folded to
// lowercase and must be 3 to 7 letters a–z, the clue must not be empty nor
// contain the word, and a word may appear once. The result is sorted by word.
func ParseClues(text string) ([]Clue, error) {
	var out []Clue
	seen := map[string]int{}
	n := 0
	for line := range strings.Lines(text) {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, clue, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("clue line %d: %q has no ':': want \"word: clue\"", n, line)
		}
		word = strings.ToLower(strings.TrimSpace(word))
		clue = strings.TrimSpace(clue)
		if !IsWord(word) || len(word) < MinClueWord || len(word) > MaxClueWord {
			return nil, fmt.Errorf("clue line %d: word %q: want %d to %d letters a-z", n, word, MinClueWord, MaxClueWord)
		}
		if clue == "" {
			return nil, fmt.Errorf("clue line %d: word %q has an empty clue", n, word)
		}
		if strings.Contains(strings.ToLower(clue), word) {
			return nil, fmt.Errorf("clue line %d: the clue of %q gives the word away", n, word)
		}
		if prev, dup := seen[word]; dup {
			return nil, fmt.Errorf("clue line %d: word %q already has a clue on line %d", n, word, prev)
		}
		seen[word] = n
		out = append(out, Clue{Word: word, Text: clue})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no clues: want lines of \"word: clue\"")
	}
	slices.SortFunc(out, func(a, b Clue) int { return strings.Compare(a.Word, b.Word) })
	return out, nil
}

// ReadClueFile reads crossword entries from a file (see ParseClues).
func ReadClueFile(path string) ([]Clue, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("clue file %s does not exist", path)
	}
	if err != nil {
		return nil, fmt.Errorf("clue file %s: %w", path, err)
	}
	if info.IsDir() || info.Size() > maxFileBytes {
		return nil, fmt.Errorf("clue file %s: want a text file under %d bytes", path, maxFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read clue file: %w", err)
	}
	cs, err := ParseClues(string(b))
	if err != nil {
		return nil, fmt.Errorf("clue file %s: %w", path, err)
	}
	return cs, nil
}
