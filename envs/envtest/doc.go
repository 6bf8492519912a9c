// Package envtest is the conformance suite of gemgo's environments and the
// small deterministic env that tests of env-consuming code build on.
//
// CheckEnv runs one env through the contract of envs.Env: determinism per
// seed, finite rewards, the turn limit announced by Reset, Terminated and
// Truncated kept apart, format errors, hostile action strings, misuse
// errors. Every registered env passes it (see envs/builtins_test.go):
//
//	func TestMyEnv(t *testing.T) {
//		envtest.CheckEnv(t, func() (envs.Env, error) { return mygame.New(mygame.Easy) })
//	}
//
// Toy is a tiny guessing game that follows the same contract; wrappers,
// the vector env and rollout code use it in their tests so that they do not
// depend on a real game's rules.
package envtest
