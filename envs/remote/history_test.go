package remote_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envbuild"
	"github.com/gemgo/gemgo/envs/remote"
	"github.com/gemgo/gemgo/envs/remote/client"
)

// historyIDs are the ids the history tests play: multi-turn games, where
// the history shows, and single-turn math and qa, where it must not.
var historyIDs = []string{"game:GuessTheNumber-v0-hard", "game:Wordle-v0-easy", "math:Arithmetic-v0", "qa:Fictional-v0-onehop"}

// historyModes are the reset data's history settings the tests cover:
// mode and history_keep.
var historyModes = []struct {
	mode string
	keep int
}{{"", 0}, {envs.HistoryNone, 0}, {envs.HistoryObservations, 0}, {envs.HistoryActions, 0}, {envs.HistoryActions, 2}}

// turn is one entry of a random-play transcript.
type turn struct {
	Action     string
	Obs        string
	Reward     float64
	Terminated bool
	Truncated  bool
}

// randomPlay plays seeds 0..n-1 of env with its own sampler drawing from a
// PCG seeded by the episode's seed, at most maxSteps steps each.
func randomPlay(t *testing.T, env envs.Env, n int) [][]turn {
	t.Helper()
	s, ok := envs.SamplerOf(env)
	require.True(t, ok, "the env samples actions")
	var out [][]turn
	for seed := uint64(0); seed < uint64(n); seed++ {
		obs, _, err := env.Reset(seed)
		require.NoError(t, err)
		ep := []turn{{Obs: obs}}
		r := newRand(seed + 1000)
		for i := 0; i < 60; i++ {
			a := s.SampleAction(r)
			st, err := env.Step(a)
			require.NoError(t, err)
			ep = append(ep, turn{a, st.Obs, st.Reward, st.Terminated, st.Truncated})
			if st.Done() {
				break
			}
		}
		out = append(out, ep)
	}
	return out
}

// A client that names a history in its reset data reads, byte for byte,
// what envbuild.Make's history wrapper shows in-process: for each id and
// mode, 20 seeds of random play give the same observations, rewards and
// flags.
func TestRemoteHistoryMatchesInProcess(t *testing.T) {
	_, url := serve(t, remote.Config{})
	reg := builtin.Registry()
	for _, id := range historyIDs {
		for _, h := range historyModes {
			t.Run(fmt.Sprintf("%s/%s/%d", id, h.mode, h.keep), func(t *testing.T) {
				local, err := envbuild.Make(context.Background(), reg, envbuild.Config{ID: id, History: h.mode, HistoryKeep: h.keep})
				require.NoError(t, err)
				defer envs.Close(local)
				d := client.Dialer{History: h.mode, HistoryKeep: h.keep}
				far, err := d.Dial(context.Background(), url, id)
				require.NoError(t, err)
				defer envs.Close(far)
				want := randomPlay(t, local, 20)
				got := randomPlay(t, far, 20)
				require.Equal(t, want, got)
				if h.mode == envs.HistoryActions && id == historyIDs[0] {
					// The transcript is not trivially history-free: a
					// second step's observation holds the first action.
					ep := got[0]
					require.Greater(t, len(ep), 2)
					assert.Contains(t, ep[2].Obs, "\n> "+ep[1].Action+"\n")
				}
			})
		}
	}
}

// A bad history or history_keep is a VALIDATION_ERROR that names the field
// and what it allows.
func TestRemoteHistoryRejectsBadValues(t *testing.T) {
	_, url := serve(t, remote.Config{})
	for _, c := range []struct {
		d    client.Dialer
		want string
	}{
		{client.Dialer{History: "everything"}, `history = "everything": want one of none, observations, actions`},
		{client.Dialer{History: envs.HistoryActions, HistoryKeep: -1}, "history_keep = -1: want a whole number of turns"},
	} {
		_, err := c.d.Dial(context.Background(), url, guessID)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "VALIDATION_ERROR")
		assert.Contains(t, err.Error(), c.want)
	}
}
