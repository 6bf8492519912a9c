package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/train"
)

// The table of what differs between arms names each key by its whole
// path, as -set takes it: an env option is env.options.style, not
// env.style; values are one-line YAML, and keys equal in every arm are
// left out.
func TestConfigDiffKeyPaths(t *testing.T) {
	// Runs of a sweep whose base changed between them (the report then
	// warns) may differ anywhere, an env option too.
	spec := Spec{Arms: []Arm{{Name: "brief"}, {Name: "verbose"}}}
	brief, verbose := train.DefaultConfig(), train.DefaultConfig()
	require.NoError(t, verbose.Set("env.options.style=verbose"))
	require.NoError(t, verbose.Set("env.tools=[{name: python, max_uses: 2}]"))
	runs := []Run{{Arm: "brief", Seed: 1, Cfg: brief}, {Arm: "verbose", Seed: 1, Cfg: verbose}}
	got := configDiff(spec, runs)
	assert.Equal(t, [][]string{
		{"key", "brief", "verbose"},
		{"env.options.style", "brief", "verbose"},
		{"env.tools", "", "[{max_uses: 2, name: python}]"},
	}, got)

	flat := flatten(train.DefaultConfig())
	assert.Equal(t, "false", flat["env.options.partial_credit"])
	assert.Equal(t, "0.001", flat["optim.lr"])
	assert.Equal(t, "rebn", flat["algo.name"])
	for k := range flat {
		c := train.DefaultConfig()
		assert.NoError(t, c.Set(k+"="+flat[k]), "every key of the table is one -set takes, with its value: %s", k)
		assert.Equal(t, train.DefaultConfig(), c, "%s=%s changes nothing", k, flat[k])
	}
}
