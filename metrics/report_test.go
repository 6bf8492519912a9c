package metrics

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleRows imitates a PPO run of n iterations with a greedy evaluation
// before training and every 10 iterations.
func sampleRows(n int) []Row {
	rows := []Row{{Iteration: 0, Metrics: map[string]float64{"eval/success_rate": 0, "eval/episodic_return": -0.4, "eval/turns": 6}}}
	for it := 1; it <= n; it++ {
		f := float64(it)
		p := 1 - math.Exp(-f/15)
		m := map[string]float64{
			KeyEnvSteps:                 f * 256,
			KeyWallSeconds:              f * 1.7,
			KeySuccess:                  p * (0.9 + 0.1*math.Sin(f)),
			KeyReturn:                   p - 0.3 + 0.05*math.Cos(3*f),
			"charts/turns":              6 - 3*p,
			KeyLoss:                     0.4 * math.Exp(-f/20),
			KeyPolicyLoss:               -0.02 * math.Sin(f/3),
			"losses/value_loss":         0.3 * math.Exp(-f/25),
			"losses/approx_kl":          0.01 + 0.005*math.Sin(f/4),
			"losses/kl":                 0.002 * f / float64(n),
			"losses/entropy":            1.2 - 0.6*p,
			"losses/clipfrac":           0.1 + 0.05*math.Cos(f/5),
			"losses/value_clipfrac":     0.05,
			"perf/env_steps_per_s":      180 + 10*math.Sin(f),
			"perf/sampled_tokens_per_s": 2400 + 90*math.Cos(f),
		}
		if it == 7 {
			m["losses/approx_kl"] = math.NaN() // a gap in the curve
		}
		if it%10 == 0 {
			m["eval/success_rate"] = p
			m["eval/episodic_return"] = p - 0.25
			m["eval/turns"] = 6 - 3.5*p
		}
		rows = append(rows, Row{Iteration: it, Metrics: m})
	}
	return rows
}

func sampleReport() Report {
	return Report{
		Title:      "PPO on game:GuessTheNumber-v0-hard",
		Subtitle:   "seed 1 · runs/ppo-guess",
		Rows:       sampleRows(60),
		Summary:    [][2]string{{"success rate", "0.969"}, {"mean return", "0.719"}, {"episodes", "64"}},
		ConfigYAML: "algo: ppo\nenv:\n  id: game:GuessTheNumber-v0-hard\n  note: \"<script>alert(1)</script> & more\"\n",
	}
}

// externalRef matches a tag loading anything from another origin.
var externalRef = regexp.MustCompile(`(?i)<(script|link|img|iframe|source|embed)\b[^>]*\b(src|href)\s*=\s*["']?\s*(https?:)?//`)

func TestReportHTMLSelfContained(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.html")
	require.NoError(t, WriteReport(path, sampleReport()))
	page := readFile(t, path)

	assert.False(t, externalRef.MatchString(page), "external reference: %q", externalRef.FindString(page))
	assert.NotContains(t, page, "go-echarts-assets", "go-echarts' CDN host")
	assert.NotRegexp(t, `(?i)<script[^>]*\bsrc\s*=`, page, "every script is inline")
	assert.Contains(t, page, echartsJS, "ECharts is inlined")
	assert.Equal(t, 1, strings.Count(page, echartsJS[len(echartsJS)-300:]), "ECharts is inlined exactly once")

	// Title, summary and the escaped config are on the page.
	assert.Contains(t, page, "<title>PPO on game:GuessTheNumber-v0-hard</title>")
	assert.Contains(t, page, "<td>success rate</td><td>0.969</td>")
	assert.Contains(t, page, "note: &#34;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more&#34;")
	assert.NotContains(t, page, "<script>alert(1)")

	// One chart per default panel (all are logged), in order, with fixed ids.
	var titles []string
	for _, m := range regexp.MustCompile(`<h2>([^<]*)</h2>\s*<div class="chart">`).FindAllStringSubmatch(page, -1) {
		titles = append(titles, m[1])
	}
	var want []string
	for _, p := range DefaultPanels() {
		want = append(want, p.Title)
	}
	assert.Equal(t, want, titles)
	assert.Contains(t, page, `id="section_2"`)
	assert.Contains(t, page, `<div class="item" id="chart_2"`)
	assert.Equal(t, 1, strings.Count(page, `id="chart_2"`), "element ids are unique")
}

func TestReportDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	r := sampleReport()
	require.NoError(t, RenderPage(&a, r.Title, r.Subtitle, r.Sections()...))
	require.NoError(t, RenderPage(&b, r.Title, r.Subtitle, r.Sections()...))
	assert.Equal(t, a.String(), b.String())
}

func TestReportSkipsPanelsWithoutData(t *testing.T) {
	rows := []Row{
		{Iteration: 1, Metrics: map[string]float64{KeyReturn: 1, "custom/x": 2}},
		{Iteration: 2, Metrics: map[string]float64{KeyReturn: 2}},
	}
	r := Report{Rows: rows}
	var titles []string
	for _, s := range r.Sections() {
		titles = append(titles, s.Title())
	}
	assert.Equal(t, []string{"Episodic return", "Last logged values"}, titles)
	assert.Equal(t, XIteration, ReportX(r), "no env steps logged: plot against the iteration")

	var page bytes.Buffer
	require.NoError(t, RenderPage(&page, "t", "", r.Sections()...))
	assert.Contains(t, page.String(), "<tr><td>custom/x</td><td>2</td><td>1</td></tr>")
	assert.Contains(t, page.String(), "<tr><td>charts/episodic_return</td><td>2</td><td>2</td></tr>")
}

