package metricstest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
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

// Log collects what the page did that a self-contained report must
// not do.
type Log struct {
	mu         sync.Mutex
	exceptions []string
	consoleErr []string
	requests   []string
	urls       map[network.RequestID]string
	failed     []string
}

func (b *Log) listen(ev any) {
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

// NewBrowser starts Debian's chromium, headless and cut off from the
// network (without the background-networking, component-update and sync
// flags, chromium floods a closed network with refused connections), and
// returns a tab's context and what it logs.
func NewBrowser(t *testing.T) (context.Context, *Log) {
	t.Helper()
	// Debian's path first (LookPath also checks that it can run), then PATH
	path, err := exec.LookPath("/usr/bin/chromium")
	if err != nil {
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
	log := &Log{}
	tctx, tcancel := chromedp.NewContext(actx, chromedp.WithListener(log.listen))
	t.Cleanup(tcancel)
	start := time.Now()
	require.NoError(t, chromedp.Do(tctx), "start chromium")
	t.Logf("chromium started in %v", time.Since(start).Round(time.Millisecond))
	return tctx, log
}

// Chart is what the page reports about one chart.
type Chart struct {
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

func Serve(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// RequireClean checks that the page loaded nothing but itself (from srv,
// at path) and ran without errors.
func (b *Log) RequireClean(t *testing.T, srv *httptest.Server, path string) {
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

func (b *Log) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.exceptions, b.consoleErr, b.requests, b.failed = nil, nil, nil, nil
}

// Charts returns the state of every chart on the page loaded in ctx.
func Charts(t *testing.T, ctx context.Context) []Chart {
	t.Helper()
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]Chart](chartProbeJS))
	require.NoError(t, err)
	return charts
}

// RequireDrawn checks that every chart has series and data and a canvas
// with ink on it, and returns the charts' titles in page order.
func RequireDrawn(t *testing.T, charts []Chart) []string {
	t.Helper()
	var titles []string
	for _, c := range charts {
		titles = append(titles, c.Title)
		assert.Positive(t, c.Series, "%s: no series", c.Title)
		assert.Positive(t, c.Points, "%s: no data", c.Title)
		assert.GreaterOrEqual(t, c.Width, 400, "%s: canvas width", c.Title)
		assert.GreaterOrEqual(t, c.Height, 300, "%s: canvas height", c.Title)
		assert.Greater(t, c.Ink, 2000, "%s: the canvas is blank", c.Title)
	}
	return titles
}
