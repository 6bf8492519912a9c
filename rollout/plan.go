package rollout

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
)

// Budget says how much to collect in one call of Collect. Exactly one of
// Episodes and Steps is set. With Steps, no new group starts once the
// steps taken reach it; episodes already started (and the rest of their
// group) are played to the end, so no episode is cut short. One env step is
// one transition, so a budget of transitions is a budget of Steps.
type Budget struct {
	Episodes int // finished episodes (rounded up to whole groups)
	Steps    int // env steps (transitions)
}

// Plan says which episodes to play.
type Plan struct {
	Budget Budget
	// GroupSize is the number of episodes that share a seed and a group id
	// (GRPO's K). 0 means 1.
	GroupSize int
	// Seed returns the env seed of the g-th group of this call (g = 0, 1, …).
	Seed func(g int) uint64
	// FirstGroup offsets the group ids stored in the buffer.
	FirstGroup int
}

func (p Plan) validate() error {
	if p.Seed == nil {
		return fmt.Errorf("rollout: plan has no Seed function")
	}
	if (p.Budget.Episodes > 0) == (p.Budget.Steps > 0) {
		return fmt.Errorf("rollout: set exactly one of budget.episodes and budget.steps (got %d and %d)", p.Budget.Episodes, p.Budget.Steps)
	}
	if p.GroupSize < 0 {
		return fmt.Errorf("rollout: group size %d: must be at least 1", p.GroupSize)
	}
	return nil
}

// SeedSequence returns a Seed function whose g-th seed is
// envs.EpisodeSeed(base, iteration, g): different iterations and groups get
// unrelated seeds, and the same arguments always give the same seed.
func SeedSequence(base uint64, iteration int) func(g int) uint64 {
	return func(g int) uint64 { return envs.EpisodeSeed(base, iteration, g) }
}

// ListSeeds returns a Seed function reading seeds[g] (for evaluation on
// fixed held-out seeds).
func ListSeeds(seeds []uint64) func(g int) uint64 {
	return func(g int) uint64 { return seeds[g%len(seeds)] }
}
