package envs

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Option is one named constructor option passed to Registry.Make, for
// example With("max_turns", 8) or With("style", "brief").
type Option struct {
	Name  string
	Value any
}

// With returns the option name = value.
func With(name string, value any) Option { return Option{Name: name, Value: value} }

// FromMap turns a map of options (as decoded from a YAML config) into
// Options, sorted by name so that errors come in a fixed order.
func FromMap(m map[string]any) []Option {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]Option, 0, len(m))
	for _, k := range names {
		out = append(out, Option{Name: k, Value: m[k]})
	}
	return out
}

// Options is what a Factory reads its settings from. Each getter returns the
// given value of an option, or its default when absent; a value of the wrong
// kind or out of range records an error that names the option and its
// allowed range. Make reports the first such error, and also any option that
// was given but never read by the factory (an unknown option).
type Options struct {
	id    string
	vals  map[string]any
	read  map[string]bool
	names []string // every option name the factory asked for, in order
	err   error
	// client is the policy of options that come from a server's client
	// (Registry.MakeForClient); nil for the operator's own options.
	client *ClientPolicy
}

// NewOptions collects opts for the env id (used in error messages).
func NewOptions(id string, opts ...Option) *Options {
	o := &Options{id: id, vals: map[string]any{}, read: map[string]bool{}}
	for _, op := range opts {
		o.vals[op.Name] = op.Value
	}
	return o
}

func (o *Options) fail(format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("env %s: option "+format, append([]any{o.id}, args...)...)
	}
}

// lookup returns the value given for name, if any and if the client
// policy admits it under a.
func (o *Options) lookup(a access, name string) (any, bool) {
	if !o.read[name] {
		o.names = append(o.names, name)
	}
	o.read[name] = true
	v, ok := o.vals[name]
	if ok && !o.admit(a, name) {
		return nil, false
	}
	return v, ok
}

// Int reads an integer option in [lo, hi].
func (o *Options) Int(name string, def, lo, hi int) int {
	return o.readInt(access{}, name, def, lo, hi)
}

func (o *Options) readInt(a access, name string, def, lo, hi int) int {
	v, ok := o.lookup(a, name)
	if !ok {
		return def
	}
	// Every kind is range-checked before the conversion to int, so that a
	// value past int's range is an error, never a wrapped-around number.
	var n int
	outside := false
	switch x := v.(type) {
	case int:
		n = x
	case int64:
		n, outside = int(x), x < int64(math.MinInt) || x > int64(math.MaxInt)
	case uint64:
		n, outside = int(x), x > uint64(math.MaxInt)
	case float64:
		if x != math.Trunc(x) {
			o.fail("%s = %v: want a whole number in [%d, %d]", name, v, lo, hi)
			return def
		}
		// float64(MaxInt) rounds up to 2^63, itself past the range.
		n, outside = int(x), !(x >= math.MinInt && x < math.MaxInt)
	case string:
		p, err := strconv.Atoi(strings.TrimSpace(x))
		if errors.Is(err, strconv.ErrRange) {
			outside = true
		} else if err != nil {
			o.fail("%s = %s: want a whole number in [%d, %d]", name, Excerpt(x), lo, hi)
			return def
		}
		n = p
	default:
		o.fail("%s = %s (%T): want a whole number in [%d, %d]", name, ExcerptValue(v), v, lo, hi)
		return def
	}
	if outside {
		o.fail("%s = %s is out of range: allowed [%d, %d]", name, ExcerptValue(v), lo, hi)
		return def
	}
	if n < lo || n > hi {
		o.fail("%s = %d is out of range: allowed [%d, %d]", name, n, lo, hi)
		return def
	}
	if !o.withinCap(a, name, float64(n)) {
		return def
	}
	return n
}

// Float reads a real-valued option in [lo, hi].
func (o *Options) Float(name string, def, lo, hi float64) float64 {
	return o.readFloat(access{}, name, def, lo, hi)
}

