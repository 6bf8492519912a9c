package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// badValue is a flag whose Set fails with a two-line error.
type badValue struct{}

func (badValue) String() string   { return "" }
func (badValue) Set(string) error { return errors.New("first line\nsecond line") }

func TestParseFlags(t *testing.T) {
	cases := []struct {
		args           []string
		code           int
		ok             bool
		stdout, stderr string // substrings; "" means nothing may be written
	}{
		{[]string{"-n", "3"}, ExitOK, true, "", ""},
		{[]string{"-h"}, ExitOK, false, "usage: x [-n N]\nflags:\n  -bad", ""},
		{[]string{"-help"}, ExitOK, false, "usage: x [-n N]", ""},
		{[]string{"-n", "3", "-h"}, ExitOK, false, "usage: x [-n N]", ""},
		{[]string{"-nope"}, ExitUsage, false, "", "x: flag provided but not defined: -nope (see -h)\n"},
		{[]string{"-n", "three"}, ExitUsage, false, "", `x: invalid value "three" for flag -n: parse error (see -h)` + "\n"},
		{[]string{"-bad", "v"}, ExitUsage, false, "", `x: invalid value "v" for flag -bad: first line; second line (see -h)` + "\n"},
		{[]string{"-n", "3", "extra"}, ExitUsage, false, "", `x: unexpected argument "extra": the command takes flags only (see -h)` + "\n"},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.Int("n", 0, "a number")
		fs.Var(badValue{}, "bad", "fails")
		SetUsage(fs, "usage: x [-n N]")
		var stdout, stderr bytes.Buffer
		code, ok := ParseFlags(fs, c.args, &stdout, &stderr)
		if code != c.code || ok != c.ok {
			t.Errorf("%q: got %d %t, want %d %t", c.args, code, ok, c.code, c.ok)
		}
		for _, o := range []struct {
			name, got, want string
		}{{"stdout", stdout.String(), c.stdout}, {"stderr", stderr.String(), c.stderr}} {
			if (o.want == "") != (o.got == "") || !strings.Contains(o.got, o.want) {
				t.Errorf("%q: %s = %q, want %q", c.args, o.name, o.got, o.want)
			}
		}
		if strings.Count(stderr.String(), "\n") > 1 {
			t.Errorf("%q: stderr is more than one line: %q", c.args, stderr.String())
		}
	}
}
