package remote_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/remote"
)

// BenchmarkRemoteStep measures one step's round trip on loopback, one
// session, episodes of GuessTheNumber replayed with fixed guesses.
func BenchmarkRemoteStep(b *testing.B) {
	_, url := serve(b, remote.Config{})
	env, err := remote.Dial(context.Background(), url, "game:GuessTheNumber-v0-hard")
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