func (o *Options) readFloat(a access, name string, def, lo, hi float64) float64 {
	v, ok := o.lookup(a, name)
	if !ok {
		return def
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case uint64:
		f = float64(x)
	case string:
		p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			o.fail("%s = %s: want a number in [%g, %g]", name, Excerpt(x), lo, hi)
			return def
		}
		f = p
	default:
		o.fail("%s = %s (%T): want a number in [%g, %g]", name, ExcerptValue(v), v, lo, hi)
		return def
	}
	if math.IsNaN(f) || f < lo || f > hi {
		o.fail("%s = %g is out of range: allowed [%g, %g]", name, f, lo, hi)
		return def
	}
	if !o.withinCap(a, name, f) {
		return def
	}
	return f
}

// Bool reads a boolean option.
func (o *Options) Bool(name string, def bool) bool { return o.readBool(access{}, name, def) }

func (o *Options) readBool(a access, name string, def bool) bool {
	v, ok := o.lookup(a, name)
	if !ok {
		return def
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		b, err := strconv.ParseBool(strings.TrimSpace(x))
		if err == nil {
			return b
		}
	}
	o.fail("%s = %s: want true or false", name, ExcerptValue(v))
	return def
}

// String reads a string option. When allowed is not empty the value must be
// one of allowed. A server's client may not set a string option without
// allowed values unless its env declares it Content (see ClientPolicy).
func (o *Options) String(name, def string, allowed ...string) string {
	return o.readString(access{}, name, def, allowed...)
}

func (o *Options) readString(a access, name, def string, allowed ...string) string {
	if a.kind == plain && len(allowed) == 0 {
		a = access{kind: serverOnly, why: freeText}
	}
	v, ok := o.lookup(a, name)
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		o.fail("%s = %s (%T): want a string", name, ExcerptValue(v), v)
		return def
	}
	if len(allowed) > 0 {
		for _, a := range allowed {
			if s == a {
				return s
			}
		}
		o.fail("%s = %s: allowed values are %s", name, Excerpt(s), strings.Join(allowed, ", "))
		return def
	}
	return s
}

// Style reads the common "style" option: StyleGEM (default) or StyleBrief.
func (o *Options) Style() Style {
	return Style(o.String("style", string(StyleGEM), string(StyleGEM), string(StyleBrief)))
}

// Failf records a custom error (a cross-option check, say).
func (o *Options) Failf(format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("env %s: "+format, append([]any{o.id}, args...)...)
	}
}

// Err returns the first invalid option, or an error naming any option that
// was given but never read, with the options this env accepts.
func (o *Options) Err() error {
	if o.err != nil {
		return o.err
	}
	var unknown []string
	for k := range o.vals {
		if !o.read[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	const most = 10 // options named in the message
	if len(unknown) > most {
		unknown = append(unknown[:most], fmt.Sprintf("and %d more", len(unknown)-most))
	}
	for i, k := range unknown {
		if len(k) > ExcerptBytes {
			unknown[i] = Excerpt(k)
		}
	}
	valid := "none"
	if len(o.names) > 0 {
		known := append([]string(nil), o.names...)
		sort.Strings(known)
		valid = strings.Join(known, ", ")
	}
	return fmt.Errorf("env %s: unknown option %s (valid options: %s)", o.id, strings.Join(unknown, ", "), valid)
}

// Style is the instruction style of an env's observations.
type Style string

const (
	// StyleGEM writes instructions as GEM's prose does.
	StyleGEM Style = "gem"
	// StyleBrief writes a one-line instruction: for small policies that read
	// the text token by token.
	StyleBrief Style = "brief"
)

// SampleOption is the option by which an env chooses its random player
// (SampleAction) where it has more than one: its default is always GEM's
// draw, and another value an informed one (GuessTheNumber's "interval";
// Mastermind's, Wordle's and Hangman's "consistent"; Hangman's "mode";
// Wordle's and Crosswords' "first"; Sudoku's "single" and "first";
// Minesweeper's "deduce"; Game2048's "corner", "merge", "lookahead",
// "alternate" and "rotate"; Sokoban's "solver"; WordSearch's "last") that a
// warm-up imitates. The option changes SampleAction only, never the game, so
// baselines compare trained play with GEM's draw and show the informed
// player beside it.
const SampleOption = "sample"
