package envbuild_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/tools"
	"github.com/gemgo/gemgo/tools/protocol"
)

// toyRegistry registers "t:toy", a Toy whose turn limit is the option
// turns and whose instances are kept in made (the last one made is
// made[len(made)-1]), so a test can count their Close calls; and
// "t:path", which reads a server-only option.
func toyRegistry(t *testing.T, made *[]*envtest.Toy) *envs.Registry {
	t.Helper()
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("t:toy", func(o *envs.Options) (envs.Env, error) {
		toy := envtest.NewToy(o.Int("turns", 5, 1, 100))
		*made = append(*made, toy)
		return toy, nil
	}))
	require.NoError(t, reg.Register("t:path", func(o *envs.Options) (envs.Env, error) {
		_ = o.ServerOnly("names a file on the server").String("path", "")
		toy := envtest.NewToy(5)
		*made = append(*made, toy)
		return toy, nil
	}))
	return reg
}

// wrappers lists the types of env's wrappers, outermost first.
func wrappers(env envs.Env) []string {
	var out []string
	for {
		switch env.(type) {
		case *tools.Env:
			out = append(out, "tools")
		case *envs.ActionObservationHistory:
			out = append(out, "actions")
		case *envs.ObservationHistory:
			out = append(out, "observations")
		case *envtest.Toy:
			return append(out, "toy")
		default:
			return append(out, "other")
		}
		w, ok := env.(envs.Wrapper)
		if !ok {
			return out
		}
		env = w.Unwrap()
	}
}

// wrongGuess is a guess that misses the Toy's digit for seed.
func wrongGuess(seed uint64) string {
	return envs.Boxed(map[bool]string{true: "1", false: "2"}[envtest.ToyTarget(seed) != 1])
}

// In-process: the option reaches the factory (turns=1 truncates the first
// miss), the tools wrap the env and the history wraps the tools, and the
// observation after a step holds the turns before it.
func TestMakeLocal(t *testing.T) {
	var made []*envtest.Toy
	reg := toyRegistry(t, &made)
	env, err := envbuild.Make(context.Background(), reg, envbuild.Config{
		ID: "t:toy", Options: envs.FromMap(map[string]any{"turns": 1}),
		Tools:   []tools.Spec{{Name: protocol.KindSearch, Corpus: tools.CorpusFictional}}, // in memory: no python needed
		History: envs.HistoryActions,
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"actions", "tools", "toy"}, wrappers(env))
	const seed = 3
	first, _, err := env.Reset(seed)
	require.NoError(t, err)
	assert.Contains(t, first, "guess 1-9")
	guess := wrongGuess(seed)
	st, err := env.Step(guess)
	require.NoError(t, err)
	assert.True(t, st.Truncated, "turns=1: the first miss ends the episode")
	assert.True(t, strings.HasPrefix(st.Obs, first+"\n> "+guess+"\n"), "the observation carries the history: %q", st.Obs)
	assert.Regexp(t, `t1 (higher|lower)$`, st.Obs)
	require.NoError(t, envs.Close(env))
	require.Len(t, made, 1)
	assert.Equal(t, 1, made[0].Closes(), "closing the built env closes the env inside")
}

// Remote: the env plays on an env server on loopback (which makes it with
// the same builder), its option applied there, the history wrapped here.
func TestMakeRemote(t *testing.T) {
	var made []*envtest.Toy
	reg := toyRegistry(t, &made)
	srv, err := remote.NewServer(reg, remote.Config{})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := &httptest.Server{Listener: ln, Config: &http.Server{Handler: srv}}
	hs.Start()
	defer hs.Close()

	env, err := envbuild.Make(context.Background(), nil, envbuild.Config{
		ID: "t:toy", Remote: "ws://" + ln.Addr().String(), Options: envs.FromMap(map[string]any{"turns": 1}),
		History: envs.HistoryObservations,
	})
	require.NoError(t, err)
	assert.IsType(t, &envs.ObservationHistory{}, env, "the history wraps the remote env here")
	first, _, err := env.Reset(4)
	require.NoError(t, err)
	assert.Equal(t, "guess 1-9", first)
	st, err := env.Step(wrongGuess(4))
	require.NoError(t, err)
	assert.True(t, st.Truncated, "turns=1 reached the server's factory")
	assert.Regexp(t, `^guess 1-9\n.*t1 (higher|lower)$`, st.Obs)
	require.Len(t, made, 1, "the server made the env, once")
	require.NoError(t, envs.Close(env))
}

// A step that fails closes what the steps before it built: a bad tool
// spec or a bad history mode leaves no env open.
func TestMakeFailureClosesInner(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  envbuild.Config
		want string
	}{
		{"bad tool", envbuild.Config{ID: "t:toy", Tools: []tools.Spec{{Name: "serch"}}}, `tools: env.tools[0].name = "serch"`},
		{"bad history", envbuild.Config{ID: "t:toy", History: "everything"}, `env t:toy: history "everything": allowed none, observations, actions`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var made []*envtest.Toy
			env, err := envbuild.Make(context.Background(), toyRegistry(t, &made), tc.cfg)
			require.Error(t, err)
			assert.Nil(t, env)
			assert.Contains(t, err.Error(), tc.want)
			require.Len(t, made, 1)
			assert.Equal(t, 1, made[0].Closes(), "the env inside was closed")
			var te *envbuild.ToolsError
			assert.Equal(t, tc.name == "bad tool", errors.As(err, &te), "only a tools failure is a *ToolsError")
		})
	}
}

// For a server's client the options are read under its policy: a
// server-only option is refused (before the factory sees its value) unless
// the policy allows it; the operator's own Make accepts it.
func TestMakeForClient(t *testing.T) {
	var made []*envtest.Toy
	reg := toyRegistry(t, &made)
	opts := envs.FromMap(map[string]any{"path": "/etc/shadow"})
	_, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: "t:path", Options: opts, Client: &envs.ClientPolicy{}})
	var ce *envs.ClientOptionError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "path", ce.Name)
	assert.EqualError(t, err, "env t:path: option path: a client of this server may not set it: it names a file on the server")

	for _, cfg := range []envbuild.Config{
		{ID: "t:path", Options: opts},
		{ID: "t:path", Options: opts, Client: &envs.ClientPolicy{Allow: []string{"path"}}},
	} {
		env, err := envbuild.Make(context.Background(), reg, cfg)
		require.NoError(t, err, "client policy %+v", cfg.Client)
		require.NoError(t, envs.Close(env))
	}

	_, err = envbuild.Make(context.Background(), reg, envbuild.Config{ID: "t:toy", Remote: "ws://127.0.0.1:1", Client: &envs.ClientPolicy{}})
	assert.ErrorContains(t, err, "Config.Client applies to envs made in this process")
}
