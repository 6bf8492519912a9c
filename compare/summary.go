package compare

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/stats"
)

// SummaryFile is the machine-readable summary a sweep writes beside its
// report.
const SummaryFile = "summary.json"

// TableFile is the sweep's summary and pair tables as Markdown.
const TableFile = "table.md"

// Summary is summary.json: every arm's figures over seeds, each run's own,
// and the paired tests between arms. A value that was not measured (no run
// reached the threshold, no episode solved) is null.
type Summary struct {
	Name      string         `json:"name"`
	Threshold float64        `json:"threshold"`
	Alpha     float64        `json:"alpha"`
	Arms      []ArmJSON      `json:"arms"`
	Pairs     []PairJSON     `json:"pairs"`
	Extra     map[string]any `json:"extra,omitempty"` // what a caller adds (a suite's reference columns)
}

// StatJSON is a Stat with null for what was not measured.
type StatJSON struct {
	N    int      `json:"n"`
	Mean *float64 `json:"mean"`
	Std  *float64 `json:"std"`
	Lo   *float64 `json:"lo"`
	Hi   *float64 `json:"hi"`
}

// ArmJSON is one arm in summary.json.
type ArmJSON struct {
	Arm         string     `json:"arm"`
	Runs        int        `json:"runs"`
	Complete    int        `json:"complete"`
	Final       StatJSON   `json:"final_success"`
	AUC         StatJSON   `json:"auc"`
	Reach       StatJSON   `json:"env_steps_to_threshold"`
	Reached     int        `json:"reached"`
	Wall        StatJSON   `json:"wall_s"`
	Steps       StatJSON   `json:"env_steps"`
	SolvedTurns StatJSON   `json:"solved_turns"`
	Turns       StatJSON   `json:"turns"`
	PerSeed     []SeedJSON `json:"per_seed"`
}

// SeedJSON is one run in summary.json.
type SeedJSON struct {
	Seed        uint64   `json:"seed"`
	Complete    bool     `json:"complete"`
	Final       *float64 `json:"final_success"`
	AUC         *float64 `json:"auc"`
	Steps       *float64 `json:"env_steps"`
	WallS       *float64 `json:"wall_s"`
	SolvedTurns *float64 `json:"solved_turns"`
}

// PairJSON is one paired test in summary.json.
type PairJSON struct {
	A         string   `json:"a"`
	B         string   `json:"b"`
	Metric    string   `json:"metric"`
	Seeds     int      `json:"seeds"`
	Diff      StatJSON `json:"diff_a_minus_b"`
	P         float64  `json:"p"`
	MinP      float64  `json:"min_attainable_p"`
	Separable bool     `json:"separable"`
	Verdict   string   `json:"verdict"`
}

// Num returns nil for NaN or ±Inf (JSON null) and &x otherwise.
func Num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// StatOf converts a Stat for JSON.
func StatOf(s stats.Stat) StatJSON {
	return StatJSON{N: s.N, Mean: Num(s.Mean), Std: Num(s.Std), Lo: Num(s.Lo), Hi: Num(s.Hi)}
}

// NewSummary builds summary.json's content from a sweep's summaries and
// the paired tests between its arms (SweepPairs; none for arms that are not
// comparable, such as a baseline suite's envs).
func NewSummary(name string, threshold float64, sums []ArmSummary, pairs []Pair) Summary {
	s := Summary{Name: name, Threshold: threshold, Alpha: Alpha, Arms: []ArmJSON{}, Pairs: []PairJSON{}}
	for _, a := range sums {
		aj := ArmJSON{Arm: a.Arm, Runs: a.Runs, Complete: a.Complete, Final: StatOf(a.Final), AUC: StatOf(a.AUC),
			Reach: StatOf(a.Reach), Reached: a.Reached, Wall: StatOf(a.Wall), Steps: StatOf(a.Steps),
			SolvedTurns: StatOf(a.SolvedTurns), Turns: StatOf(a.Turns), PerSeed: []SeedJSON{}}
		for _, r := range a.PerSeed {
			aj.PerSeed = append(aj.PerSeed, SeedJSON{Seed: r.Seed, Complete: r.Complete, Final: Num(r.Final),
				AUC: Num(r.AUC), Steps: Num(r.Steps), WallS: Num(r.WallS), SolvedTurns: Num(r.SolvedTurns)})
		}
		s.Arms = append(s.Arms, aj)
	}
	for _, p := range pairs {
		s.Pairs = append(s.Pairs, PairJSON{A: p.A, B: p.B, Metric: p.Metric, Seeds: p.Seeds, Diff: StatOf(p.Diff),
			P: p.P, MinP: p.MinP, Separable: p.Separable(), Verdict: p.Verdict()})
	}
	return s
}

// Markdown renders rows of cells (header first) as a Markdown table.
func Markdown(t [][]string) string {
	var b strings.Builder
	for i, row := range t {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		if i == 0 {
			b.WriteString(strings.Repeat("|---", len(row)) + "|\n")
		}
	}
	return b.String()
}

// WriteSummary writes s as indented JSON to path, atomically.
func WriteSummary(path string, s Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'))
}
