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
}
