package eval

import (
	"fmt"
	"strings"

	"github.com/gemgo/gemgo/metrics"
	"github.com/gemgo/gemgo/stats"
)

// summaryTable is success rate with its interval, envs × policies.
func summaryTable(md Metadata) (header []string, rows [][]string) {
	header = []string{"env"}
	for _, p := range md.Policies {
		header = append(header, p.Name)
	}
	for _, env := range md.Config.Envs {
		row := []string{env}
		for _, p := range md.Policies {
			row = append(row, fmtStat(find(md, p.Name, env).Success, 3))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// detailTable is every aggregate of one env, one row per policy.
func detailTable(md Metadata, env string) (header []string, rows [][]string) {
	header = []string{"policy", "episodes", "errors", "success [95% CI]", "return [95% CI]", "turns"}
	ks := stats.PassKs(md.Config.Samples)
	if md.Config.Samples > 1 {
		for _, k := range ks {
			header = append(header, fmt.Sprintf("pass@%d", k))
		}
	}
	header = append(header, "unfinished", "tokens in/out", "latency s")
	for _, p := range md.Policies {
		a := find(md, p.Name, env)
		row := []string{p.Name, fmt.Sprint(a.Episodes), fmt.Sprint(a.Errors), fmtStat(a.Success, 3), fmtStat(a.Return, 3), fmt.Sprintf("%.2f", a.Turns)}
		if md.Config.Samples > 1 {
			for _, k := range ks {
				if v, ok := a.PassAtK[k]; ok {
					row = append(row, fmt.Sprintf("%.3f", v))
				} else {
					row = append(row, "–")
				}
			}
		}
		row = append(row, fmt.Sprintf("%.3f", a.Unfinished), fmt.Sprintf("%.0f/%.0f", a.PromptTokens, a.CompletionTokens), fmt.Sprintf("%.3f", a.LatencyS))
		rows = append(rows, row)
	}
	return header, rows
}

func find(md Metadata, policy, env string) Aggregate {
	for _, a := range md.Aggregates {
		if a.Policy == policy && a.Env == env {
			return a
		}
	}
	return Aggregate{Policy: policy, Env: env}
}

func fmtStat(s Stat, prec int) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.*f [%.*f, %.*f]", prec, s.Mean, prec, s.Lo, prec, s.Hi)
}

// Markdown renders the success table and one detail table per env.
func Markdown(md Metadata) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Success rate [95%% bootstrap CI], %d seeds × %d samples from seed %d, temperature %g (config %s)\n\n",
		md.Config.Episodes, md.Config.Samples, md.Config.SeedBase, md.Config.Temperature, md.Hash)
	h, rows := summaryTable(md)
	writeMD(&b, h, rows)
	for _, env := range md.Config.Envs {
		fmt.Fprintf(&b, "\n%s\n\n", env)
		h, rows := detailTable(md, env)
		writeMD(&b, h, rows)
	}
	if !md.Complete {
		b.WriteString("\nIncomplete: some episodes are missing or ended with an error (see results.jsonl); rerun the same command to play them.\n")
	}
	return b.String()
}

func writeMD(b *strings.Builder, header []string, rows [][]string) {
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
}

// WriteReport writes the HTML report (metrics' page machinery): the
// success table, one detail table per env, the policies and the config.
func WriteReport(path string, md Metadata) error {
	h, rows := summaryTable(md)
	secs := []metrics.Section{metrics.Table("Success rate [95% bootstrap CI]", h, rows)}
	for _, env := range md.Config.Envs {
		h, rows := detailTable(md, env)
		secs = append(secs, metrics.Table(env, h, rows))
	}
	var pols [][2]string
	for _, p := range md.Policies {
		pols = append(pols, [2]string{p.Name, p.Note})
	}
	secs = append(secs, metrics.KeyValues("Policies", pols))
	c := md.Config
	secs = append(secs, metrics.KeyValues("Config", [][2]string{
		{"envs", strings.Join(c.Envs, ", ")},
		{"env options", fmt.Sprint(c.EnvOptions)},
		{"seeds", fmt.Sprintf("%d from %d", c.Episodes, c.SeedBase)},
		{"samples per seed", fmt.Sprint(c.Samples)},
		{"temperature / top-p / max tokens", fmt.Sprintf("%g / %g / %d", c.Temperature, c.TopP, c.MaxTokens)},
		{"stop", fmt.Sprintf("%q", c.Stop)},
		{"system prompt", c.System},
		{"config hash", md.Hash},
		{"complete", fmt.Sprint(md.Complete)},
	}))
	sub := fmt.Sprintf("%d policies × %d envs × %d seeds × %d samples", len(md.Policies), len(c.Envs), c.Episodes, c.Samples)
	return metrics.WritePage(path, "gemgo evaluation", sub, secs...)
}
