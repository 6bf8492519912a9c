package metrics

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var screenshotDir = flag.String("metrics.screenshots", "",
	"write full-page PNGs of the pages the browser test renders into this directory")

// browserLog collects what the page did that a self-contained report must
// not do.
type browserLog struct {
	mu         sync.Mutex
	exceptions []string
	consoleErr []string
	requests   []string
	urls       map[network.RequestID]string
	failed     []string
}

func (b *browserLog) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		b.exceptions = append(b.exceptions, msg)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			b.consoleErr = append(b.consoleErr, strings.Join(parts, " "))
		}
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
		if b.urls == nil {
			b.urls = map[network.RequestID]string{}
		}
		b.urls[ev.RequestID] = ev.Request.URL
	case *network.EventLoadingFailed:
		b.failed = append(b.failed, fmt.Sprintf("%s: %s (canceled %v)", b.urls[ev.RequestID], ev.ErrorText, ev.Canceled))
	}
}

// newBrowser starts Debian's chromium, headless and cut off from the
// network as DESIGN.md says, and returns a tab's context and what it logs.
func newBrowser(t *testing.T) (context.Context, *browserLog) {
	t.Helper()
	path := "/usr/bin/chromium"
	if _, err := os.Stat(path); err != nil {
		if path, err = exec.LookPath("chromium"); err != nil {
			t.Skip("chromium is not installed: apt-get install -y chromium")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	log := &browserLog{}
	tctx, tcancel := chromedp.NewContext(actx, chromedp.WithListener(log.listen))
	t.Cleanup(tcancel)
	start := time.Now()
	require.NoError(t, chromedp.Do(tctx), "start chromium")
	t.Logf("chromium started in %v", time.Since(start).Round(time.Millisecond))
	return tctx, log
}

// chartState is what the page reports about one chart.
type chartState struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Series int    `json:"series"`
	Points int    `json:"points"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Ink    int    `json:"ink"` // canvas pixels that are not transparent
}

const chartProbeJS = `Array.from(document.querySelectorAll(".chart .item")).map(function (el) {
  var c = echarts.getInstanceByDom(el), o = c ? c.getOption() : null, cv = el.querySelector("canvas"), ink = 0;
  if (cv) {
    var d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
    for (var i = 3; i < d.length; i += 4) { if (d[i] > 0) { ink++; } }
  }
  return {id: el.id, title: el.closest("section").querySelector("h2").textContent,
    series: o ? o.series.length : 0,
    points: o ? o.series.reduce(function (n, s) { return n + (s.data ? s.data.length : 0); }, 0) : 0,
    width: cv ? cv.width : 0, height: cv ? cv.height : 0, ink: ink};
})`

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

func serve(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// requireClean checks that the page loaded nothing but itself (from srv,
// at path) and ran without errors.
func (b *browserLog) requireClean(t *testing.T, srv *httptest.Server, path string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	assert.Empty(t, b.exceptions, "JavaScript exceptions")
	assert.Empty(t, b.consoleErr, "console errors and warnings")
	assert.Empty(t, b.failed, "failed requests")
	var fetched []string
	for _, r := range b.requests {
		u, err := url.Parse(r)
		require.NoError(t, err)
		if u.Scheme == "data" {
			continue // inline, e.g. the empty favicon
		}
		fetched = append(fetched, r)
	}
	assert.Equal(t, []string{srv.URL + path}, fetched, "the page loads nothing but itself")
}

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
	ctx, log := newBrowser(t)
	t.Run("report", func(t *testing.T) { testBrowserReport(t, ctx, log) })
	t.Run("bands", func(t *testing.T) { testBrowserBands(t, ctx, log) })
}

func (b *browserLog) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.exceptions, b.consoleErr, b.requests, b.failed = nil, nil, nil, nil
}

func testBrowserReport(t *testing.T, ctx context.Context, log *browserLog) {
	log.reset()
	dir := t.TempDir()
	r := sampleReport()
	require.NoError(t, WriteReport(filepath.Join(dir, "report.html"), r))
	srv := serve(t, dir)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/report.html")))
	title, err := chromedp.Run(ctx, chromedp.Title())
	require.NoError(t, err)
	assert.Equal(t, r.Title, title)

	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartState](chartProbeJS))
	require.NoError(t, err)
	var titles []string
	for _, c := range charts {
		titles = append(titles, c.Title)
		assert.Positive(t, c.Series, "%s: no series", c.Title)
		assert.Positive(t, c.Points, "%s: no data", c.Title)
		assert.GreaterOrEqual(t, c.Width, 400, "%s: canvas width", c.Title)
		assert.GreaterOrEqual(t, c.Height, 300, "%s: canvas height", c.Title)
		assert.Greater(t, c.Ink, 2000, "%s: the canvas is blank", c.Title)
	}
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
	log.requireClean(t, srv, "/report.html")
}

func testBrowserBands(t *testing.T, ctx context.Context, log *browserLog) {
	log.reset()
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
	srv := serve(t, dir)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/compare.html")))

	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chartState](chartProbeJS))
	require.NoError(t, err)
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
	log.requireClean(t, srv, "/compare.html")
}
