package stats

import (
	"strings"
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// The statistics are a leaf: compare and eval import stats, and stats
// imports neither (nor any other gemgo package).
func TestStatsIsALeaf(t *testing.T) {
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, depstest.Module+"stats")
	for _, d := range deps {
		if d != depstest.Module+"stats" && strings.HasPrefix(d, depstest.Module) {
			t.Errorf("stats links %s: it must import no gemgo package", d)
		}
	}
}
