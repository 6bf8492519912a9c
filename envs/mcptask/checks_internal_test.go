package mcptask

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestCheckPath: each kind of files check holds on a tree that meets it
// and fails, saying why, on one that does not.
func TestCheckPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
	write("a.txt", "one\ntwo\n")
	write("d/x.json", `{"n": 2, "l": ["p", "q"]}`)
	write("orig.txt", "same\n")
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link")))
	task := &Task{Name: "t", Files: map[string][]byte{"orig.txt": []byte("same\n"), "a.txt": []byte("other")}}
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	for _, c := range []struct {
		check string // YAML
		fail  string // "" when it must hold
	}{
		{`{path: a.txt, exists: true}`, ""},
		{`{path: b.txt, exists: true}`, "does not exist"},
		{`{path: b.txt, exists: false}`, ""},
		{`{path: a.txt, exists: false}`, "exists, and should not"},
		{`{path: d, dir: true}`, ""},
		{`{path: a.txt, dir: true}`, "is not a directory"},
		{`{path: a.txt, equals: "one\ntwo\n"}`, ""},
		{`{path: a.txt, equals: "one\ntwo"}`, `content "one\ntwo\n", want "one\ntwo"`},
		{`{path: a.txt, contains: [two]}`, ""},
		{`{path: a.txt, contains: [three]}`, `lacks "three"`},
		{`{path: a.txt, not_contains: [two]}`, `holds "two"`},
		{`{path: a.txt, matches: '^one\n'}`, ""},
		{`{path: a.txt, matches: '^two'}`, `does not match "^two"`},
		{`{path: a.txt, lines: [one, two]}`, ""},
		{`{path: a.txt, lines: [two, one]}`, `lines ["one" "two"], want ["two" "one"]`},
		{`{path: d/x.json, json: {n: 2, l: [p, q]}}`, ""},
		{`{path: d/x.json, json: {n: 3, l: [p, q]}}`, `JSON "{\"n\": 2, \"l\": [\"p\", \"q\"]}" differs from the expected value`},
		{`{path: a.txt, json: {n: 2}}`, "is not JSON: invalid character 'o' looking for beginning of value"},
		{`{path: orig.txt, same_as: orig.txt}`, ""},
		{`{path: a.txt, same_as: a.txt}`, "content differs from the original a.txt"},
		{`{path: d, entries: [x.json]}`, ""},
		{`{path: ., entries: [a.txt, d]}`, `holds ["a.txt" "d" "link" "orig.txt"], want ["a.txt" "d"]`},
		{`{path: link, contains: [root]}`, "is a symbolic link"},
		{`{path: d, contains: [x]}`, "is not a regular file"},
	} {
		var ch Check
		require.NoError(t, yaml.Unmarshal([]byte(c.check), &ch), c.check)
		err := checkPath(task, root, ch)
		if c.fail == "" {
			require.NoError(t, err, c.check)
		} else {
			require.EqualError(t, err, c.fail, c.check)
		}
	}
}
