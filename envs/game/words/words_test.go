package words

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommonHasHundredsOfEachLength(t *testing.T) {
	c := Common()
	for n := 3; n <= 7; n++ {
		ws := c.OfLength(n)
		assert.GreaterOrEqual(t, len(ws), 300, "length %d", n)
		for _, w := range ws {
			require.Len(t, w, n)
			require.True(t, IsWord(w), "%q", w)
		}
		assert.IsIncreasing(t, ws, "length %d sorted and unique", n)
	}
	assert.Empty(t, c.OfLength(2))
	assert.Empty(t, c.OfLength(8))
	// The embedded text has no duplicates either: the loader must not be
	// hiding a typo that repeats a word.
	raw := fields(commonText, false)
	assert.Equal(t, len(raw), c.Len(), "duplicate or unusable entry in data/common.txt")
}

func TestCluesAreUsable(t *testing.T) {
	cs := Clues()
	require.GreaterOrEqual(t, len(cs), 150)
	for i, c := range cs {
		require.True(t, IsWord(c.Word))
		require.GreaterOrEqual(t, len(c.Word), MinClueWord)
		require.LessOrEqual(t, len(c.Word), MaxClueWord)
		require.NotEmpty(t, c.Text)
		require.NotContains(t, strings.ToLower(c.Text), c.Word)
		if i > 0 {
			require.Less(t, cs[i-1].Word, c.Word)
		}
	}
}

func TestParseCluesErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"cat Pet that purrs", "has no ':'"},
		{"c4t: Pet", "want 3 to 7 letters"},
		{"ox: Beast", "want 3 to 7 letters"},
		{"cat:   ", "empty clue"},
		{"cat: A cat says meow", "gives the word away"},
		{"cat: Pet\nCAT: Purring pet", "already has a clue on line 1"},
		{"# only a comment\n\n", "no clues"},
	} {
		_, err := ParseClues(tc.text)
		require.Error(t, err, tc.text)
		assert.Contains(t, err.Error(), tc.want, tc.text)
	}
	cs, err := ParseClues("Dog: Barks\ncat: Purrs\n")
	require.NoError(t, err)
	assert.Equal(t, []Clue{{"cat", "Purrs"}, {"dog", "Barks"}}, cs)
}

func TestNewListFiltersAndSorts(t *testing.T) {
	l := NewList([]string{"pear", "Apple", "fig", "pear", "it's", "", "b4", "fig"})
	assert.Equal(t, []string{"fig", "pear"}, l.Words())
	assert.True(t, l.Contains("fig"))
	assert.False(t, l.Contains("apple"))
	assert.Equal(t, []string{"pear"}, l.OfLength(4))
	u := l.Union(NewList([]string{"kiwi", "fig"}))
	assert.Equal(t, []string{"fig", "kiwi", "pear"}, u.Words())
	assert.Equal(t, []string{"fig", "pear"}, l.Words(), "Union must not change its receiver")
	assert.Equal(t, []string{"kiwi", "pear"}, u.Filter(func(w string) bool { return len(w) == 4 }).Words())
}

func write(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "words.txt")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestReadFile(t *testing.T) {
	p := write(t, "# a comment\nCRANE\nslate\nO'Brien\nParis\n  tea  cup\n")
	folded, err := ReadFile(p, true)
	require.NoError(t, err)
	assert.Equal(t, []string{"crane", "cup", "paris", "slate", "tea"}, folded.Words())
	strict, err := ReadFile(p, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"cup", "slate", "tea"}, strict.Words(), "capitalised entries are proper nouns")

	_, err = ReadFile(filepath.Join(t.TempDir(), "nope.txt"), true)
	require.ErrorContains(t, err, "does not exist")
	_, err = ReadFile(t.TempDir(), true)
	require.ErrorContains(t, err, "is a directory")
	_, err = ReadFile(write(t, "123 4-5 it's\n"), true)
	require.ErrorContains(t, err, "no usable words")
}

func TestSourceLoad(t *testing.T) {
	l, err := Source{}.Load()
	require.NoError(t, err)
	assert.Same(t, Common(), l, "the default is the embedded list")

	file := write(t, "Zebra\nquokka\n")
	l, err = Source{WordFile: file}.Load()
	require.NoError(t, err)
	assert.Equal(t, []string{"quokka", "zebra"}, l.Words())

	dict := write(t, "aardvark\nAlice\nzebra\n")
	l, err = Source{WordFile: file, Dictionary: true, SystemPath: dict}.Load()
	require.NoError(t, err)
	assert.Equal(t, []string{"aardvark", "quokka", "zebra"}, l.Words())

	_, err = Source{Dictionary: true, SystemPath: filepath.Join(t.TempDir(), "words")}.Load()
	require.ErrorContains(t, err, "dictionary=true")
	require.ErrorContains(t, err, "wamerican")
	_, err = Source{WordFile: "/no/such/file"}.Load()
	require.ErrorContains(t, err, "word_file")
	require.ErrorContains(t, err, "/no/such/file")
}

func TestSourceNeed(t *testing.T) {
	s := Source{WordFile: "w.txt"}
	l := NewList([]string{"cat", "crane"})
	require.NoError(t, s.Need(l, "Wordle", 3, 5))
	err := s.Need(l, "Wordle hard", 4, 5, 7)
	require.ErrorContains(t, err, "Wordle hard needs words of 4, 7 letters")
	require.ErrorContains(t, err, "word_file w.txt")
}

func TestReadOptions(t *testing.T) {
	o := envs.NewOptions("x", envs.With("word_file", "/tmp/w"), envs.With("dictionary", "true"))
	s := ReadOptions(o)
	require.NoError(t, o.Err())
	assert.Equal(t, Source{WordFile: "/tmp/w", Dictionary: true}, s)

	o = envs.NewOptions("x", envs.With("dictionary", 3))
	ReadOptions(o)
	require.ErrorContains(t, o.Err(), "dictionary")
}

func TestFromBoxed(t *testing.T) {
	for in, want := range map[string]string{
		`\boxed{CRANE}`:                "crane",
		`\boxed{ crane }`:              "crane",
		`\boxed{a} then \boxed{SlAtE}`: "slate",
		`\boxed{e}`:                    "e",
	} {
		got, ok := FromBoxed(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "crane", `\boxed{}`, `\boxed{cra ne}`, `\boxed{crane!}`, `\boxed{CRANE} \boxed{1}`, `\boxed{é}`} {
		_, ok := FromBoxed(in)
		assert.False(t, ok, in)
	}
}

func FuzzFromBoxed(f *testing.F) {
	for _, s := range []string{`\boxed{CRANE}`, `\boxed{}`, `\boxed{{a}}`, `x \boxed{AbC} y`, "\\boxed{\xff}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, ok := FromBoxed(s)
		if !ok {
			return
		}
		if !IsWord(w) {
			t.Fatalf("FromBoxed(%q) = %q: not lowercase a-z", s, w)
		}
		again, ok := FromBoxed(envs.Boxed(strings.ToUpper(w)))
		if !ok || again != w {
			t.Fatalf("round trip of %q gave %q, %v", w, again, ok)
		}
	})
}
