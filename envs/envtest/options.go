package envtest

// Option changes what CheckEnv checks.
type Option func(*config)

type config struct {
	episodes  int  // random episodes played under SampleAction
	mutations int  // damaged valid actions tried by the hostile check
	freeText  bool // text without \boxed{} is not a format error
	echoes    bool // observations hold the agent's actions by design
}

func defaultConfig() config { return config{episodes: 32, mutations: 128} }

// Episodes sets how many random episodes (one seed each) CheckEnv plays
// under SampleAction (default 32). Values below 1 mean 1.
func Episodes(n int) Option {
	return func(c *config) { c.episodes = max(1, n) }
}

// Mutations sets how many randomly damaged valid actions the hostile-input
// check tries, besides its fixed list (default 128; at least 1). Envs whose
// steps are expensive (a code env runs python3) use a few.
func Mutations(n int) Option {
	return func(c *config) { c.mutations = max(1, n) }
}

// FreeText tells CheckEnv that the env reads actions that have no \boxed{}
// (a tool wrapper, a chat env): the format-error checks are skipped.
func FreeText() Option {
	return func(c *config) { c.freeText = true }
}

// EchoesActions tells CheckEnv that the env's observations hold the
// agent's actions by design (envs.ActionObservationHistory shows the
// episode so far, actions and all): the check that a huge action does not
// come back in the observation is skipped.
func EchoesActions() Option {
	return func(c *config) { c.echoes = true }
}
