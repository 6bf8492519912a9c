package code_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/code"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/sandbox"
)

// TestCheckEnv runs the conformance suite on code:sample. Every step with a
// code block starts python3, so each problem keeps one test.
func TestCheckEnv(t *testing.T) {
	t.Parallel()
	if _, err := sandbox.FindPython("python3"); err != nil {
		t.Skipf("the code env runs real python3 programs: %v", err)
	}
	if testing.Short() {
		t.Skip("-short: the suite starts a few hundred python3 processes")
	}
	// code:jsonl builds the same Env from a file (TestMakeOptions).
	reg := envs.NewRegistry()
	if err := code.Register(reg); err != nil {
		t.Fatal(err)
	}
	envtest.CheckEnv(t, func() (envs.Env, error) {
		return reg.Make("code:sample", envs.With("max_tests", 1), envs.With("timeout", 20))
	}, envtest.Episodes(4))
}
