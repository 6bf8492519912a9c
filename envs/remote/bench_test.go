package remote_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
)

// BenchmarkRemoteStep measures one step's round trip on loopback, one
// session, episodes of GuessTheNumber replayed with fixed guesses.
func BenchmarkRemoteStep(b *testing.B) {
	_, url := serve(b, remote.Config{})
	env, err := client.Dial(context.Background(), url, "game:GuessTheNumber-v0-hard")
	require.NoError(b, err)
	defer env.(interface{ Close() error }).Close()
	_, _, err = env.Reset(1)
	require.NoError(b, err)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := env.Step(envs.Boxed("25"))
		if err != nil {
			b.Fatal(err)
		}
		if st.Done() {
			if _, _, err := env.Reset(uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRemoteLoad holds 1,000 sessions open at once on one loopback
// server, each playing GuessTheNumber episodes for a fixed number of
// steps, and reports the step latency (p50, p99), the steps per second of
// all sessions together and the errors (there must be none). One iteration
// is the whole load:
//
//	go test -run XXX -bench BenchmarkRemoteLoad -benchtime 1x ./envs/remote/
func BenchmarkRemoteLoad(b *testing.B) {
	const sessions, steps = 1000, 50
	srv, url := serve(b, remote.Config{MaxSessions: sessions})
	for range b.N {
		lat := make([][]time.Duration, sessions)
		errs := make([]error, sessions)
		conns := make([]envs.Env, sessions)
		for i := range sessions { // connect all first: 1,000 sessions held at once
			conns[i], errs[i] = client.Dial(context.Background(), url, "game:GuessTheNumber-v0-hard")
		}
		if n := srv.Sessions(); n != sessions && firstErr(errs) == nil {
			b.Fatalf("%d sessions open, want %d", n, sessions)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for i := range sessions {
			if errs[i] != nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = playSteps(conns[i], uint64(i), steps, &lat[i])
			}()
		}
		wg.Wait()
		wall := time.Since(start)
		var all []time.Duration
		nerr := 0
		for i := range sessions {
			all = append(all, lat[i]...)
			if errs[i] != nil {
				nerr++
			}
			if conns[i] != nil {
				conns[i].(interface{ Close() error }).Close()
			}
		}
		if nerr > 0 {
			b.Errorf("%d of %d sessions failed; first: %v", nerr, sessions, firstErr(errs))
		}
		slices.Sort(all)
		b.ReportMetric(float64(sessions), "sessions")
		b.ReportMetric(float64(nerr), "errors")
		b.ReportMetric(float64(len(all))/wall.Seconds(), "steps/s")
		if len(all) > 0 {
			b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
		}
	}
}

// playSteps plays steps steps (resetting at the end of each episode) and
// records each step's latency.
func playSteps(env envs.Env, seed uint64, steps int, lat *[]time.Duration) error {
	if _, _, err := env.Reset(seed); err != nil {
		return err
	}
	guesses := []string{"25", "12", "37", "6", "18", "31", "43"}
	for k := range steps {
		t0 := time.Now()
		st, err := env.Step(envs.Boxed(guesses[k%len(guesses)]))
		*lat = append(*lat, time.Since(t0))
		if err != nil {
			return err
		}
		if st.Done() {
			seed += 1 << 32
			if _, _, err := env.Reset(seed); err != nil {
				return err
			}
		}
	}
	return nil
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
