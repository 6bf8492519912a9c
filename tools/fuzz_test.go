package tools

import (
	"testing"
	"time"

	"github.com/gemgo/gemgo/tools/toolserver"
)

// The demo server's calculator never panics and answers within its limits.
func FuzzCalculate(f *testing.F) {
	for _, s := range []string{"1+2*3", "(1/3)^-2", "2^1000^1000", "-(-(-1))", "1.5.2", "((((", "9^9^9", "0^-1", "1/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		start := time.Now()
		_, _ = toolserver.Calculate(expr)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Calculate(%q) took %v", expr, d)
		}
	})
}
