package sandbox

import (
	"context"
	"testing"
)

func benchRun(b *testing.B, spec Spec, iso Isolation) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := run(context.Background(), spec, iso)
		if err != nil || res.Status != StatusOK {
			b.Fatalf("%v %s %s", err, res.Status, res.Stderr)
		}
	}
}

func pyBench(b *testing.B) string {
	p, err := FindPython("python3")
	if err != nil {
		b.Skip(err)
	}
	return p
}

// BenchmarkRunTrue: the sandbox's own cost, under the detected isolation.
func BenchmarkRunTrue(b *testing.B) { benchRun(b, Spec{Cmd: []string{"true"}}, Detect()) }

// BenchmarkRunTrueNoIsolation: the same without namespaces or rlimits.
func BenchmarkRunTrueNoIsolation(b *testing.B) {
	benchRun(b, Spec{Cmd: []string{"true"}}, Isolation{Network: NetNone, Limits: LimitsNone})
}

// BenchmarkRunPython: one python3 -I -S program reading stdin.
func BenchmarkRunPython(b *testing.B) {
	benchRun(b, Spec{Cmd: []string{pyBench(b), "-I", "-S", "-c", "print(input())"}, Stdin: []byte("x\n")}, Detect())
}

// BenchmarkServerPython: the same program forked from a PythonServer's
// warm interpreter (python3 -I, site imported once).
func BenchmarkServerPython(b *testing.B) {
	s := NewPythonServer(pyBench(b), 0)
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.Run(context.Background(), []byte("print(input())"), []byte("x\n"), Limits{})
		if err != nil || res.Status != StatusOK {
			b.Fatalf("%v %s %s", err, res.Status, res.Stderr)
		}
	}
}
