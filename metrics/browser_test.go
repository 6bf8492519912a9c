package metrics

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/metrics/metricstest"
)

var screenshotDir = flag.String("metrics.screenshots", "",
	"write full-page PNGs of the pages the browser test renders into this directory")

// bandProbeJS returns the RGBA of the canvas pixel inside the band of the
// first series of the first chart, halfway between its curve and its upper
// bound at data point 3.
const bandProbeJS = `(function () {
  var el = document.querySelector(".chart .item"), c = echarts.getInstanceByDom(el), o = c.getOption();
  var p = o.series[0].data[3].value, up = o.series[1].data[3].value[0] + o.series[2].data[3].value[0];
  var px = c.convertToPixel({seriesIndex: 0}, [p[0], (p[1] + up) / 2]), r = window.devicePixelRatio || 1;
  var cv = el.querySelector("canvas");
  return Array.from(cv.getContext("2d").getImageData(Math.round(px[0] * r), Math.round(px[1] * r), 1, 1).data);
})()`

// tooltipProbeJS shows the axis tooltip at data point 3 of the first chart
// and returns its text.
const tooltipProbeJS = `new Promise(function (resolve) {
  var el = document.querySelector(".chart .item"), c = echarts.getInstanceByDom(el);
  c.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 3});
  setTimeout(function () {
    var tips = Array.from(el.querySelectorAll("div")).filter(function (d) { return d.textContent.indexOf("ReBN:") >= 0; });
    resolve(tips.length ? tips[tips.length - 1].textContent.trim() : "no tooltip");
  }, 200);
})`

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshotDir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(*screenshotDir, name), png, 0o644))
}

// TestBrowser renders pages in one headless chromium (starting it is the
// slow part) and checks what a reader would see.
func TestBrowser(t *testing.T) {
	ctx, log := metricstest.NewBrowser(t)
	t.Run("report", func(t *testing.T) { testBrowserReport(t, ctx, log) })
	t.Run("bands", func(t *testing.T) { testBrowserBands(t, ctx, log) })
}

func testBrowserReport(t *testing.T, ctx context.Context, log *metricstest.Log) {
	log.Reset()
	dir := t.TempDir()
	r := sampleReport()
	require.NoError(t, WriteReport(filepath.Join(dir, "report.html"), r))
	srv := metricstest.Serve(t, dir)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/report.html")))
	title, err := chromedp.Run(ctx, chromedp.Title())
	require.NoError(t, err)
	assert.Equal(t, r.Title, title)

	titles := metricstest.RequireDrawn(t, metricstest.Charts(t, ctx))
	var want []string
	for _, p := range DefaultPanels() {
		want = append(want, p.Title)
	}
	assert.Equal(t, want, titles, "one drawn chart per panel")

	config, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("pre").textContent`))
	require.NoError(t, err)
	assert.Equal(t, r.ConfigYAML, config, "the config is shown verbatim")
	summary, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("section")[0].querySelectorAll("td")).map(function (td) { return td.textContent; })`))
	require.NoError(t, err)
	assert.Equal(t, []string{"success rate", "0.969", "mean return", "0.719", "episodes", "64"}, summary)

	screenshot(t, ctx, "report.png")
	log.RequireClean(t, srv, "/report.html")
}

func testBrowserBands(t *testing.T, ctx context.Context, log *metricstest.Log) {
	log.Reset()
	dir := t.TempDir()
	// Two runs' mean success over env steps, one with a band whose lower
	// bound goes below zero (ECharts stacks by sign unless told otherwise).
	var x, mean, lo, hi, other []float64
	for i := range 21 {
		f := float64(i)
		x = append(x, f*100)
		mean = append(mean, 0.1+0.01*f)
		lo = append(lo, 0.1+0.01*f-0.4)
		hi = append(hi, 0.1+0.01*f+0.4)
		other = append(other, 0.9-0.02*f)
	}
	require.NoError(t, WritePage(filepath.Join(dir, "compare.html"), "ReBN vs GRPO", "3 seeds each",
		LineChart(ChartSpec{Title: "Success rate", XName: "env steps", YName: "success",
			Series: []Series{{Name: "ReBN", X: x, Y: mean, Lower: lo, Upper: hi}, {Name: "GRPO", X: x, Y: other}}}),
		Table("Final", []string{"algorithm", "success"}, [][]string{{"ReBN", "0.30 ± 0.40"}, {"GRPO", "0.50"}}),
	))
	srv := metricstest.Serve(t, dir)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/compare.html")))

	charts := metricstest.Charts(t, ctx)
	require.Len(t, charts, 1)
	assert.Equal(t, 4, charts[0].Series, "ReBN (curve, lower, width) and GRPO")
	assert.Equal(t, 4*21, charts[0].Points)
	assert.Greater(t, charts[0].Ink, 2000)

	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`echarts.getInstanceByDom(document.querySelector(".chart .item")).getOption().series.map(function (s) { return s.name; })`))
	require.NoError(t, err)
	assert.Equal(t, []string{"ReBN", "ReBN", "ReBN", "GRPO"}, names, "a band shares its curve's name, so the legend toggles both")

	// Inside the band, the canvas shows the series color at 20% opacity.
	rgba, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](bandProbeJS))
	require.NoError(t, err)
	require.Len(t, rgba, 4)
	assert.InDelta(t, 0.2*255, rgba[3], 20, "band alpha: %v", rgba)
	assert.InDelta(t, 0x54, rgba[0], 20, "band red: %v", rgba)
	assert.InDelta(t, 0xc6, rgba[2], 20, "band blue: %v", rgba)

	// The tooltip lists each curve once, with its band, hiding the helper
	// series of the band.
	tip, err := chromedp.Run(ctx, chromedp.Evaluate[string](tooltipProbeJS, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Equal(t, "300ReBN: 0.13 [-0.27, 0.53]GRPO: 0.84", tip)

	screenshot(t, ctx, "compare.png")
	log.RequireClean(t, srv, "/compare.html")
}
