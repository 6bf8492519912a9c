package metrics

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Metric names the progress display reads. Missing names are left out of the
// line.
const (
	KeyEnvSteps    = "global/env_steps"
	KeyWallSeconds = "global/wall_s"
	KeySuccess     = "charts/success_rate"
	KeyReturn      = "charts/episodic_return"
	KeyLoss        = "losses/loss"
	KeyPolicyLoss  = "losses/policy_loss"
)

// Progress shows training progress: a live bar on a terminal, or one plain
// key=value line per iteration otherwise (logs, CI), in the stable format
//
//	iter=3/100 steps=1200 success=0.250 return=0.512 loss=0.0312 eta=1m20s
//
// steps is global/env_steps, success charts/success_rate, return
// charts/episodic_return, loss losses/loss (else losses/policy_loss); a
// field whose metric is missing is left out. eta extrapolates the elapsed
// time (global/wall_s when logged, else the time since NewProgress) over the
// remaining iterations.
//
// A Progress is used from one goroutine.
type Progress struct {
	w     io.Writer
	total int
	bar   *progressbar.ProgressBar // nil in plain mode
	start time.Time
	now   func() time.Time
	done  bool // Finish ended the bar's line
	err   error
}

// IsTerminal reports whether w is a terminal, the usual value for the tty
// argument of NewProgress.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// NewProgress returns a display of total iterations written to w: a live
// bar when tty is true, plain lines otherwise.
func NewProgress(w io.Writer, total int, tty bool) *Progress {
	p := &Progress{w: w, total: total, now: time.Now}
	p.start = p.now()
	if tty {
		p.bar = progressbar.NewOptions(max(total, 1),
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetWidth(24),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionSetRenderBlankState(true),
			progressbar.OptionSetTheme(progressbar.Theme{
				Saucer: "=", SaucerHead: ">", SaucerPadding: " ", BarStart: "[", BarEnd: "]",
			}),
		)
	}
	return p
}

// Update shows the metrics of iteration it (1-based: it = total is the end).
func (p *Progress) Update(it int, m map[string]float64) {
	fields := p.fields(it, m)
	if p.bar == nil {
		p.println(strings.Join(fields, " "))
		return
	}
	p.bar.Describe(strings.Join(fields, "  "))
	p.keep(p.bar.Set(min(max(it, 0), max(p.total, 1))))
}

// fields formats the key=value fields of an Update line.
func (p *Progress) fields(it int, m map[string]float64) []string {
	f := []string{fmt.Sprintf("iter=%d/%d", it, p.total)}
	if v, ok := m[KeyEnvSteps]; ok {
		f = append(f, "steps="+formatCount(v))
	}
	if v, ok := m[KeySuccess]; ok {
		f = append(f, fmt.Sprintf("success=%.3f", v))
	}
	if v, ok := m[KeyReturn]; ok {
		f = append(f, fmt.Sprintf("return=%.3f", v))
	}
	if v, ok := m[KeyLoss]; ok {
		f = append(f, fmt.Sprintf("loss=%.4g", v))
	} else if v, ok := m[KeyPolicyLoss]; ok {
		f = append(f, fmt.Sprintf("loss=%.4g", v))
	}
	if it > 0 && p.total > 0 {
		elapsed := p.now().Sub(p.start).Seconds()
		if v, ok := m[KeyWallSeconds]; ok && v >= 0 && !math.IsInf(v, 0) {
			elapsed = v
		}
		eta := elapsed / float64(it) * float64(max(p.total-it, 0))
		f = append(f, "eta="+(time.Duration(math.Round(eta))*time.Second).String())
	}
	return f
}

// formatCount writes a count as an integer when it is one.
func formatCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%g", v)
}

// Eval shows a greedy evaluation after iteration it as one line, whatever the
// mode: "eval iter=3" then every metric of m in name order, with an "eval/"
// prefix dropped, as name=value (%.4g).
func (p *Progress) Eval(it int, m map[string]float64) {
	f := []string{"eval", fmt.Sprintf("iter=%d", it)}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		f = append(f, fmt.Sprintf("%s=%.4g", strings.TrimPrefix(k, "eval/"), m[k]))
	}
	p.Printf("%s", strings.Join(f, " "))
}

// Printf prints a message on a line of its own (above the bar in terminal
// mode). A trailing newline is added when missing.
func (p *Progress) Printf(format string, args ...any) {
	p.println(strings.TrimSuffix(fmt.Sprintf(format, args...), "\n"))
}

func (p *Progress) println(line string) {
	if p.bar == nil {
		_, err := fmt.Fprintln(p.w, line)
		p.keep(err)
		return
	}
	_, err := progressbar.Bprintln(p.bar, line)
	p.keep(err)
	p.keep(p.bar.RenderBlank())
}

// Finish completes the display (in terminal mode it ends the bar's line) and
// returns the first error met writing to w.
func (p *Progress) Finish() error {
	if p.bar != nil && !p.done {
		p.done = true
		if !p.bar.IsFinished() {
			p.keep(p.bar.Exit())
		}
		_, err := fmt.Fprintln(p.w)
		p.keep(err)
	}
	if p.err != nil {
		return fmt.Errorf("progress display: %w", p.err)
	}
	return nil
}

func (p *Progress) keep(err error) {
	if p.err == nil {
		p.err = err
	}
}
