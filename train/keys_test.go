package train

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// validateKeys collects the config keys that the string literals of every
// Validate method in the packages under dirs name: "section.key" for each
// section of Config, and "key = %v" at the start of a message.
func validateKeys(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	var sections []string
	for _, k := range yamlKeys(reflect.TypeFor[Config]()) {
		sections = append(sections, regexp.QuoteMeta(k))
	}
	dotted := regexp.MustCompile(`\b(?:` + strings.Join(sections, "|") + `)\.[a-z_0-9]+\b`)
	leading := regexp.MustCompile(`^([a-z_0-9]+(?:\.[a-z_0-9]+)*) = %`)
	keys := map[string]string{} // key → where it was seen
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			require.NoError(t, err)
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || fn.Name.Name != "Validate" {
					continue
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					lit, ok := n.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return true
					}
					s, err := strconv.Unquote(lit.Value)
					require.NoError(t, err)
					where := fset.Position(lit.Pos()).String()
					for _, k := range dotted.FindAllString(s, -1) {
						keys[k] = where
					}
					if m := leading.FindStringSubmatch(s); m != nil {
						keys[m[1]] = where
					}
					return true
				})
			}
		}
	}
	return keys
}

// Every key a Validate error can name, in train and in the packages whose
// configs it composes, is one a user can set with -set: the message tells
// them what to change, and they can.
func TestValidateErrorsNameSettableKeys(t *testing.T) {
	keys := validateKeys(t, ".", "../algo", "../policy")
	for _, want := range []string{"algo.epochs", "loss.kind", "optim.beta1", "optim.warmup_steps", "model.heads", "sample.top_p", "env.num_envs", "iterations"} {
		assert.Contains(t, keys, want, "the walk finds the keys it should")
	}
	require.Greater(t, len(keys), 40)
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range keys {
			if !yield(k) {
				return
			}
		}
	}) {
		c := DefaultConfig()
		v, err := c.field(k)
		if !assert.NoError(t, err, "%s (named at %s)", k, keys[k]) {
			continue
		}
		// Set the key to its current value through -set's own path.
		text, err := yaml.Marshal(v.Interface())
		require.NoError(t, err)
		assert.NoError(t, c.Set(k+"="+strings.TrimSpace(string(text))), "%s (named at %s)", k, keys[k])
		assert.Equal(t, DefaultConfig(), c, "%s: setting a key to its value changes nothing", k)
	}
}
