package envtest

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/gemgo/gemgo/envs"
)

// concurrent: envs from one factory share no mutable state, which
// VectorEnv relies on. Two envs stepped in turns, one step each, and two
// envs played at once in two goroutines must play exactly what one env
// plays alone (under go test -race a shared cache, RNG or buffer is also
// reported as a data race).
func (c *checker) concurrent(env envs.Env) {
	const check = "concurrent envs"
	seeds := []uint64{7, 8, 9}
	alone := map[uint64]episode{}
	for _, seed := range seeds {
		ep, ok := c.play(check, env, seed, seed)
		if !ok {
			return
		}
		alone[seed] = ep
	}
	others := []envs.Env{c.make(), c.make()}
	defer func() {
		for _, e := range others {
			_ = envs.Close(e)
		}
	}()
	for _, pair := range [][2]uint64{{7, 8}, {9, 7}} {
		a, b, ok := c.interleave(check, others[0], others[1], pair[0], pair[1])
		if !ok {
			return
		}
		for k, ep := range []episode{a, b} {
			if msg, eq := same(alone[pair[k]], ep); !eq {
				c.fail(check, "seeds %d and %d stepped in turns by two envs: seed %d differs from one env alone (state shared between envs?): %s", pair[0], pair[1], pair[k], msg)
				return
			}
		}
	}
	orders := [][]uint64{{7, 8, 9}, {9, 8, 7}}
	got := make([][]episode, len(others))
	msgs := make([]string, len(others))
	var wg sync.WaitGroup
	for g, e := range others {
		wg.Go(func() {
			// A copy of the checker: each goroutine records its own call in
			// progress, and failures are reported after the join.
			rec := &collector{}
			cc := &checker{t: rec, cfg: c.cfg, factory: c.factory}
			defer func() {
				if p := recover(); p != nil {
					rec.Errorf("panic at %s: %v", cc.where, p)
				}
				msgs[g] = rec.first
			}()
			for _, seed := range orders[g] {
				ep, ok := cc.play(check, e, seed, seed)
				if !ok {
					return
				}
				got[g] = append(got[g], ep)
			}
		})
	}
	wg.Wait()
	for g := range others {
		if msgs[g] != "" {
			c.fail(check, "goroutine %d: %s", g, msgs[g])
			return
		}
		for k, seed := range orders[g] {
			if msg, eq := same(alone[seed], got[g][k]); !eq {
				c.fail(check, "seed %d played by two envs at once differs from one env alone: %s", seed, msg)
				return
			}
		}
	}
}

// interleave plays seedA on a and seedB on b, one step each in turn, with
// the actions play would draw.
func (c *checker) interleave(check string, a, b envs.Env, seedA, seedB uint64) (episode, episode, bool) {
	c.t.Helper()
	type side struct {
		env    envs.Env
		seed   uint64
		ep     episode
		max    int
		draw   func(*rand.Rand) string
		r      *rand.Rand
		active bool
	}
	sides := []*side{{env: a, seed: seedA}, {env: b, seed: seedB}}
	for _, s := range sides {
		c.where = fmt.Sprintf("Reset(%d)", s.seed)
		obs, info, err := s.env.Reset(s.seed)
		if err != nil {
			c.fail(check, "Reset(%d): %v", s.seed, err)
			return episode{}, episode{}, false
		}
		s.ep = episode{resetObs: obs, resetInfo: info}
		s.max, _ = info[envs.InfoMaxTurns].(int)
		s.draw, _ = actions(s.env)
		s.r = rand.New(rand.NewPCG(s.seed, 0xac7))
		s.active = true
	}
	for turn := 1; sides[0].active || sides[1].active; turn++ {
		for _, s := range sides {
			if !s.active {
				continue
			}
			act := s.draw(s.r)
			st, ok := c.doStep(check, s.env, s.seed, turn, act)
			if !ok {
				return episode{}, episode{}, false
			}
			s.ep.actions = append(s.ep.actions, act)
			s.ep.steps = append(s.ep.steps, st)
			s.active = !st.Done() && turn < max(1, s.max)
		}
	}
	return sides[0].ep, sides[1].ep, true
}

// collector keeps the first failure of a check run off the test goroutine.
type collector struct{ first string }

func (r *collector) Helper() {}

func (r *collector) Errorf(format string, args ...any) {
	if r.first == "" {
		r.first = fmt.Sprintf(format, args...)
	}
}

func (r *collector) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
