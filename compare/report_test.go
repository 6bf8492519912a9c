package compare

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/metrics/metricstest"
	"github.com/gemgo/gemgo/train"
)

// fakeSweep writes metrics.jsonl files of hand-made runs: arm "fast"
// reaches success 0.2·k at iteration k, arm "slow" half that; seed s adds
// 0.01·s. Each iteration is 100 env steps and 10 s.
func fakeSweep(t *testing.T) (Spec, []Run) {
	t.Helper()
	spec, err := ParseSpec([]byte("name: fake\nbase: {iterations: 4, rollout: {episodes: 0, steps: 100}}\n" +
		"arms: [{name: fast, set: [algo.name=rebn]}, {name: slow, set: [algo.name=reinforce]}]\nseeds: [1, 2, 3]\nthreshold: 0.5\n"))
	require.NoError(t, err)
	out := t.TempDir()
	runs, err := spec.Plan(out, nil)
	require.NoError(t, err)
	for _, r := range runs {
		rate := 0.2
		if r.Arm == "slow" {
			rate = 0.1
		}
		log, err := metrics.NewLogger(r.Dir)
		require.NoError(t, err)
		off := 0.01 * float64(r.Seed)
		require.NoError(t, log.Log(0, map[string]float64{keySuccess: off, keySolvedTurns: 3, keyEvalTurns: 4}))
		for it := 1; it <= 4; it++ {
			s := rate*float64(it) + off
			require.NoError(t, log.Log(it, map[string]float64{keySteps: 100 * float64(it), keyWall: 10 * float64(it),
				keyReturn: s - 0.1, keySuccess: s, keySolvedTurns: 3 - 0.25*float64(it), keyEvalTurns: 4 - 0.5*float64(it)}))
		}
		require.NoError(t, log.Close())
	}
	return spec, runs
}

func TestLoadHandMadeRuns(t *testing.T) {
	spec, runs := fakeSweep(t)
	l := Load(spec, runs)
	sums, byArm := l.Sums, l.ByArm
	require.Len(t, sums, 2)
	fast, slow := sums[0], sums[1]
	assert.Equal(t, "fast", fast.Arm)
	assert.Equal(t, 3, fast.Runs)
	assert.Equal(t, 3, fast.Complete)
	// Seeds add 0.01, 0.02, 0.03: means add 0.02 and the std is 0.01.
	assert.InDelta(t, 0.82, fast.Final.Mean, tol)
	assert.InDelta(t, 0.01, fast.Final.Std, tol)
	assert.InDelta(t, 0.42, slow.Final.Mean, tol)
	// A straight line from off to 0.8+off over [0, 400]: AUC = 0.4 + off.
	assert.InDelta(t, 0.42, fast.AUC.Mean, tol)
	assert.InDelta(t, 0.22, slow.AUC.Mean, tol)
	// 0.2·x/100 + off = 0.5 at x = (0.5 − off)·500: 245, 240, 235.
	assert.Equal(t, 3, fast.Reached)
	assert.InDelta(t, 240, fast.Reach.Mean, 1e-9)
	assert.InDelta(t, 5, fast.Reach.Std, 1e-9)
	// slow never reaches 0.5 (0.43 at most).
	assert.Equal(t, 0, slow.Reached)
	assert.Equal(t, 0, slow.Reach.N)
	assert.InDelta(t, 40, fast.Wall.Mean, tol)
	assert.InDelta(t, 2, fast.SolvedTurns.Mean, tol)
	assert.InDelta(t, 2, fast.Turns.Mean, tol)
	assert.True(t, fast.Final.Lo >= 0.81-tol && fast.Final.Hi <= 0.83+tol && fast.Final.Lo <= 0.82 && fast.Final.Hi >= 0.82)

	d := byArm["fast"][0]
	assert.Equal(t, []float64{0, 100, 200, 300, 400}, d.Success.X)
	assert.Equal(t, []float64{0, 10, 20, 30, 40}, d.SuccessT.X)
	assert.Equal(t, []float64{100, 200, 300, 400}, d.Return.X, "no training return before training")

	table := SummaryTable(sums, spec.Threshold)
	require.Len(t, table, 3)
	assert.Equal(t, "0.820 ± 0.010 [0.810, 0.830]", table[1][2])
	assert.Equal(t, "0/3", table[2][5])
	assert.Equal(t, "–", table[2][4])
}

