package crosswords

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCellsViewText: the first observation and the one after a move, to
// the byte, in both styles.
func TestCellsViewText(t *testing.T) {
	lines := "1. It rings in a church tower: 0,0 _ 0,1 _ 0,2 _ 0,3 _\n" +
		"2. Green part of a plant that falls in autumn: 0,3 _ 1,3 _ 2,3 _ 3,3 _\n" +
		"3. Tree that grows acorns: 2,2 _ 2,3 _ 2,4 _"
	e := newEnv(t, Config{Level: "easy", Style: envs.StyleBrief, View: ViewCells})
	obs, _, err := e.Reset(heldOut)
	require.NoError(t, err)
	assert.Equal(t, "Crossword, 30 turns. Reply \\boxed{row col letter}. Cells: row,col letter, _ = empty.\n"+lines, obs)
	st := step(t, e, `\boxed{2 3 a}`)
	assert.Equal(t, "A is right at (2,3). 29 turns left.\n"+
		"1. It rings in a church tower: 0,0 _ 0,1 _ 0,2 _ 0,3 _\n"+
		"2. Green part of a plant that falls in autumn: 0,3 _ 1,3 _ 2,3 A 3,3 _\n"+
		"3. Tree that grows acorns: 2,2 _ 2,3 A 2,4 _", st.Obs)
	st = step(t, e, `\boxed{0 0 C}`)
	assert.True(t, strings.HasPrefix(st.Obs, "C is wrong at (0,0). 28 turns left.\n1. It rings in a church tower: 0,0 _ "), st.Obs)

	e = newEnv(t, Config{Level: "easy", View: ViewCells})
	obs, _, err = e.Reset(heldOut)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(obs, "You are solving a crossword in at most 30 turns."), obs)
	assert.Contains(t, obs, "Each clue is followed by its cells, each as row,col and its letter, with _ for an empty cell.")
	assert.True(t, strings.HasSuffix(obs, "A wrong letter is not written.\n"+lines), obs)
}

// TestCellsViewIsTheGrid: on every turn of 100 games per level, played
// with random letters and the solver's, the cells view and the grid view
// of the same game name the same letter cells with the same contents,
// and every cell a clue lists lies on its answer's run.
func TestCellsViewIsTheGrid(t *testing.T) {
	for _, level := range []string{"easy", "hard", "random"} {
		cells := newEnv(t, Config{Level: level, View: ViewCells})
		grid := newEnv(t, Config{Level: level})
		for seed := range uint64(100) {
			obsC, _, err := cells.Reset(seed)
			require.NoError(t, err)
			obsG, _, err := grid.Reset(seed)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(seed, 1))
			for turn := 0; ; turn++ {
				require.Equal(t, gridCells(t, obsG), listedCells(t, cells.Puzzle(), obsC), "%s seed %d turn %d", level, seed, turn)
				a := cells.SampleAction(r)
				if turn%2 == 1 {
					a, err = NewSolver(cells).Act("")
					require.NoError(t, err)
				}
				stC := step(t, cells, a)
				stG := step(t, grid, a)
				require.Equal(t, stG.Reward, stC.Reward)
				require.Equal(t, stG.Done(), stC.Done())
				if stC.Done() {
					break
				}
				obsC, obsG = stC.Obs, stG.Obs
			}
		}
	}
}

// gridCells reads the grid view's letter cells: (row, col) → its mark.
func gridCells(t *testing.T, obs string) map[[2]int]string {
	t.Helper()
	_, g, _ := strings.Cut(obs, "\n")
	if i := strings.Index(g, "Grid:\n"); i >= 0 {
		g = g[i+len("Grid:\n"):]
	}
	rows := strings.Split(g, "\n")
	out := map[[2]int]string{}
	for _, row := range rows[1:] {
		f := strings.Fields(row)
		r, err := strconv.Atoi(f[0])
		require.NoError(t, err, row)
		for c, mark := range f[1:] {
			if mark != "#" {
				out[[2]int{r, c}] = mark
			}
		}
	}
	return out
}

// listedCells reads the cells view: (row, col) → its mark, checking that
// a cell listed twice (where two answers cross) shows one mark and that
// each clue's cells run along its answer.
func listedCells(t *testing.T, p Puzzle, obs string) map[[2]int]string {
	t.Helper()
	out := map[[2]int]string{}
	n := 0
	for line := range strings.Lines(obs) {
		num, rest, ok := strings.Cut(line, ". ")
		i, err := strconv.Atoi(num)
		if !ok || err != nil {
			continue
		}
		n++
		require.Equal(t, n, i)
		en := p.Entries[i-1]
		clue, list, ok := strings.Cut(rest, ": ")
		require.True(t, ok)
		require.Equal(t, en.Clue, clue)
		ms := cellRe.FindAllStringSubmatch(list, -1)
		require.Len(t, ms, len(en.Word))
		dr, dc := en.Step()
		for j, m := range ms {
			r, _ := strconv.Atoi(m[1])
			c, _ := strconv.Atoi(m[2])
			require.Equal(t, [2]int{en.Row + dr*j, en.Col + dc*j}, [2]int{r, c})
			if prev, ok := out[[2]int{r, c}]; ok {
				require.Equal(t, prev, m[3], "a crossing shows one mark")
			}
			out[[2]int{r, c}] = m[3]
		}
	}
	require.Equal(t, len(p.Entries), n)
	return out
}
