package builtin_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
)

// declaresSolver matches a package's solver constructor, the one each
// game with a solver has (func NewSolver(e *Env) *Solver).
var declaresSolver = regexp.MustCompile(`(?m)^func NewSolver\(`)

// TestSolversAreFoundThroughTheEnv is the solver conformance check over
// the registry: every built-in env whose package declares a solver
// exposes it through envs.SolverOf (so cmd/eval's oracle finds it without
// a list of games), every env that exposes one belongs to such a package,
// and the solver plays seed 0 to the end without an error.
func TestSolversAreFoundThroughTheEnv(t *testing.T) {
	reg := builtin.Registry()
	const module = "github.com/gemgo/gemgo/"
	declared := map[string]bool{} // package path → declares NewSolver
	withSolver := 0
	for _, id := range reg.IDs() {
		opts, _, slow := builtinSetup(id)
		if slow {
			continue // code envs start python3; they have no solver either
		}
		env, err := reg.Make(id, opts...)
		require.NoError(t, err, id)
		typ := reflect.TypeOf(envs.Unwrapped(env))
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		pkg := typ.PkgPath()
		has, ok := declared[pkg]
		if !ok {
			require.True(t, strings.HasPrefix(pkg, module), "%s: env type %s outside the module", id, typ)
			dir := filepath.Join("..", "..", filepath.FromSlash(strings.TrimPrefix(pkg, module)))
			files, err := filepath.Glob(filepath.Join(dir, "*.go"))
			require.NoError(t, err)
			require.NotEmpty(t, files, "%s: no source in %s", id, dir)
			for _, f := range files {
				if strings.HasSuffix(f, "_test.go") {
					continue
				}
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				has = has || declaresSolver.Match(src)
			}
			declared[pkg] = has
		}
		m, exposes := envs.SolverOf(env)
		require.Equal(t, has, exposes, "%s (package %s): declares a solver %v, exposes one through envs.SolverOf %v", id, pkg, has, exposes)
		if exposes {
			withSolver++
			obs, _, err := env.Reset(0)
			require.NoError(t, err, id)
			s := m.NewSolver()
			done := false
			for turn := 0; turn < 1000 && !done; turn++ {
				a, err := s.Act(obs)
				require.NoError(t, err, "%s turn %d", id, turn+1)
				st, err := env.Step(a)
				require.NoError(t, err, "%s turn %d", id, turn+1)
				obs, done = st.Obs, st.Done()
			}
			require.True(t, done, "%s: the solver's episode ends", id)
		}
		require.NoError(t, envs.Close(env))
	}
	// 11 games × 3 levels (easy, hard, random), Game2048 has no solver;
	// and the 14 eval benchmarks, whose solver answers with the reference.
	require.Equal(t, 33+14, withSolver, "envs with a solver")
}
