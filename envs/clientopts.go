package envs

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Options that come from a server's client (cmd/envserver's reset data)
// rather than from the operator's own config are read under a
// ClientPolicy. Each env declares, where it reads an option, what a client
// may do with it, so the rule lives with the option:
//
//   - o.ServerOnly(why).String("path", "") — names a program or file of
//     the server, or weakens its sandbox: a client may not set it unless
//     the operator allows the key (ClientPolicy.Allow);
//   - o.Resource(cap).Float("timeout", 1, 0.05, 600) — spends the server's
//     time or memory: a client's value may not exceed cap, or the
//     operator's own cap for the key (ClientPolicy.Caps);
//   - o.Content().String("question_field", "question") — free text that
//     only shapes the task: a client may set it;
//   - every other getter reads an option a client may set within its
//     validated range, except a free-text String (one without a list of
//     allowed values), which is server-only unless declared Content: free
//     text is how options name files and programs, so a new one is closed
//     to clients until its env says otherwise.
//
// A refused option is an error (a *ClientOptionError) and its getter
// returns the default, so the value never reaches the factory.

// ClientPolicy is what a server's operator lets the server's clients set
// (Registry.MakeForClient). The zero value allows no server-only option
// and keeps the caps the envs declare.
type ClientPolicy struct {
	// Allow names options a client may set though their env declares them
	// server-only; a resource option named here has no cap beyond its
	// validated range.
	Allow []string
	// Caps replaces the cap a resource option declares, by option name: a
	// client's value above Caps[name] is refused (a NaN cap is ignored).
	Caps map[string]float64
}

func (p *ClientPolicy) allows(name string) bool { return slices.Contains(p.Allow, name) }

// capOf is the largest value a client may give the resource option name
// that declares cap.
func (p *ClientPolicy) capOf(name string, declared float64) float64 {
	if p.allows(name) {
		return math.Inf(1)
	}
	if c, ok := p.Caps[name]; ok && !math.IsNaN(c) {
		return c
	}
	return declared
}

// ClientOptionError is the error of an option a server's client set but
// may not: a server-only option (Reason says what it names or does) or a
// resource option above its cap (Resource).
type ClientOptionError struct {
	ID       string  // the env id
	Name     string  // the option
	Reason   string  // server-only: why a client may not set it
	Resource bool    // the option is a resource option above its cap
	Value    float64 // resource: the value given
	Cap      float64 // resource: the cap it exceeds
}

func (e *ClientOptionError) Error() string {
	if e.Resource {
		return fmt.Sprintf("env %s: option %s = %s is above this server's cap of %s for its clients", e.ID, e.Name, number(e.Value), number(e.Cap))
	}
	return fmt.Sprintf("env %s: option %s: a client of this server may not set it: it %s", e.ID, e.Name, e.Reason)
}

// access is what a client may do with one option.
type access struct {
	kind      accessKind
	why       string  // serverOnly: what the option names or does
	clientMax float64 // resource: the cap the env declares
}

type accessKind int

const (
	plain      accessKind = iota // settable within its range; free text is server-only
	serverOnly                   // refused unless allowed
	resource                     // capped
	content                      // settable, free text included
)

// freeText is the reason given for an undeclared free-text option.
const freeText = "is free text, which names files or programs of the server unless its env declares it content"

// Guarded reads options under an access rule; Options.ServerOnly,
// Options.Resource and Options.Content return one. Its getters are those
// of Options.
type Guarded struct {
	o *Options
	a access
}

// ServerOnly marks the option read next as the operator's: why says what
// it names or does ("names a file on the server"), for the error a client
// that sets it gets.
func (o *Options) ServerOnly(why string) Guarded {
	return Guarded{o, access{kind: serverOnly, why: why}}
}

// Resource marks the option read next as spending the server's resources:
// a client's value above clientMax (or the operator's cap for it) is
// refused. Only Int and Float take a cap.
func (o *Options) Resource(clientMax float64) Guarded {
	return Guarded{o, access{kind: resource, clientMax: clientMax}}
}

// Content marks the option read next as free text that only shapes the
// task (the name of a field of a data file): a client may set it.
func (o *Options) Content() Guarded { return Guarded{o, access{kind: content}} }

// Int is Options.Int under g's rule.
func (g Guarded) Int(name string, def, lo, hi int) int { return g.o.readInt(g.a, name, def, lo, hi) }

// Float is Options.Float under g's rule.
func (g Guarded) Float(name string, def, lo, hi float64) float64 {
	return g.o.readFloat(g.a, name, def, lo, hi)
}

// Bool is Options.Bool under g's rule.
func (g Guarded) Bool(name string, def bool) bool { return g.o.readBool(g.a, name, def) }

// String is Options.String under g's rule.
func (g Guarded) String(name, def string, allowed ...string) string {
	return g.o.readString(g.a, name, def, allowed...)
}

// admit applies the client policy to an option given under a: false when
// the option is refused (the error is recorded).
func (o *Options) admit(a access, name string) bool {
	if o.client == nil || a.kind != serverOnly || o.client.allows(name) {
		return true
	}
	if o.err == nil {
		o.err = &ClientOptionError{ID: o.id, Name: name, Reason: a.why}
	}
	return false
}

// withinCap applies a resource option's cap to its value f: false when a
// client's value is above it (the error is recorded).
func (o *Options) withinCap(a access, name string, f float64) bool {
	if o.client == nil || a.kind != resource {
		return true
	}
	if c := o.client.capOf(name, a.clientMax); f > c {
		if o.err == nil {
			o.err = &ClientOptionError{ID: o.id, Name: name, Resource: true, Value: f, Cap: c}
		}
		return false
	}
	return true
}

// MakeForClient is Make for options that come from a server's client: it
// applies p to them (see ClientPolicy). An option p refuses is an error
// that wraps a *ClientOptionError.
func (r *Registry) MakeForClient(id string, p ClientPolicy, opts ...Option) (Env, error) {
	return r.make(id, &p, opts)
}

// number writes f without an exponent: 1048576, 0.5.
func number(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