func TestCurve(t *testing.T) {
	rows := sampleRows(20)
	x, y := Curve(rows, KeyEnvSteps, "eval/success_rate")
	assert.Equal(t, []float64{0, 2560, 5120}, x, "the pre-training evaluation sits at x = 0")
	require.Len(t, y, 3)
	assert.Equal(t, 0.0, y[0])
	assert.InDelta(t, 1-math.Exp(-20.0/15), y[2], 1e-12)

	x, _ = Curve(rows, XIteration, KeyReturn)
	assert.Len(t, x, 20)
	assert.Equal(t, 1.0, x[0])
	assert.Equal(t, 20.0, x[19])

	x, y = Curve(rows, KeyWallSeconds, "losses/approx_kl")
	assert.Len(t, x, 20, "iteration 0 has no approx_kl")
	assert.True(t, math.IsNaN(y[6]), "a NaN stays in the curve (a gap)")
}

func TestLineChartErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		s   Series
		msg string
	}{
		"y length":    {Series{Name: "a", X: []float64{1, 2}, Y: []float64{1}}, `series "a": 1 y values for 2 x values`},
		"half band":   {Series{Name: "b", X: []float64{1}, Y: []float64{1}, Lower: []float64{0}}, `series "b": a band needs both Lower and Upper`},
		"band length": {Series{Name: "c", X: []float64{1}, Y: []float64{1}, Lower: []float64{0}, Upper: []float64{1, 2}}, `series "c": band of 1 lower and 2 upper values for 1 x values`},
	} {
		t.Run(name, func(t *testing.T) {
			err := RenderPage(&bytes.Buffer{}, "t", "", LineChart(ChartSpec{Title: "T", Series: []Series{tc.s}}))
			require.Error(t, err)
			assert.Equal(t, `section 1 ("T"): chart "T": `+tc.msg, err.Error())
		})
	}
	err := RenderPage(&bytes.Buffer{}, "t", "", LineChart(ChartSpec{Title: "Empty"}))
	require.EqualError(t, err, `section 1 ("Empty"): chart "Empty" has no series`)
	err = RenderPage(&bytes.Buffer{}, "t", "", Section{})
	require.Error(t, err)
}

func TestWritePageAtomicAndErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	// A failing section leaves the old file in place.
	err := WritePage(path, "t", "", LineChart(ChartSpec{Title: "bad"}))
	require.Error(t, err)
	assert.Equal(t, "old", readFile(t, path))
	require.NoError(t, WritePage(path, "t", "", Text("Notes", "hello")))
	assert.Contains(t, readFile(t, path), "<pre>hello</pre>")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temp file left")

	err = WritePage(filepath.Join(dir, "missing", "page.html"), "t", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing")
}

func TestSafeScriptNames(t *testing.T) {
	// A series name that would end the script element is neutralised.
	var b bytes.Buffer
	require.NoError(t, RenderPage(&b, "t", "", LineChart(ChartSpec{Title: "x",
		Series: []Series{{Name: "</script><script>alert(1)//", X: []float64{1}, Y: []float64{2}}}})))
	page := b.String()
	assert.NotContains(t, page, "</script><script>alert(1)")
	assert.Contains(t, page, `<\/script><script>alert(1)//`)
}

func TestTooltipJSSurvivesGoEcharts(t *testing.T) {
	// go-echarts JSON-escapes the function text, then strips its quotes.
	assert.NotContains(t, tooltipJS, `"`)
	assert.NotContains(t, tooltipJS, `\`)
	assert.NotContains(t, tooltipJS, "//", "no line comments: newlines are removed")
}

func TestFormatHelpers(t *testing.T) {
	assert.Equal(t, "env steps", XLabel(KeyEnvSteps))
	assert.Equal(t, "wall-clock seconds", XLabel(KeyWallSeconds))
	assert.Equal(t, "iteration", XLabel(XIteration))
	assert.Equal(t, "custom/x", XLabel("custom/x"))
	assert.Equal(t, "policy_loss", SeriesName("losses/policy_loss"))
	assert.Equal(t, "eval success_rate", SeriesName("eval/success_rate"))
	assert.Equal(t, "plain", SeriesName("plain"))
	assert.Equal(t, "0.1235", FormatValue(0.123456))
	assert.Equal(t, "1.235e+05", FormatValue(123456.5))
	assert.Equal(t, "15360", FormatValue(15360))
	assert.Equal(t, "-3", FormatValue(-3))
	assert.Equal(t, "–", FormatValue(math.NaN()))
	for v, want := range map[float64]string{0: "0", 1e-6: "0.000001", 1e-7: "1e-7", 1e21: "1e+21", 123456789: "123456789", -2.5e-10: "-2.5e-10"} {
		assert.Equal(t, want, formatNumber(v), "%g", v)
	}
}
