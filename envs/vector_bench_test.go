package envs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
)

// benchID is the built-in game the VectorEnv benchmarks step (envtest.Toy
// when it is not registered).
const benchID = "game:GuessTheNumber-v0-easy"

func benchEnvs(b *testing.B, n int) []envs.Env {
	b.Helper()
	reg := builtin.Registry()
	list := make([]envs.Env, n)
	for i := range list {
		if reg.Description(benchID) == "" {
			list[i] = envtest.NewToy(4)
			continue
		}
		e, err := reg.Make(benchID, envs.With("style", "brief"))
		if err != nil {
			b.Fatal(err)
		}
		list[i] = e
	}
	return list
}

// benchVectorEnv steps n envs with random valid actions (drawn before the
// timer starts) and reports env steps per second.
func benchVectorEnv(b *testing.B, n, workers int) {
	v, err := envs.NewVectorEnv(benchEnvs(b, n), envs.VectorConfig{Workers: workers})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	if _, _, err := v.Reset(1); err != nil {
		b.Fatal(err)
	}
	const pool = 64
	r := rand.New(rand.NewPCG(1, 2))
	batches := make([][]string, pool)
	for k := range batches {
		batches[k] = make([]string, n)
		for i := range n {
			s, _ := envs.SamplerOf(v.Env(i))
			batches[k][i] = s.SampleAction(r)
		}
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		if _, err := v.Step(batches[k%pool]); err != nil {
			b.Fatal(err)
		}
		k++
	}
	b.ReportMetric(float64(k*n)/b.Elapsed().Seconds(), "steps/s")
}

// The default pool (GOMAXPROCS workers), the sequential mode, and one
// goroutine per env (Workers = n).
func BenchmarkVectorEnv1(b *testing.B)            { benchVectorEnv(b, 1, 0) }
func BenchmarkVectorEnv8(b *testing.B)            { benchVectorEnv(b, 8, 0) }
func BenchmarkVectorEnv64(b *testing.B)           { benchVectorEnv(b, 64, 0) }
func BenchmarkVectorEnvSequential8(b *testing.B)  { benchVectorEnv(b, 8, 1) }
func BenchmarkVectorEnvSequential64(b *testing.B) { benchVectorEnv(b, 64, 1) }
func BenchmarkVectorEnvPerEnv8(b *testing.B)      { benchVectorEnv(b, 8, 8) }
func BenchmarkVectorEnvPerEnv64(b *testing.B)     { benchVectorEnv(b, 64, 64) }
