package train

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/metrics/metricstest"
)

// The report a real (tiny) run writes opens offline in a browser: every
// learning curve drawn, the run summary and the config shown, nothing
// fetched but the page.
func TestRunReportInBrowser(t *testing.T) {
	ctx, log := metricstest.NewBrowser(t)
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig("ppo")
	_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir})
	require.NoError(t, err)

	srv := metricstest.Serve(t, dir)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+ReportFile)))
	titles := metricstest.RequireDrawn(t, metricstest.Charts(t, ctx))
	for _, want := range []string{"Episodic return", "Success rate", "Greedy evaluation", "Losses", "Entropy"} {
		assert.Contains(t, titles, want)
	}
	body, err := chromedp.Run(ctx, chromedp.Text("body"))
	require.NoError(t, err)
	for _, want := range []string{cfg.Env.ID, "greedy success", "algo:", "name: ppo"} {
		assert.Contains(t, body, want)
	}
	log.RequireClean(t, srv, "/"+ReportFile)

	// A mixture's report: one curve per env of the training success and
	// of the greedy and sampled evaluations, named by the env.
	log.Reset()
	mixDir := filepath.Join(t.TempDir(), "mix")
	_, err = Run(context.Background(), mixConfig(t), builtin.Registry(), Options{Dir: mixDir})
	require.NoError(t, err)
	srv = metricstest.Serve(t, mixDir)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+ReportFile)))
	charts := metricstest.Charts(t, ctx)
	titles = metricstest.RequireDrawn(t, charts)
	for _, c := range charts {
		switch c.Title {
		case "Success rate by env":
			assert.Equal(t, 2, c.Series, c.Title)
			assert.Equal(t, 2*4, c.Points, "%s: 4 iterations of 2 envs", c.Title)
		case "Greedy evaluation by env", "Sampled evaluation by env":
			assert.Equal(t, 2, c.Series, c.Title)
			assert.Equal(t, 2*3, c.Points, "%s: evaluations at iterations 0, 2, 4 of 2 envs", c.Title)
		}
	}
	assert.Subset(t, titles, []string{"Success rate by env", "Greedy evaluation by env", "Sampled evaluation by env"})
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll(".chart .item")).filter(function (el) {
  return el.closest("section").querySelector("h2").textContent === "Greedy evaluation by env";
}).map(function (el) { return echarts.getInstanceByDom(el).getOption().series.map(function (s) { return s.name; }).join(","); })`))
	require.NoError(t, err)
	assert.Equal(t, []string{"guess,rg:count_bits"}, names, "one series per env, named by the env")
	body, err = chromedp.Run(ctx, chromedp.Text("body"))
	require.NoError(t, err)
	assert.Contains(t, body, "mix: guess (1) + rg:count_bits (1)")
	assert.Contains(t, body, "greedy / sampled success: rg:count_bits")
	log.RequireClean(t, srv, "/"+ReportFile)
}
