package crosswords

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldOut is the first of the trainer's held-out seeds (2^40).
const heldOut = uint64(1) << 40

var cellRe = regexp.MustCompile(`(\d+),(\d+) ([A-Z_])`)

// firstEmptyCell reads the cells view the way a policy sees it: the
// first "row,col _" of the observation, with the clue line it is on.
func firstEmptyCell(t *testing.T, obs string) (r, c, clue int) {
	t.Helper()
	for line := range strings.Lines(obs) {
		num, rest, ok := strings.Cut(line, ". ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue // the instructions or the verdict
		}
		_, cells, ok := strings.Cut(rest, ": ")
		require.True(t, ok, "clue line %q", line)
		for _, m := range cellRe.FindAllStringSubmatch(cells, -1) {
			if m[3] == "_" {
				r, _ = strconv.Atoi(m[1])
				c, _ = strconv.Atoi(m[2])
				return r, c, n
			}
		}
	}
	t.Fatalf("no empty cell in %q", obs)
	return 0, 0, 0
}

// TestSampleFirstPlaysTheFirstEmptyCell: on every turn of 300 easy and
// 100 hard and random games, the teacher writes the right letter into the
// first empty cell the cells view lists, the same move whatever the
// random stream, every move right (never invalid, never wrong), and it
// fills the grid in one move per letter cell.
func TestSampleFirstPlaysTheFirstEmptyCell(t *testing.T) {
	for level, games := range map[string]uint64{"easy": 300, "hard": 100, "random": 100} {
		e := newEnv(t, Config{Level: level, Style: envs.StyleBrief, View: ViewCells})
		require.NoError(t, e.SetSample(SampleFirst))
		for seed := range games {
			obs, _, err := e.Reset(seed)
			require.NoError(t, err)
			p := e.Puzzle()
			letters := len(p.Moves())
			for turn := 1; ; turn++ {
				a := e.SampleAction(rand.New(rand.NewPCG(seed, uint64(turn))))
				require.Equal(t, a, e.SampleAction(rand.New(rand.NewPCG(7, 7))), "a draw from r")
				m, ok := ParseMove(a)
				require.True(t, ok, a)
				r, c, clue := firstEmptyCell(t, obs)
				require.Equal(t, [2]int{r, c}, [2]int{m.Row, m.Col}, "%s seed %d turn %d: %q", level, seed, turn, obs)
				en := p.Entries[clue-1]
				dr, dc := en.Step()
				j := (r - en.Row) * dr
				j += (c - en.Col) * dc
				require.Equal(t, en.Word[j], m.Letter, "the letter of clue %d's answer", clue)
				st := step(t, e, a)
				require.Nil(t, st.Info[envs.InfoInvalid])
				require.Greater(t, st.Reward, 0.0, "%s seed %d: %s is not right", level, seed, a)
				obs = st.Obs
				if st.Done() {
					require.True(t, st.Terminated)
					require.Equal(t, true, st.Info[envs.InfoSuccess])
					require.Equal(t, letters, turn)
					break
				}
			}
		}
	}
}

// TestSampleFirstHandBuilt follows the teacher on a known grid: the first
// clue's cells left to right, then the second clue's without the cell it
// shares with the first.
func TestSampleFirstHandBuilt(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", Style: envs.StyleBrief, View: ViewCells})
	require.NoError(t, e.SetSample(SampleFirst))
	_, _, err := e.Reset(heldOut)
	require.NoError(t, err)
	// 1. It rings in a church tower: BELL at (0,0) across; 2. LEAF at
	// (0,3) down; 3. OAK at (2,2) across, through LEAF's A.
	var moves []string
	for {
		a := e.SampleAction(nil)
		moves = append(moves, a)
		st := step(t, e, a)
		if st.Done() {
			break
		}
	}
	assert.Equal(t, []string{
		`\boxed{0 0 B}`, `\boxed{0 1 E}`, `\boxed{0 2 L}`, `\boxed{0 3 L}`,
		`\boxed{1 3 E}`, `\boxed{2 3 A}`, `\boxed{3 3 F}`,
		`\boxed{2 2 O}`, `\boxed{2 4 K}`,
	}, moves)
}

// TestSampleFirstWinsHeldOut: the teacher fills all 200 of the trainer's
// held-out easy grids (seeds from 2^40), 13.02 moves a grid on average
// (2,604 in all), as cmd/eval measures it.
func TestSampleFirstWinsHeldOut(t *testing.T) {
	e := newEnv(t, Config{Level: "easy", Style: envs.StyleBrief, View: ViewCells})
	require.NoError(t, e.SetSample(SampleFirst))
	wins, turns := 0, 0
	for seed := heldOut; seed < heldOut+200; seed++ {
		_, _, err := e.Reset(seed)
		require.NoError(t, err)
		for {
			st := step(t, e, e.SampleAction(nil))
			turns++
			if st.Done() {
				if st.Info[envs.InfoSuccess] == true {
					wins++
				}
				break
			}
		}
	}
	assert.Equal(t, 200, wins)
	assert.Equal(t, 2604, turns)
}

// TestSampleDefaultUnchanged: sample "any" (and no SetSample) is the
// draw GEM's random player makes, pinned on three seeds; the view does not
// change it.
func TestSampleDefaultUnchanged(t *testing.T) {
	want := []string{
		`\boxed{3 3 O}`, `\boxed{3 3 C}`, `\boxed{2 5 S}`, `\boxed{4 2 I}`,
		`\boxed{3 2 O}`, `\boxed{5 2 Z}`, `\boxed{1 2 O}`, `\boxed{5 0 Y}`,
		`\boxed{0 4 Q}`, `\boxed{4 3 E}`, `\boxed{0 4 T}`, `\boxed{2 1 H}`,
	}
	assert.Equal(t, want, envtest.SampleDraws(t, newEnv(t, Config{Level: "easy"}), 3, 4))
	for _, view := range []string{ViewGrid, ViewCells} {
		e := newEnv(t, Config{Level: "easy", View: view})
		require.NoError(t, e.SetSample(SampleAny))
		assert.Equal(t, want, envtest.SampleDraws(t, e, 3, 4), view)
	}
}

func TestSetSampleRejects(t *testing.T) {
	e := newEnv(t, Config{Level: "easy"})
	assert.EqualError(t, e.SetSample("best"), `crosswords: sample "best": want any or first`)
	_, err := New(Config{Level: "easy", View: "board"})
	assert.EqualError(t, err, `crosswords: view "board": want grid or cells`)
}
