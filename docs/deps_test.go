package docs

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is gemgo's module path: a package name in the dependency lines
// without a dot in its first element is relative to it.
const module = "github.com/gemgo/gemgo"

// depLine is one checked line of architecture.md's dependency list:
// subjects, a verb, objects.
var depLine = regexp.MustCompile("^- ((?:`[^`]+`(?:, | and )?)+) (imports?|do(?:es)? not import) ?(.*)\\.$")

var quoted = regexp.MustCompile("`([^`]+)`")

// depClaim is a parsed line: what the subjects import.
type depClaim struct {
	line     string
	subjects []string
	kind     string   // "none" (no other gemgo package), "only", "not"
	objects  []string // for "only" and "not"
}

// parseDepLines reads the list that follows the paragraph naming
// docs/docs_test.go in the Packages section: every line up to the first
// blank one must parse.
func parseDepLines(page string) ([]depClaim, []string) {
	var claims []depClaim
	var bad []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(page))
	for sc.Scan() {
		line := sc.Text()
		if !in {
			in = strings.Contains(line, "checked against `go list` by `docs/docs_test.go`")
			continue
		}
		if !strings.HasPrefix(line, "- ") {
			if len(claims) > 0 || len(bad) > 0 {
				break
			}
			continue // the rest of the paragraph
		}
		m := depLine.FindStringSubmatch(line)
		if m == nil {
			bad = append(bad, line)
			continue
		}
		c := depClaim{line: line}
		for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
			c.subjects = append(c.subjects, q[1])
		}
		rest := m[3]
		for _, q := range quoted.FindAllStringSubmatch(rest, -1) {
			c.objects = append(c.objects, q[1])
		}
		switch {
		case strings.HasPrefix(m[2], "import") && rest == "no other gemgo package":
			c.kind = "none"
		case strings.HasPrefix(m[2], "import") && strings.HasPrefix(rest, "only ") && len(c.objects) > 0:
			c.kind = "only"
		case strings.Contains(m[2], "not") && len(c.objects) > 0:
			c.kind = "not"
		default:
			bad = append(bad, line)
			continue
		}
		claims = append(claims, c)
	}
	return claims, bad
}

// fullPath is the import path a name of the list stands for.
func fullPath(name string) string {
	first, _, _ := strings.Cut(name, "/")
	if strings.Contains(first, ".") {
		return name
	}
	return module + "/" + name
}

// matches reports whether the import path p is the list's name (or under
// it, for a name ending in /...).
func matches(name, p string) bool {
	full := fullPath(name)
	if base, ok := strings.CutSuffix(full, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == full
}

// TestArchitectureDependencies checks each line of architecture.md's
// dependency list against the module's packages and their transitive
// imports (go list's Deps, tests excluded).
func TestArchitectureDependencies(t *testing.T) {
	page, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	claims, bad := parseDepLines(string(page))
	for _, l := range bad {
		t.Errorf("docs/architecture.md: a dependency line this test cannot read: %q (write \"`X` imports only `A` and `B`.\", \"`X` imports no other gemgo package.\" or \"`X` does not import `Y` or `Z`.\")", l)
	}
	if len(claims) < 5 {
		t.Fatalf("found %d dependency lines in docs/architecture.md: the list or its parser is broken", len(claims))
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to list the packages")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	for _, c := range claims {
		for _, subj := range c.subjects {
			var pkgs []string
			for p := range deps {
				if matches(subj, p) {
					pkgs = append(pkgs, p)
				}
			}
			if len(pkgs) == 0 {
				t.Errorf("%s: no package %s", c.line, subj)
				continue
			}
			slices.Sort(pkgs)
			for _, p := range pkgs {
				for _, e := range claimErrors(c, p, deps[p]) {
					t.Error(e)
				}
			}
		}
	}
}

// claimErrors checks one line's claim for package p, whose transitive
// imports are pdeps, and says how it is false.
func claimErrors(c depClaim, p string, pdeps []string) []string {
	var errs []string
	var own []string // the gemgo packages p imports
	for _, d := range pdeps {
		if strings.HasPrefix(d, module+"/") {
			own = append(own, strings.TrimPrefix(d, module+"/"))
		}
	}
	slices.Sort(own)
	switch c.kind {
	case "none":
		if len(own) > 0 {
			errs = append(errs, fmt.Sprintf("%s: but %s imports %s", c.line, p, strings.Join(own, ", ")))
		}
	case "only":
		var want []string
		for _, o := range c.objects {
			want = append(want, strings.TrimPrefix(fullPath(o), module+"/"))
		}
		slices.Sort(want)
		if !slices.Equal(own, want) {
			errs = append(errs, fmt.Sprintf("%s: but %s imports %s", c.line, p, strings.Join(own, ", ")))
		}
	case "not":
		for _, o := range c.objects {
			for _, d := range pdeps {
				if matches(o, d) {
					errs = append(errs, fmt.Sprintf("%s: but %s imports %s", c.line, p, d))
					break
				}
			}
		}
	}
	return errs
}

// The parser reads each form of line, and a line it cannot read is
// reported rather than skipped; the checks fail on a false line.
func TestDependencyLinesParse(t *testing.T) {
	page := "intro, checked against `go list` by `docs/docs_test.go`, here:\n\n" +
		"- `a` and `b` import no other gemgo package.\n" +
		"- `c` imports only `d`, `e/f` and `x.org/y`.\n" +
		"- `g/...` do not import `gorgonia.org/...` or `train`.\n" +
		"- `h` depends on nothing much.\n" +
		"\n- `not` read: after the list.\n"
	claims, bad := parseDepLines(page)
	if len(claims) != 3 || len(bad) != 1 || bad[0] != "- `h` depends on nothing much." {
		t.Fatalf("claims %+v, unread %q", claims, bad)
	}
	if c := claims[1]; c.kind != "only" || !slices.Equal(c.subjects, []string{"c"}) || !slices.Equal(c.objects, []string{"d", "e/f", "x.org/y"}) {
		t.Errorf("only: %+v", c)
	}
	if c := claims[2]; c.kind != "not" || !slices.Equal(c.objects, []string{"gorgonia.org/...", "train"}) {
		t.Errorf("not: %+v", c)
	}
	if !matches("g/...", module+"/g/h") || !matches("g/...", module+"/g") || matches("g/...", module+"/gh") ||
		!matches("gorgonia.org/...", "gorgonia.org/tensor") || matches("train", module+"/trainer") {
		t.Error("matches")
	}
	// Each kind of line fails on a false claim and passes on a true one.
	deps := []string{"fmt", module + "/d", module + "/e/f", "gorgonia.org/tensor"}
	for _, tc := range []struct {
		c     depClaim
		false bool
	}{
		{depClaim{kind: "none"}, true},
		{depClaim{kind: "none"}, false},
		{depClaim{kind: "only", objects: []string{"d", "e/f"}}, false},
		{depClaim{kind: "only", objects: []string{"d"}}, true},
		{depClaim{kind: "only", objects: []string{"d", "e/f", "z"}}, true},
		{depClaim{kind: "not", objects: []string{"train", "e/..."}}, true},
		{depClaim{kind: "not", objects: []string{"gorgonia.org/..."}}, true},
		{depClaim{kind: "not", objects: []string{"train", "gorgonia.org/gorgonia"}}, false},
	} {
		d := deps
		if tc.c.kind == "none" && !tc.false {
			d = []string{"fmt"}
		}
		if got := claimErrors(tc.c, module+"/p", d); (len(got) > 0) != tc.false {
			t.Errorf("%+v: errors %q, want false = %v", tc.c, got, tc.false)
		}
	}
}
