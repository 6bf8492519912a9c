package builtin_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
)

// legalGames are the games that list their valid actions, with every
// action of the right form their boards admit (valid or not).
var legalGames = map[string][]string{
	"game:Sudoku-v0-easy":        sudokuActions(4),
	"game:Game2048-v0-easy":      {"left", "right", "up", "down"},
	"game:Sokoban-v0-easy":       {"up", "down", "left", "right"},
	"game:FifteenPuzzle-v0-easy": {"up", "down", "left", "right"},
	"game:TowerofHanoi-v0-easy":  {"A A", "A B", "A C", "B A", "B B", "B C", "C A", "C B", "C C"},
}

func sudokuActions(n int) []string {
	var out []string
	for r := 1; r <= n; r++ {
		for c := 1; c <= n; c++ {
			for d := 1; d <= n; d++ {
				out = append(out, fmt.Sprintf("%d %d %d", r, c, d))
			}
		}
	}
	return out
}

// The list is exactly the actions the rules allow: over 20 seeds and the
// states random play reaches, every action of the game's form is played in
// a fresh env replayed to that state, and it is valid (no invalid_move, no
// format error) if and only if the list holds it; but for Sudoku, whose
// env also refuses a digit that clashes with nothing yet leaves the puzzle
// with no solution (listed, and refused for that reason only).
func TestLegalMovesAreTheValidActions(t *testing.T) {
	reg := builtin.Registry()
	for id, all := range legalGames {
		t.Run(id, func(t *testing.T) {
			checked := 0
			for seed := uint64(0); seed < 20; seed++ {
				env, err := reg.Make(id, envs.With("style", "brief"))
				require.NoError(t, err)
				lister, ok := env.(envs.LegalMover)
				require.True(t, ok, "%T lists no moves", env)
				_, _, err = env.Reset(seed)
				require.NoError(t, err)
				r := rand.New(rand.NewPCG(seed, 1))
				var played []string
				for turn := 0; turn < 6; turn++ {
					legal := lister.LegalMoves()
					for _, a := range all {
						valid, obs := playsValid(t, reg, id, seed, played, a)
						listed := slices.Contains(legal, a)
						if listed && !valid && strings.HasPrefix(id, "game:Sudoku") {
							assert.Contains(t, obs, "leaves the puzzle with no solution", "seed %d after %v: %q", seed, played, a)
							continue
						}
						assert.Equal(t, valid, listed, "seed %d after %v: %q valid=%v, listed in %v", seed, played, a, valid, legal)
						checked++
					}
					if len(legal) == 0 {
						break
					}
					a := legal[r.IntN(len(legal))]
					st, err := env.Step(envs.Boxed(a))
					require.NoError(t, err)
					played = append(played, a)
					if st.Done() {
						assert.Empty(t, lister.LegalMoves(), "no moves once the episode is over")
						break
					}
				}
			}
			assert.Greater(t, checked, 100)
		})
	}
}

// playsValid replays played on a fresh env of id from seed and reports
// whether action a is then played as a valid move, with the observation
// after it.
func playsValid(t *testing.T, reg *envs.Registry, id string, seed uint64, played []string, a string) (bool, string) {
	t.Helper()
	env, err := reg.Make(id, envs.With("style", "brief"))
	require.NoError(t, err)
	_, _, err = env.Reset(seed)
	require.NoError(t, err)
	for _, p := range played {
		_, err := env.Step(envs.Boxed(p))
		require.NoError(t, err)
	}
	st, err := env.Step(envs.Boxed(a))
	require.NoError(t, err)
	bad, _ := st.Info[envs.InfoInvalid].(bool)
	fe, _ := st.Info[envs.InfoFormatError].(bool)
	return !bad && !fe, st.Obs
}

// With the option every observation of a running episode ends with the
// list, the rest of it unchanged; the rewards and the ends are the game's,
// and a solver reading the listed observations still wins (Game2048 has
// none: it plays the first listed move); a game that cannot list its
// moves refuses the option by name.
func TestLegalMovesOption(t *testing.T) {
	reg := builtin.Registry()
	for id := range legalGames {
		plain, err := reg.Make(id, envs.With("style", "brief"))
		require.NoError(t, err)
		listed, err := reg.Make(id, envs.With("style", "brief"), envs.With(envs.LegalMovesOption, true))
		require.NoError(t, err)
		for seed := uint64(0); seed < 5; seed++ {
			o1, _, err := plain.Reset(seed)
			require.NoError(t, err)
			o2, _, err := listed.Reset(seed)
			require.NoError(t, err)
			lister := envs.Unwrapped(plain).(envs.LegalMover)
			want := strings.TrimRight(o1, "\n") + "\n" + envs.LegalMovesPrefix + strings.Join(lister.LegalMoves(), ", ") + "."
			require.Equal(t, want, o2, id)
			act := func(string) (string, error) { return envs.Boxed(lister.LegalMoves()[0]), nil }
			maker, hasSolver := envs.SolverOf(listed)
			if hasSolver {
				act = maker.NewSolver().Act
			}
			obs := o2
			for turn := 0; turn < 200; turn++ {
				a, err := act(obs)
				require.NoError(t, err, "%s seed %d: the solver reads the listed observation", id, seed)
				st1, err := plain.Step(a)
				require.NoError(t, err)
				st2, err := listed.Step(a)
				require.NoError(t, err)
				assert.Equal(t, st1.Reward, st2.Reward)
				assert.Equal(t, st1.Done(), st2.Done())
				if st2.Done() {
					assert.Equal(t, st1.Obs, st2.Obs, "no list after the end")
					if hasSolver {
						assert.Equal(t, true, st2.Info[envs.InfoSuccess], "%s seed %d: the solver still wins", id, seed)
					}
					break
				}
				assert.True(t, strings.HasPrefix(st2.Obs, strings.TrimRight(st1.Obs, "\n")+"\n"+envs.LegalMovesPrefix), id)
				obs = st2.Obs
			}
		}
	}
	_, err := reg.Make("game:Mastermind-v0-easy", envs.With(envs.LegalMovesOption, true))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot list its valid actions")
	assert.Contains(t, err.Error(), "Sudoku")
	_, err = reg.Make("game:Sudoku-v0-easy", envs.With(envs.LegalMovesOption, "yes"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), envs.LegalMovesOption)
}
