package metrics

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/gemgo/gemgo/internal/atomicfile"
)

// echartsJS is Apache ECharts 5.6.0 (dist/echarts.min.js from npm), inlined
// into every page so that reports render offline. See assets/README.md.
//
//go:embed assets/echarts.min.js
var echartsJS string

// Section is one block of a page: a chart, a table or a text. Make one with
// LineChart, Table or Text and lay them out with WritePage.
type Section struct {
	title string
	wide  bool // spans the whole page width instead of one grid cell
	// render returns the block's HTML; id, for an element of the block, is
	// unique within the page and a valid JavaScript identifier.
	render func(id string) (template.HTML, error)
}

// Title returns the section's heading.
func (s Section) Title() string { return s.title }

// Table is a section holding a table. header may be nil (a key/value table,
// for instance); a row may be shorter than the widest one.
func Table(title string, header []string, rows [][]string) Section {
	return Section{title: title, wide: true, render: func(string) (template.HTML, error) {
		var b bytes.Buffer
		err := tableTpl.Execute(&b, struct {
			Header []string
			Rows   [][]string
		}{header, rows})
		return template.HTML(b.String()), err
	}}
}

// KeyValues is a two-column table without header, e.g. a run summary.
func KeyValues(title string, pairs [][2]string) Section {
	rows := make([][]string, len(pairs))
	for i, p := range pairs {
		rows[i] = []string{p[0], p[1]}
	}
	return Table(title, nil, rows)
}

// Text is a section holding preformatted text (a YAML config, a log
// excerpt), shown as is and HTML-escaped.
func Text(title, text string) Section {
	return Section{title: title, wide: true, render: func(string) (template.HTML, error) {
		return template.HTML("<pre>" + template.HTMLEscapeString(text) + "</pre>"), nil
	}}
}

// WritePage writes a self-contained HTML page (ECharts inlined, no network
// access needed) with the sections in order, atomically: a reader never sees
// a half-written file.
func WritePage(path, title, subtitle string, sections ...Section) error {
	var b bytes.Buffer
	if err := RenderPage(&b, title, subtitle, sections...); err != nil {
		return fmt.Errorf("write page %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, b.Bytes())
}

// RenderPage writes the page WritePage would write to w.
func RenderPage(w io.Writer, title, subtitle string, sections ...Section) error {
	type block struct {
		Title string
		ID    string
		Wide  bool
		Body  template.HTML
	}
	blocks := make([]block, len(sections))
	for i, s := range sections {
		id := fmt.Sprintf("section_%d", i+1)
		if s.render == nil {
			return fmt.Errorf("section %d (%q): empty section; build it with LineChart, Table or Text", i+1, s.title)
		}
		body, err := s.render(fmt.Sprintf("chart_%d", i+1))
		if err != nil {
			return fmt.Errorf("section %d (%q): %w", i+1, s.title, err)
		}
		blocks[i] = block{Title: s.title, ID: id, Wide: s.wide, Body: body}
	}
	return pageTpl.Execute(w, struct {
		Title, Subtitle string
		ECharts         template.JS
		Sections        []block
	}{title, subtitle, template.JS(echartsJS), blocks})
}

// safeScript makes a script body safe to inline in HTML: "</" and "<!--"
// only occur inside JavaScript string literals here, where "<\/" and "<\!--"
// mean the same.
func safeScript(s string) string {
	s = strings.ReplaceAll(s, "</", `<\/`)
	return strings.ReplaceAll(s, "<!--", `<\!--`)
}

var tableTpl = template.Must(template.New("table").Parse(`<table>
{{- if .Header}}<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>{{end}}
<tbody>
{{- range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end -}}
</tbody></table>`))

var pageTpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
<style>
  :root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --card: #ffffff; --bg: #f6f8fa; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--fg);
         font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  header { padding: 20px 28px 8px; max-width: 1480px; margin: 0 auto; }
  header h1 { margin: 0; font-size: 22px; font-weight: 600; }
  header p { margin: 4px 0 0; color: var(--muted); }
  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px;
         padding: 12px 28px 28px; max-width: 1480px; margin: 0 auto; }
  section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; min-width: 0; }
  section.wide { grid-column: 1 / -1; }
  section h2 { margin: 0 0 8px; font-size: 15px; font-weight: 600; }
  .chart .item { width: 100%; height: 320px; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
  th, td { text-align: left; padding: 4px 14px 4px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 600; }
  tr:last-child td { border-bottom: none; }
  pre { margin: 0; padding: 10px 12px; background: var(--bg); border-radius: 6px; overflow: auto;
        max-height: 520px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  footer { color: var(--muted); font-size: 12px; text-align: center; padding: 0 0 20px; }
</style>
<script>{{.ECharts}}</script>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
{{- if .Subtitle}}
<p>{{.Subtitle}}</p>
{{- end}}
</header>
<main>
{{- range .Sections}}
<section id="{{.ID}}"{{if .Wide}} class="wide"{{end}}>
<h2>{{.Title}}</h2>
{{.Body}}
</section>
{{- end}}
</main>
<footer>Charts drawn by Apache ECharts, embedded in this file.</footer>
<script>
window.addEventListener("resize", function () {
  document.querySelectorAll(".chart .item").forEach(function (el) {
    var c = echarts.getInstanceByDom(el);
    if (c) { c.resize(); }
  });
});
</script>
</body>
</html>
`))
