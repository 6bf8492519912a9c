package envtest

// Option changes what CheckEnv checks.
type Option func(*config)

type config struct {
	episodes int  // random episodes played under SampleAction
	freeText bool // text without \boxed{} is not a format error
}

func defaultConfig() config { return config{episodes: 32} }

// Episodes sets how many random episodes (one seed each) CheckEnv plays
// under SampleAction (default 32). Values below 1 mean 1.
func Episodes(n int) Option {
	return func(c *config) { c.episodes = max(1, n) }
}

// FreeText tells CheckEnv that the env reads actions that have no \boxed{}
// (a tool wrapper, a chat env): the format-error checks are skipped.
func FreeText() Option {
	return func(c *config) { c.freeText = true }
}
