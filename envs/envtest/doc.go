// Package envtest is the conformance suite of gemgo's environments and the
// small deterministic env that tests of env-consuming code build on.
//
// CheckEnv runs one env through the contract of envs.Env: determinism per
// seed (fresh, reused and reset mid-episode), finite rewards, the turn
// limit announced by Reset, Terminated and Truncated kept apart, format
// errors and their reward, hostile action strings, misuse errors, and no
// state shared between two envs of one factory. Every registered env passes
// it (TestBuiltinsConform in envs/builtin runs it over every id):
//
//	func TestMyEnv(t *testing.T) {
//		envtest.CheckEnv(t, func() (envs.Env, error) { return mygame.New(mygame.Easy) })
//	}
//
// An env is driven by one goroutine at a time (the contract in envs.Env);
// to run envs in parallel, give each goroutine its own env from the same
// factory, as VectorEnv does. The concurrency check tests exactly that:
// two envs of one factory, stepped in turns and from two goroutines, play
// what one env plays alone. It does not share one env between goroutines.
//
// Options tune it: Episodes (random episodes played, default 32), Mutations
// (damaged valid actions tried, default 128; few for envs that start
// processes), FreeText (the env reads text without \boxed{}) and
// EchoesActions (the observation shows the agent's actions by design, so
// the check that a 1 MB action does not come back in the observation is
// skipped). Run it
// under go test -race as well: the concurrency check then also reports data
// races between envs.
//
// Toy is a tiny guessing game that follows the same contract; wrappers,
// the vector env and rollout code use it in their tests so that they do not
// depend on a real game's rules.
package envtest
