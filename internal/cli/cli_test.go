package cli

import (
	"flag"
	"io"
	"testing"
)

func TestMultiCollectsEveryUse(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var m Multi
	fs.Var(&m, "set", "")
	if err := fs.Parse([]string{"-set", "a=1", "-set", "b=2"}); err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m[0] != "a=1" || m[1] != "b=2" || m.String() != "a=1 b=2" {
		t.Fatalf("got %q", m)
	}
}