func TestLoadRunKeepsTheLastRowOfAnIteration(t *testing.T) {
	dir := t.TempDir()
	log, err := metrics.NewLogger(dir)
	require.NoError(t, err)
	require.NoError(t, log.Log(0, map[string]float64{keySuccess: 0.1}))
	require.NoError(t, log.Log(1, map[string]float64{keySteps: 50, keyWall: 5, keySuccess: 0.9}))
	require.NoError(t, log.Log(1, map[string]float64{keySteps: 50, keyWall: 6, keySuccess: 0.3})) // resumed
	require.NoError(t, log.Log(2, map[string]float64{keySteps: 100, keyWall: 9, keySuccess: 0}))
	require.NoError(t, log.Close())
	d := LoadRun(Run{Dir: dir})
	require.NoError(t, d.Err)
	assert.Equal(t, []float64{0.1, 0.3, 0}, d.Success.Y)
	assert.Equal(t, 9.0, d.Wall)
	assert.True(t, math.IsNaN(d.SolvedTurns.Y[2]), "no solved episode: no turn count")

	d = LoadRun(Run{Dir: t.TempDir()})
	assert.Error(t, d.Err)
}

func TestReportInBrowser(t *testing.T) {
	ctx, log := metricstest.NewBrowser(t)
	spec, runs := fakeSweep(t)
	dir := t.TempDir()
	require.NoError(t, WriteReport(filepath.Join(dir, ReportFile), Load(spec, runs)))
	srv := metricstest.Serve(t, dir)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+ReportFile)))

	charts := metricstest.Charts(t, ctx)
	metricstest.RequireDrawn(t, charts)
	require.Len(t, charts, 4, "success vs steps, vs wall-clock, training return, solved turns")
	for i, c := range charts {
		assert.Equal(t, 6, c.Series, "chart %d: two arms, each a mean and a band of two series", i)
	}
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`echarts.getInstanceByDom(document.querySelector(".chart .item")).getOption().series.map(function (s) { return s.name; })`))
	require.NoError(t, err)
	assert.Contains(t, names, "fast (3 seeds)")
	assert.Contains(t, names, "slow (3 seeds)")
	text, err := chromedp.Run(ctx, chromedp.Text("body"))
	require.NoError(t, err)
	for _, want := range []string{"0.820 ± 0.010", "algo.name", "Config of arm slow", fmt.Sprintf("%d/3", 0)} {
		assert.Contains(t, text, want)
	}
	log.RequireClean(t, srv, "/"+ReportFile)
}

func TestReportWarnsWhenRunsDiffer(t *testing.T) {
	spec, runs := fakeSweep(t)
	// Seed 2 of arm slow ran with another model (the base changed between
	// two invocations of the sweep).
	cfg := runs[4].Cfg
	cfg.Model.DModel = 32
	y, err := cfg.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(runs[4].Dir, train.ConfigFile), y, 0o644))
	d := LoadRun(runs[4])
	require.NoError(t, d.Err)
	assert.True(t, d.Stale)
	assert.Equal(t, 32, d.Run.Cfg.Model.DModel)
	assert.False(t, LoadRun(runs[3]).Stale)

	path := filepath.Join(t.TempDir(), ReportFile)
	require.NoError(t, WriteReport(path, Load(spec, runs)))
	page, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(page), "Warning: not an apple-to-apple comparison")
	assert.Contains(t, string(page), "arm slow: seeds 1 and 2 ran with different configs")

	// Arm slow's first seed with another model differs from arm fast.
	require.NoError(t, os.WriteFile(filepath.Join(runs[3].Dir, train.ConfigFile), y, 0o644))
	require.NoError(t, WriteReport(path, Load(spec, runs)))
	page, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(page), "arms fast and slow: model differs")
}
