package metrics

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Series is one named curve: Y[i] at X[i]. Lower and Upper, when set, hold a
// band drawn around the curve (e.g. mean ± std over seeds); they are both nil
// or both as long as X. A NaN or ±Inf Y (or bound) leaves a gap; a point with
// a NaN X is skipped.
type Series struct {
	Name         string
	X, Y         []float64
	Lower, Upper []float64
}

// ChartSpec describes a line chart of several series over one x axis (env
// steps, wall-clock seconds or iteration).
type ChartSpec struct {
	Title string // section heading
	XName string // x axis label, e.g. "env steps"
	YName string // y axis label
	// YRange fixes the y axis to [YRange[0], YRange[1]] (e.g. [0, 1] for a
	// success rate); the zero value fits the axis to the data.
	YRange [2]float64
	Series []Series
}

// palette holds the series colors, in order (ECharts' default palette).
var palette = [...]string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de",
	"#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// tooltipJS formats the axis tooltip: one line per curve, with its band in
// brackets, hiding the helper series that draw the bands (whose points are
// [y, x]). go-echarts stores
// it as a JSON string and strips the quotes around it, so it may hold no
// double quote and no backslash, and must not rely on newlines.
const tooltipJS = `function (ps) {
  if (!Array.isArray(ps) || ps.length === 0) { return ''; }
  var f = function (v) {
    if (v === null || v === undefined || typeof v !== 'number' || !isFinite(v)) { return '–'; }
    var a = Math.abs(v);
    if (Number.isInteger(v) && a < 1e15) { return String(v); }
    if (a !== 0 && (a >= 1e6 || a < 1e-3)) { return v.toExponential(3); }
    return String(+v.toPrecision(4));
  };
  var lo = {}, hi = {};
  ps.forEach(function (p) {
    var m = /^(s[0-9]+)_(lo|hi)$/.exec(p.seriesId);
    if (m) { (m[2] === 'lo' ? lo : hi)[m[1]] = p.value[0]; }
  });
  var out = [f(ps[0].axisValue)];
  ps.forEach(function (p) {
    if (/_(lo|hi)$/.test(p.seriesId)) { return; }
    var s = p.marker + echarts.format.encodeHTML(p.seriesName) + ': <b>' + f(p.value[1]) + '</b>';
    var l = lo[p.seriesId], d = hi[p.seriesId];
    if (typeof l === 'number' && typeof d === 'number') { s += ' [' + f(l) + ', ' + f(l + d) + ']'; }
    out.push(s);
  });
  return out.join('<br>');
}`

// LineChart is a section holding a line chart drawn by ECharts. An invalid
// spec (series lengths that disagree) is reported by WritePage.
func LineChart(spec ChartSpec) Section {
	return Section{title: spec.Title, render: func(id string) (template.HTML, error) {
		return renderLineChart(id, spec)
	}}
}

func (s Series) check() error {
	if len(s.Y) != len(s.X) {
		return fmt.Errorf("series %q: %d y values for %d x values", s.Name, len(s.Y), len(s.X))
	}
	if (s.Lower == nil) != (s.Upper == nil) {
		return fmt.Errorf("series %q: a band needs both Lower and Upper", s.Name)
	}
	if s.Lower != nil && (len(s.Lower) != len(s.X) || len(s.Upper) != len(s.X)) {
		return fmt.Errorf("series %q: band of %d lower and %d upper values for %d x values",
			s.Name, len(s.Lower), len(s.Upper), len(s.X))
	}
	return nil
}

// finite returns v, or nil (JSON null: a gap) when it is NaN or ±Inf.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// points pairs x with f(i) as [x, y], or as [y, x] when yFirst, skipping
// points whose x is not finite.
func points(x []float64, yFirst bool, f func(i int) any) []opts.LineData {
	d := make([]opts.LineData, 0, len(x))
	for i, xv := range x {
		if finite(xv) == nil {
			continue
		}
		v := []any{xv, f(i)}
		if yFirst {
			v[0], v[1] = v[1], v[0]
		}
		d = append(d, opts.LineData{Value: v})
	}
	return d
}

