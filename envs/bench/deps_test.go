package bench

import (
	"testing"

	"github.com/gemgo/gemgo/internal/depstest"
)

// Every command that links the built-in registry links this package: the
// Parquet reader stays in package importer, which only cmd/data links.
func TestBenchLinksNoParquet(t *testing.T) {
	deps := depstest.Deps(t, ".")
	depstest.Present(t, deps, depstest.Module+"envs/task")
	depstest.Absent(t, deps, "only the importer reads Parquet", "github.com/parquet-go/", depstest.Module+"envs/bench/importer")
}
