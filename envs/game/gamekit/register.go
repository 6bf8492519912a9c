package gamekit

import "github.com/gemgo/gemgo/envs"

// Level is one registered id of a game: the id is the game's prefix plus
// Name ("easy", "hard", "random"), Desc is its one-line description and
// Value is what the game's factory is built from (a level name, a Config,
// a list of levels).
type Level[T any] struct {
	Name  string
	Desc  string
	Value T
}

// Register adds prefix+Name for every level to r, in order, each with its
// description and the factory that factory returns for its Value, wrapped
// so that every game accepts envs.LegalMovesOption (see LegalMoves). It
// stops at the first registration error.
func Register[T any](r *envs.Registry, prefix string, levels []Level[T], factory func(T) envs.Factory) error {
	for _, lv := range levels {
		if err := r.RegisterDesc(prefix+lv.Name, lv.Desc, LegalMoves(factory(lv.Value))); err != nil {
			return err
		}
	}
	return nil
}

// LegalMoves returns f reading one more option, envs.LegalMovesOption (a
// bool, default false): when true, the env f makes is wrapped with
// envs.WithLegalMoves, which fails, naming the games that can, for a game
// that cannot list its valid actions.
func LegalMoves(f envs.Factory) envs.Factory {
	return func(o *envs.Options) (envs.Env, error) {
		legal := o.Bool(envs.LegalMovesOption, false)
		env, err := f(o)
		if err != nil || !legal || o.Err() != nil {
			return env, err
		}
		w, err := envs.WithLegalMoves(env)
		if err != nil {
			_ = envs.Close(env)
			return nil, err
		}
		return w, nil
	}
}

// Common reads the options every game accepts, in this order: "style"
// ("gem" or "brief") and "max_turns" (a whole number in [lo, hi], def when
// absent). Errors are recorded in o as its getters do.
func Common(o *envs.Options, def, lo, hi int) (envs.Style, int) {
	style := o.Style()
	return style, o.Int("max_turns", def, lo, hi)
}

// Factory returns, for a game whose constructor takes its level value, the
// style and the max_turns override, the factory of each level: it reads
// the common options (max_turns def in [lo, hi], see Common) and calls
// newEnv. Option errors are reported by envs.Registry.Make.
func Factory[T any, E envs.Env](def, lo, hi int, newEnv func(T, envs.Style, int) (E, error)) func(T) envs.Factory {
	return func(v T) envs.Factory {
		return func(o *envs.Options) (envs.Env, error) {
			style, maxTurns := Common(o, def, lo, hi)
			return newEnv(v, style, maxTurns)
		}
	}
}

// SampleFactory is Factory for a game whose SampleAction has informed
// players beside its default draw: it also reads the option
// envs.SampleOption, one of values (the default, "any", first), and,
// after newEnv, passes it to set. Unlike Factory it returns the options'
// errors itself, before making the env.
func SampleFactory[T any, E envs.Env](def, lo, hi int, newEnv func(T, envs.Style, int) (E, error), set func(E, string) error, values ...string) func(T) envs.Factory {
	return func(v T) envs.Factory {
		return func(o *envs.Options) (envs.Env, error) {
			style, maxTurns := Common(o, def, lo, hi)
			sample := o.String(envs.SampleOption, values[0], values...)
			if err := o.Err(); err != nil {
				return nil, err
			}
			e, err := newEnv(v, style, maxTurns)
			if err != nil {
				return nil, err
			}
			if err := set(e, sample); err != nil {
				return nil, err
			}
			return e, nil
		}
	}
}

// AsEnv turns a game constructor's result into a factory's: a nil envs.Env
// (not a typed nil pointer) with the error when there is one.
func AsEnv[E envs.Env](env E, err error) (envs.Env, error) {
	if err != nil {
		return nil, err
	}
	return env, nil
}
