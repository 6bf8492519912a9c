package eval

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/stats"
)

// Stat is a mean with its 95% percentile-bootstrap interval (all 0 when
// N = 0).
type Stat struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Aggregate sums up one policy on one env.
type Aggregate struct {
	Policy   string  `json:"policy"`
	Env      string  `json:"env"`
	Episodes int     `json:"episodes"` // episodes without an error
	Errors   int     `json:"errors"`   // episodes that ended with an error (left out of the means)
	Missing  int     `json:"missing"`  // episodes of the config not played yet
	Success  Stat    `json:"success"`
	Return   Stat    `json:"return"`
	Turns    float64 `json:"mean_turns"`
	// Unfinished is the fraction of chat turns cut at the token limit.
	Unfinished       float64         `json:"unfinished"`
	PromptTokens     float64         `json:"mean_prompt_tokens"`
	CompletionTokens float64         `json:"mean_completion_tokens"`
	LatencyS         float64         `json:"mean_latency_s"`
	PassAtK          map[int]float64 `json:"pass_at_k"` // over seeds with all samples played
}

// aggregate sums up the records of one (policy, env) of cfg.
func aggregate(cfg *Config, policy, env string, byKey map[Key]Record, rng *rand.Rand) Aggregate {
	a := Aggregate{Policy: policy, Env: env, PassAtK: map[int]float64{}}
	var succ, ret []float64
	var turns, pt, ct, lat float64
	var cut, chatTurns int
	passSum := map[int]float64{}
	fullSeeds := 0
	for i := 0; i < cfg.Episodes; i++ {
		seed := cfg.SeedBase + uint64(i)
		c, n := 0, 0
		for s := 0; s < cfg.Samples; s++ {
			r, ok := byKey[Key{policy, env, seed, s}]
			switch {
			case !ok:
				a.Missing++
				continue
			case r.Error != "":
				a.Errors++
				continue
			}
			n++
			a.Episodes++
			succ = append(succ, b2f(r.Success))
			ret = append(ret, r.Return)
			turns += float64(r.Turns)
			pt += float64(r.PromptTokens)
			ct += float64(r.CompletionTokens)
			lat += r.LatencyS
			for _, f := range r.FinishReasons {
				chatTurns++
				if f == "length" {
					cut++
				}
			}
			if r.Success {
				c++
			}
		}
		if n == cfg.Samples {
			fullSeeds++
			for _, k := range stats.PassKs(cfg.Samples) {
				passSum[k] += stats.PassAtK(n, c, k)
			}
		}
	}
	a.Success, a.Return = stat(succ, cfg.Resamples, rng), stat(ret, cfg.Resamples, rng)
	if a.Episodes > 0 {
		n := float64(a.Episodes)
		a.Turns, a.PromptTokens, a.CompletionTokens, a.LatencyS = turns/n, pt/n, ct/n, lat/n
	}
	if chatTurns > 0 {
		a.Unfinished = float64(cut) / float64(chatTurns)
	}
	if fullSeeds > 0 {
		for k, v := range passSum {
			a.PassAtK[k] = v / float64(fullSeeds)
		}
	}
	return a
}

func stat(v []float64, resamples int, rng *rand.Rand) Stat {
	if len(v) == 0 {
		return Stat{}
	}
	s := stats.Summarize(v, resamples, rng)
	return Stat{N: s.N, Mean: s.Mean, Lo: s.Lo, Hi: s.Hi}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
