package envbuild

import (
	"context"
	"errors"
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote/client"
	"github.com/gemgo/gemgo/tools"
)

// Config is what an env is built from. The zero value of every field but
// ID means "none": no server, no options, no tools, no history.
type Config struct {
	// ID is the env's registry id, or with Remote the id the server makes
	// ("" there plays the server's default env).
	ID string
	// Remote is an env server's address (ws://host:port of cmd/envserver);
	// "" makes the env in this process from the registry.
	Remote string
	// Options are the env's constructor options (envs.FromMap turns a
	// config's map into them).
	Options []envs.Option
	// Tools wrap the env with tools that run in this process (tools.Wrap);
	// with Remote, the env plays on the server and its tools here.
	Tools []tools.Spec
	// History is the history wrapper's mode (envs.WithHistory: "",
	// "none", "observations" or "actions"), keeping the last HistoryKeep
	// turns (0: all).
	History     string
	HistoryKeep int
	// Client, when set, makes the env for a server's client: the options
	// are read under this policy (Registry.MakeForClient), so a server-only
	// option or a resource option above its cap is refused with an
	// *envs.ClientOptionError. Nil makes it with the operator's own
	// options (Registry.Make). It applies to in-process envs only: a
	// remote env's server applies its own policy.
	Client *envs.ClientPolicy
}

// ToolsError is the error of a Config whose tools could not be built (a
// bad spec, a python that does not start); the env they were to wrap has
// been closed. Callers that read tools from a flag or a config key unwrap
// it to name that.
type ToolsError struct{ Err error }

func (e *ToolsError) Error() string { return "tools: " + e.Err.Error() }

func (e *ToolsError) Unwrap() error { return e.Err }

// Make builds the env that c describes, from reg (unused with c.Remote).
// ctx governs a remote env's whole session (client.Dial); an in-process
// env does not read it. On error nothing is left open.
func Make(ctx context.Context, reg *envs.Registry, c Config) (envs.Env, error) {
	env, err := makeInner(ctx, reg, c)
	if err != nil {
		return nil, err
	}
	withTools, err := tools.Wrap(env, c.Tools)
	if err != nil {
		_ = envs.Close(env) // Wrap closes the tools it built, not the env
		return nil, &ToolsError{Err: err}
	}
	out, err := envs.WithHistory(withTools, c.History, c.HistoryKeep)
	if err != nil {
		_ = envs.Close(withTools)
		return nil, fmt.Errorf("env %s: %w", c.ID, err)
	}
	return out, nil
}

// makeInner makes the env itself: on a server, for a server's client, or
// in this process.
func makeInner(ctx context.Context, reg *envs.Registry, c Config) (envs.Env, error) {
	switch {
	case c.Remote != "" && c.Client != nil:
		return nil, errors.New("envbuild: Config.Client applies to envs made in this process; the server at Config.Remote applies its own policy to its clients' options")
	case c.Remote != "":
		if ctx == nil {
			return nil, errors.New("envbuild: a remote env needs a context (it governs the session)")
		}
		return client.Dial(ctx, c.Remote, c.ID, c.Options...)
	case reg == nil:
		return nil, fmt.Errorf("envbuild: env %s: no registry to make it from (builtin.Registry(), say)", c.ID)
	case c.Client != nil:
		return reg.MakeForClient(c.ID, *c.Client, c.Options...)
	}
	return reg.Make(c.ID, c.Options...)
}
