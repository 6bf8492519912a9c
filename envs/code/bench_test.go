package code

import (
	"testing"

	"github.com/gemgo/gemgo/sandbox"
)

// BenchmarkStep judges a correct program on sum_two's 5 tests (4 at a
// time): warm, each test forked from a warm interpreter (the default);
// fresh, each in a new python3 process.
func BenchmarkStep(b *testing.B) {
	if _, _, err := sandbox.PythonFor(sandbox.DefaultPython, sandbox.Detect()); err != nil {
		b.Skip(err)
	}
	for _, fresh := range []bool{false, true} {
		name := "warm"
		if fresh {
			name = "fresh"
		}
		b.Run(name, func(b *testing.B) {
			cfg := loaded()
			cfg.FreshProcess = fresh
			env, err := New(SampleProblems()[:1], cfg)
			if err != nil {
				b.Fatal(err)
			}
			action := block("a, b = map(int, input().split())\nprint(a + b)")
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := env.Reset(0); err != nil {
					b.Fatal(err)
				}
				st, err := env.Step(action)
				if err != nil || st.Reward != 1 {
					b.Fatalf("%v %v %s", err, st.Reward, st.Obs)
				}
			}
		})
	}
}

// BenchmarkExtractCode reads the program from a typical response.
func BenchmarkExtractCode(b *testing.B) {
	resp := "Let me think.\n```python\nprint(0)\n```\nFinal:\n" + block("import sys\nprint(sum(map(int, sys.stdin.read().split())))")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ExtractCode(resp); !ok {
			b.Fatal("no code")
		}
	}
}
