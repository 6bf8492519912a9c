package wordsearch_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/envs/game/wordsearch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldOut is the first of the trainer's 200 held-out seeds (2^40).
const heldOut = 1 << 40

func makeEnv(t *testing.T, id string, opts ...envs.Option) *wordsearch.Env {
	t.Helper()
	env, err := registry(t).Make(id, opts...)
	require.NoError(t, err)
	return env.(*wordsearch.Env)
}

// lastWord reads the words left from an observation that ends with the
// words and the grid (the first one, or any with show_grid): the last of
// the "Words:" line, lowercase.
func lastWord(t *testing.T, obs string) string {
	t.Helper()
	i := strings.LastIndex(obs, "Words: ")
	require.GreaterOrEqual(t, i, 0, obs)
	line, _, ok := strings.Cut(obs[i+len("Words: "):], "\n")
	require.True(t, ok, obs)
	ws := strings.Fields(line)
	require.NotEmpty(t, ws, obs)
	return strings.ToLower(ws[len(ws)-1])
}

// The teacher plays, at every turn of 200 games per level, the two ends of
// the last word the observation lists, its last letter first: the letters
// from the first cell named to the second, read off the grid, spell that
// word backwards. Every move is legal and finds a word, so every game is
// won in one move a word; the letters are read independently of the env's
// record of where the words lie.
func TestSampleLastReadsTheObservation(t *testing.T) {
	for _, id := range []string{"game:WordSearch-v0-easy", "game:WordSearch-v0-hard", "game:WordSearch-v0-random"} {
		e := makeEnv(t, id, envs.With("style", "brief"), envs.With("show_grid", true), envs.With("sample", "last"))
		r := rand.New(rand.NewPCG(1, 2))
		for seed := uint64(heldOut); seed < heldOut+200; seed++ {
			obs, info, err := e.Reset(seed)
			require.NoError(t, err)
			g := e.Grid()
			for turn := 1; ; turn++ {
				want := lastWord(t, obs)
				a := e.SampleAction(r)
				m, ok := wordsearch.ParseMove(a)
				require.True(t, ok, a)
				letters, ok := g.Read(nil, m.R1, m.C1, m.R2, m.C2)
				require.True(t, ok, a)
				for i, j := 0, len(letters)-1; i < j; i, j = i+1, j-1 {
					letters[i], letters[j] = letters[j], letters[i]
				}
				require.Equal(t, want, string(letters), "%s seed %d turn %d: %s", id, seed, turn, a)
				st, err := e.Step(a)
				require.NoError(t, err)
				require.Nil(t, st.Info[envs.InfoInvalid], a)
				require.InDelta(t, 1/float64(len(g.Words)), st.Reward, 1e-12, a)
				if st.Done() {
					require.True(t, st.Terminated, "%s seed %d", id, seed)
					require.Equal(t, true, st.Info[envs.InfoSuccess])
					require.Equal(t, len(g.Words), turn)
					require.Less(t, turn, info[envs.InfoMaxTurns].(int))
					break
				}
				obs = st.Obs
			}
		}
	}
}

// The teacher is a function of the state: two random streams give the same
// moves, and the moves of the first held-out easy games are pinned.
func TestSampleLastDeterministic(t *testing.T) {
	e := makeEnv(t, "game:WordSearch-v0-easy", envs.With("sample", "last"))
	a := envtest.SampleDraws(t, e, 2, 0)
	b := make([]string, 0, len(a))
	r := rand.New(rand.NewPCG(99, 7))
	for seed := range uint64(2) {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		for {
			m := e.SampleAction(r)
			b = append(b, m)
			st, err := e.Step(m)
			require.NoError(t, err)
			if st.Done() {
				break
			}
		}
	}
	assert.Equal(t, a, b)
	assert.Len(t, a, 10) // 5 words a game, one move each

	_, _, err := e.Reset(heldOut)
	require.NoError(t, err)
	ws := e.Grid().Words
	p := ws[len(ws)-1]
	er, ec := p.End()
	assert.Equal(t, wordsearch.Move{R1: er, C1: ec, R2: p.Row, C2: p.Col}.String(), e.SampleAction(r))
}

// Without the option, SampleAction keeps its random lines: the draws equal
// those of sample = "any", and none is the teacher's on every turn (random
// play wins none of these games).
func TestSampleDefaultUnchanged(t *testing.T) {
	def := makeEnv(t, "game:WordSearch-v0-easy")
	anyEnv := makeEnv(t, "game:WordSearch-v0-easy", envs.With("sample", "any"))
	a := envtest.SampleDraws(t, def, 20, 0)
	assert.Equal(t, a, envtest.SampleDraws(t, anyEnv, 20, 0))
	assert.Len(t, a, 20*20) // every game runs to the turn limit

	_, err := registry(t).Make("game:WordSearch-v0-easy", envs.With("sample", "best"))
	assert.ErrorContains(t, err, "allowed values are any, last")
}

// With show_grid, an observation after a move ends as the first one does:
// the words left, then the grid; without it, the words left and the turns.
func TestShowGrid(t *testing.T) {
	e := makeEnv(t, "game:WordSearch-v0-easy", envs.With("style", "brief"), envs.With("show_grid", true))
	obs, _, err := e.Reset(heldOut)
	require.NoError(t, err)
	_, grid, ok := strings.Cut(obs, "\nGrid:\n")
	require.True(t, ok)
	ws := e.Grid().Words
	st, err := e.Step(ws[0].Move())
	require.NoError(t, err)
	var left []string
	for _, p := range ws[1:] {
		left = append(left, strings.ToUpper(p.Word))
	}
	want := "Found " + strings.ToUpper(ws[0].Word) + " (1 of 5). 19 turns left.\nWords: " +
		strings.Join(left, " ") + "\nGrid:\n" + grid
	assert.Equal(t, want, st.Obs)
	st, err = e.Step(`\boxed{0 0 0 1}`) // a line of two cells, which no word of 3 or more letters fills
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(st.Obs, "No hidden word from (0,0) to (0,1). 18 turns left.\nWords: "), st.Obs)
	assert.True(t, strings.HasSuffix(st.Obs, "\nGrid:\n"+grid), st.Obs)

	e = makeEnv(t, "game:WordSearch-v0-easy", envs.With("style", "brief"))
	_, _, err = e.Reset(heldOut)
	require.NoError(t, err)
	st, err = e.Step(ws[0].Move())
	require.NoError(t, err)
	assert.Equal(t, "Found "+strings.ToUpper(ws[0].Word)+" (1 of 5). Left: "+strings.Join(left, " ")+". 19 turns left.", st.Obs)
}