// renderLineChart builds the chart with go-echarts and returns its element
// and script.
func renderLineChart(id string, spec ChartSpec) (template.HTML, error) {
	if len(spec.Series) == 0 {
		return "", fmt.Errorf("chart %q has no series", spec.Title)
	}
	c := charts.NewLine()
	c.Accept(chartVisitor{})
	yAxis := opts.YAxis{Type: "value", Name: spec.YName, Scale: opts.Bool(true),
		SplitLine: &opts.SplitLine{Show: opts.Bool(true), LineStyle: &opts.LineStyle{Color: "#eef0f3"}}}
	if spec.YRange != [2]float64{} {
		yAxis.Min, yAxis.Max, yAxis.Scale = spec.YRange[0], spec.YRange[1], opts.Bool(false)
	}
	c.SetGlobalOptions(
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: "320px"}),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis",
			Formatter: opts.FuncOpts(tooltipJS)}),
		charts.WithGridOpts(opts.Grid{Left: "8", Right: "24", Top: "48", Bottom: "24", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: spec.XName, NameLocation: "middle", NameGap: 26,
			Min: "dataMin", Max: "dataMax", SplitLine: &opts.SplitLine{Show: opts.Bool(false)}}),
		charts.WithYAxisOpts(yAxis),
	)
	for i, s := range spec.Series {
		if err := s.check(); err != nil {
			return "", fmt.Errorf("chart %q: %w", spec.Title, err)
		}
		color := palette[i%len(palette)]
		sid := fmt.Sprintf("s%d", i)
		line := points(s.X, false, func(j int) any { return finite(s.Y[j]) })
		c.AddSeries(s.Name, line,
			charts.WithSeriesId(sid),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(line) <= 40), SymbolSize: 5}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: color, Width: 2}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
		)
		if s.Lower == nil {
			continue
		}
		// The band: an invisible lower line with (upper − lower) stacked on it
		// and filled. All three share the name, so the legend toggles them
		// together. ECharts stacks the first numeric dimension of the data, so
		// the band's points are [y, x], encoded back onto the axes; on two
		// value axes it stacks by data index, and both band series have the
		// same points.
		stack := sid + "_band"
		hidden := opts.LineStyle{Opacity: opts.Float(0)}
		yx := charts.WithEncodeOpts(opts.Encode{X: 1, Y: 0})
		c.AddSeries(s.Name, points(s.X, true, func(j int) any { return finite(s.Lower[j]) }),
			charts.WithSeriesId(sid+"_lo"), yx,
			charts.WithLineChartOpts(opts.LineChart{Stack: stack, Symbol: "none"}),
			charts.WithLineStyleOpts(hidden),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
		)
		c.AddSeries(s.Name, points(s.X, true, func(j int) any { return finite(s.Upper[j] - s.Lower[j]) }),
			charts.WithSeriesId(sid+"_hi"), yx,
			charts.WithLineChartOpts(opts.LineChart{Stack: stack, Symbol: "none"}),
			charts.WithLineStyleOpts(hidden),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}),
			charts.WithAreaStyleOpts(opts.AreaStyle{Color: color, Opacity: opts.Float(0.2)}),
		)
	}
	snip := c.RenderSnippet()
	script, ok := scriptBody(snip.Script)
	if !ok {
		return "", fmt.Errorf("chart %q: unexpected go-echarts script %.40q", spec.Title, snip.Script)
	}
	return template.HTML(`<div class="chart">` + snip.Element + "\n<script>" + safeScript(script) + "</script></div>"), nil
}

// scriptBody returns the code inside a <script ...>...</script> element.
func scriptBody(el string) (string, bool) {
	el = strings.TrimSpace(el)
	open := strings.IndexByte(el, '>')
	if !strings.HasPrefix(el, "<script") || open < 0 || !strings.HasSuffix(el, "</script>") {
		return "", false
	}
	return el[open+1 : len(el)-len("</script>")], true
}

// chartVisitor adds options go-echarts has no field for: stackStrategy "all"
// on the band series (ECharts' default stacks only values of the same sign,
// which would break a band whose lower bound is negative), and a y-axis name
// that starts at the axis instead of being centered on it (and cut off).
type chartVisitor struct {
	charts.BaseConfigurationVisitor
}

type yAxisWithNameStyle struct {
	opts.YAxis
	NameTextStyle map[string]string `json:"nameTextStyle"`
}

func (chartVisitor) VisitYAxis(ys []opts.YAxis) any {
	out := make([]yAxisWithNameStyle, len(ys))
	for i, y := range ys {
		out[i] = yAxisWithNameStyle{YAxis: y, NameTextStyle: map[string]string{"align": "left"}}
	}
	return out
}

type bandSeries struct {
	charts.SingleSeries
	StackStrategy string `json:"stackStrategy,omitempty"`
}

func (chartVisitor) VisitSeriesOpt(ms charts.MultiSeries) any {
	out := make([]bandSeries, len(ms))
	for i, s := range ms {
		out[i] = bandSeries{SingleSeries: s}
		if strings.HasSuffix(s.Id, "_lo") || strings.HasSuffix(s.Id, "_hi") {
			out[i].StackStrategy = "all"
		}
	}
	return out
}
