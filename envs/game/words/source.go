package words

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/gemgo/gemgo/envs"
)

// SystemPath is where Debian's wamerican (and most Unix systems) keep the
// system dictionary.
const SystemPath = "/usr/share/dict/words"

// maxFileBytes bounds a word file: a dictionary is a few MB at most.
const maxFileBytes = 64 << 20

// Source says where a game takes its words from.
type Source struct {
	// WordFile, when set, is read instead of the embedded Common list.
	WordFile string
	// Dictionary adds the system dictionary (lowercase a–z entries only).
	Dictionary bool
	// SystemPath is the system dictionary's path; empty means SystemPath.
	SystemPath string
}

// ReadOptions reads the options "word_file" (a path, default none: the
// embedded list) and "dictionary" (default false) from o.
func ReadOptions(o *envs.Options) Source {
	return Source{
		WordFile:   o.ServerOnly("names a file on the server").String("word_file", ""),
		Dictionary: o.Bool("dictionary", false),
	}
}

// Load returns the words of s: the word file or the embedded list, plus the
// system dictionary when asked for. A missing or unreadable file, or one
// without a usable word, is an error that names the file and the fix.
func (s Source) Load() (*List, error) {
	base := Common()
	if s.WordFile != "" {
		l, err := ReadFile(s.WordFile, true)
		if err != nil {
			return nil, fmt.Errorf("option word_file: %w", err)
		}
		base = l
	}
	if !s.Dictionary {
		return base, nil
	}
	path := s.SystemPath
	if path == "" {
		path = SystemPath
	}
	d, err := ReadFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("option dictionary=true: %w (install Debian's wamerican, or set dictionary=false or word_file)", err)
	}
	return base.Union(d), nil
}

// Need checks that l has words of each of the given lengths; game names
// the game and level in the error.
func (s Source) Need(l *List, game string, lengths ...int) error {
	var missing []string
	for _, n := range lengths {
		if len(l.OfLength(n)) == 0 {
			missing = append(missing, fmt.Sprint(n))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	from := "the embedded list"
	if s.WordFile != "" {
		from = "word_file " + s.WordFile
	}
	return fmt.Errorf("%s needs words of %s letters, and %s has none: add such words or pick another level",
		game, strings.Join(missing, ", "), from)
}

// ReadFile reads a word list: entries separated by white space, lines
// starting with # skipped. With fold, entries are lowercased first (a list
// in capitals is usable); without it, entries with capitals are skipped (the
// proper nouns of a system dictionary). Entries that are not letters a–z are
// skipped. A file without a usable word is an error.
func ReadFile(path string, fold bool) (*List, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("word list %s does not exist", path)
	}
	if err != nil {
		return nil, fmt.Errorf("word list %s: %w", path, err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("word list %s is a directory, want a file", path)
	}
	if info.Size() > maxFileBytes {
		return nil, fmt.Errorf("word list %s is %d bytes, over the %d limit", path, info.Size(), maxFileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read word list: %w", err)
	}
	l := NewList(fields(string(b), fold))
	if l.Len() == 0 {
		return nil, fmt.Errorf("word list %s has no usable words: want words of letters a-z separated by white space", path)
	}
	return l, nil
}
