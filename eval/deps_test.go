package eval

import (
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// eval shares its statistics with compare through package stats, not by
// importing compare (which links the trainer), and finds solvers through
// the env (envs.SolverOf), not by importing the game packages.
func TestEvalLinksNoCompareNorGames(t *testing.T) {
	const m = depstest.Module
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, m+"stats", m+"envs")
	depstest.Absent(t, deps, "eval reaches it through stats or the env", m+"compare", m+"train", m+"envs/game", m+"envs/builtin")
}
