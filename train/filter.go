package train

import (
	"context"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/buffer"
	"github.com/gemgo/gemgo/rollout"
)

// defaultMaxGenBatches is rollout.max_gen_batches when it is 0.
const defaultMaxGenBatches = 10

// batch is what one iteration played: the rollout's totals and the
// summary of every episode played, kept for training or not.
type batch struct {
	rollout rollout.Stats
	played  buffer.Stats
	gen     int // batches played (1 without rollout.filter_groups)
	kept    int // groups kept for the update (filter_groups)
	// prompt tokens the sampler took from its cache of earlier turns, and
	// those it fed through the model
	reused, computed int
	// perEnv tallies the played episodes by mixture entry (nil for one env)
	perEnv []envTally
}

// envTally sums one env's played episodes of an iteration.
type envTally struct {
	episodes, solved int
	returns          float64
}

// collect plays iteration it's episodes into buf (emptied first). With
// rollout.filter_groups it keeps only the groups whose episodes' returns
// differ (algo.SpreadGroups) and plays further batches, each of new seeds
// continuing the iteration's sequence, until episodes/group_size such
// groups are kept or max_gen_batches batches are played; groups kept
// beyond that number are dropped, so the update's size does not grow. An
// iteration that keeps no group leaves buf empty, and the caller skips
// its update.
func (r *runner) collect(ctx context.Context, col *rollout.Collector, it int, buf *buffer.Buffer) (batch, error) {
	cfg := r.cfg.Rollout
	buf.Clear()
	k := max(cfg.GroupSize, 1)
	perBatch := (cfg.Episodes + k - 1) / k // groups of one batch (the collector rounds up)
	seeds := rollout.SeedSequence(r.cfg.Seed, it)
	rounds := 1
	if cfg.FilterGroups {
		rounds = cfg.MaxGenBatches
		if rounds == 0 {
			rounds = defaultMaxGenBatches
		}
	}
	var b batch
	for g := 0; g < rounds; g++ {
		first := g * perBatch
		plan := rollout.Plan{Budget: rollout.Budget{Episodes: cfg.Episodes, Steps: cfg.Steps}, GroupSize: cfg.GroupSize,
			Seed: func(j int) uint64 { return seeds(first + j) }, FirstGroup: first}
		episodes, transitions := len(buf.Episodes), len(buf.Transitions)
		reused, computed := r.agent.Sampler.PromptTokens()
		cs, err := col.Collect(ctx, plan, buf, r.rng)
		reused1, computed1 := r.agent.Sampler.PromptTokens()
		b.reused, b.computed = b.reused+reused1-reused, b.computed+computed1-computed
		b.rollout = b.rollout.Add(cs)
		b.gen++
		if err != nil {
			return b, err
		}
		played := buffer.Buffer{Episodes: buf.Episodes[episodes:], Transitions: buf.Transitions[transitions:]}
		b.played = b.played.Merge(played.Stats())
		r.tally(&b, played.Episodes)
		if !cfg.FilterGroups {
			break
		}
		keep := map[int]bool{}
		for _, grp := range algo.SpreadGroups(buf) {
			if len(keep) < perBatch {
				keep[grp] = true
			}
		}
		buf.Filter(func(e buffer.Episode) bool { return keep[e.Group] })
		if b.kept = len(keep); b.kept == perBatch {
			break
		}
	}
	return b, nil
}

// tally adds played episodes to b's per-env sums, the env of each drawn
// from its seed as mixEnv drew it.
func (r *runner) tally(b *batch, played []buffer.Episode) {
	if r.mixCum == nil {
		return
	}
	if b.perEnv == nil {
		b.perEnv = make([]envTally, len(r.mixCum))
	}
	for _, ep := range played {
		t := &b.perEnv[pickEnv(r.mixCum, ep.Seed)]
		t.episodes++
		t.returns += ep.Return
		if ep.Success {
			t.solved++
		}
	}
}

// record sets the iteration's rollout metrics: those of every episode
// played, in place of the algorithm's over the kept ones; with a mixture
// (names, one per entry), each env's success rate, mean return and
// episodes under charts/success_rate/NAME, charts/episodic_return/NAME
// and charts/episodes/NAME (an env that played no episode this iteration
// is left out).
func (b batch) record(m algo.Metrics, filter bool, names []string) {
	for i, t := range b.perEnv {
		if t.episodes == 0 {
			continue
		}
		m["charts/success_rate/"+names[i]] = float64(t.solved) / float64(t.episodes)
		m["charts/episodic_return/"+names[i]] = t.returns / float64(t.episodes)
		m["charts/episodes/"+names[i]] = float64(t.episodes)
	}
	m["perf/env_steps_per_s"] = b.rollout.StepsPerSecond()
	m["perf/sampled_tokens_per_s"] = b.rollout.TokensPerSecond()
	m["perf/rollout_s"] = b.rollout.Wall.Seconds()
	if n := b.reused + b.computed; n > 0 {
		m["perf/prompt_reuse"] = float64(b.reused) / float64(n)
	}
	if !filter {
		return
	}
	m["charts/episodic_return"] = b.played.MeanReturn
	m["charts/success_rate"] = b.played.SuccessRate
	m["charts/turns"] = b.played.MeanTurns
	m["charts/episodes"] = float64(b.played.Episodes)
	m["charts/transitions"] = float64(b.played.Transitions)
	m["charts/gen_batches"] = float64(b.gen)
	m["charts/kept_groups"] = float64(b.kept)
}
