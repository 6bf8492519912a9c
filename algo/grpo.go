package algo

import (
	"math/rand/v2"

	"github.com/gemgo/gemgo/buffer"
)

// GRPO variants.
const (
	// VariantGRPO is Group Relative Policy Optimization (Shao et al. 2024,
	// DeepSeekMath): A = (R − mean_group R) / (std_group R + ε).
	VariantGRPO = "grpo"
	// VariantDrGRPO is Dr. GRPO (Liu et al. 2025, "Understanding R1-Zero-Like
	// Training"): A = R − mean_group R, no division by the std. Pair it with
	// the seq-mean-token-sum-norm loss aggregation, as the paper does.
	VariantDrGRPO = "dr-grpo"
	// VariantRLOO is REINFORCE Leave-One-Out (Ahmadian et al. 2024):
	// A = R − mean of the other members of the group.
	VariantRLOO = "rloo"
)

// GRPO collapses each episode to one scalar, its undiscounted return
// R = Σ_t r_t, and compares the K episodes of a group (played from the
// same initial state: the collector resets them with one seed). Every turn
// of an episode gets the episode's advantage, so per-turn credit is lost:
// the contrast the GEM paper draws with ReBN on multi-turn envs.
//
// It reads algo.name (the variant: "grpo", "dr-grpo" or "rloo"),
// algo.epsilon (ε; 0 means 1e-6) and the update's settings from its Config.
type GRPO struct {
	cfg  Config
	deps Deps
}

var _ Algorithm = (*GRPO)(nil)

// Name is the variant's name.
func (a *GRPO) Name() string { return a.cfg.Name }

// Update fills the group-relative advantages and optimises l.
func (a *GRPO) Update(b *buffer.Buffer, l Learner, rng *rand.Rand) (Metrics, error) {
	eps := a.cfg.Epsilon
	if eps == 0 {
		eps = 1e-6
	}
	// 1. one undiscounted return per episode
	r := make([]float64, len(b.Episodes))
	groups := make([]int, len(b.Episodes))
	for i, e := range b.Episodes {
		r[i], groups[i] = e.Return, e.Group
	}
	// 2. normalize within each group
	var adv []float64
	switch a.Name() {
	case VariantGRPO:
		adv = GroupNormalize(r, groups, eps, true)
	case VariantDrGRPO:
		adv = GroupNormalize(r, groups, eps, false)
	case VariantRLOO:
		adv = LeaveOneOut(r, groups)
	}
	// 3. every turn of an episode shares its advantage
	for i, e := range b.Episodes {
		turns := b.Turns(e)
		for t := range turns {
			turns[t].Advantage = adv[i]
			turns[t].Return = r[i]
		}
	}
	// 4. surrogate loss and optimizer steps
	m, err := optimize(l, b, a.cfg, a.deps, rng)
	if err != nil {
		return nil, err
	}
	// 5. stats
	episodeMetrics(b, m)
	advantageMetrics(b, m)
	m["charts/zero_adv_groups"] = zeroGroups(adv, groups)
	return m, nil
}

// zeroGroups is the fraction of groups whose advantages are all zero (no
// learning signal: every member scored the same).
func zeroGroups(adv []float64, groups []int) float64 {
	idx := byGroup(groups)
	if len(idx) == 0 {
		return 0
	}
	zero := 0
	for _, members := range idx {
		all := true
		for _, i := range members {
			if adv[i] != 0 {
				all = false
			}
		}
		if all {
			zero++
		}
	}
	return float64(zero) / float64(len(idx))
}

// SpreadGroups returns the ids of b's groups whose episodes' returns are
// not all equal, in the order the groups first appear. Under GRPO, Dr.
// GRPO and RLOO every other group has zero advantage: all its episodes
// solved the task, or none did, so it teaches nothing.
func SpreadGroups(b *buffer.Buffer) []int {
	groups := make([]int, len(b.Episodes))
	for i, e := range b.Episodes {
		groups[i] = e.Group
	}
	var out []int
	for _, members := range byGroup(groups) {
		r0 := b.Episodes[members[0]].Return
		for _, i := range members[1:] {
			if b.Episodes[i].Return != r0 {
				out = append(out, b.Episodes[members[0]].Group)
				break
			}
		}
	}
	return out
}
