package sokoban

import (
	"fmt"
	"math/rand/v2"
)

// Generation knobs.
const (
	preferOnTarget = 0.8 // probability of pulling a box still on its target when there is one
	walkTries      = 8   // reverse walks per room; the best end state is kept
	roomTries      = 100 // rooms tried before giving up
	wallsFactor    = 5   // at most inner_cells/wallsFactor inner walls
)

// generate makes an n×n room with boxes boxes, solvable in at most budget
// moves: the boxes start on the targets and a random reverse walk of at
// most budget steps pulls them away. It returns the room and the length of
// the reverse walk (an upper bound on the shortest solution).
func generate(rng *rand.Rand, n, boxes, budget int) (*room, int, error) {
	for range roomTries {
		base := layout(rng, n, boxes)
		if base == nil {
			continue
		}
		if r, steps := reversePlay(rng, base, budget); r != nil {
			return r, steps, nil
		}
	}
	return nil, 0, fmt.Errorf("sokoban: no %dx%d room with %d boxes after %d tries", n, n, boxes, roomTries)
}

// layout draws the walls (the border and a few connected-preserving inner
// walls), the targets with a box on each, and the player.
func layout(rng *rand.Rand, n, boxes int) *room {
	r := &room{n: n, wall: make([]bool, n*n), target: make([]bool, n*n), box: make([]bool, n*n)}
	for i := range r.wall {
		row, col := i/n, i%n
		r.wall[i] = row == 0 || col == 0 || row == n-1 || col == n-1
	}
	inner := (n - 2) * (n - 2)
	for range rng.IntN(inner/wallsFactor + 1) {
		i := (1+rng.IntN(n-2))*n + 1 + rng.IntN(n-2)
		if r.wall[i] {
			continue
		}
		r.wall[i] = true
		if !connected(r) {
			r.wall[i] = false
		}
	}
	var floor []int
	for i, w := range r.wall {
		if !w {
			floor = append(floor, i)
		}
	}
	if len(floor) < boxes+3 {
		return nil
	}
	rng.Shuffle(len(floor), func(a, b int) { floor[a], floor[b] = floor[b], floor[a] })
	for _, i := range floor[:boxes] {
		r.target[i] = true
		r.box[i] = true
	}
	r.player = floor[boxes]
	return r
}

// connected reports whether every floor cell of r reaches every other.
func connected(r *room) bool {
	start, floor := -1, 0
	for i, w := range r.wall {
		if !w {
			floor++
			start = i
		}
	}
	if start < 0 {
		return false
	}
	seen := make([]bool, len(r.wall))
	stack := []int{start}
	seen[start] = true
	reached := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		for d := range dir(4) {
			j := i + r.delta(d)
			if !r.wall[j] && !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return reached == floor
}

// reversePlay plays backwards from base (every box on a target): the player
// walks to a box and pulls it one to three cells, again and again, while the
// moves so far stay within budget. Walking and pulling backwards are exactly
// the forward moves and pushes played in reverse, so the end state is
// solvable in at most the moves spent. It returns the hardest state seen
// over several walks (by score) and its move count, or nil if no walk moved
// a box off its target.
func reversePlay(rng *rand.Rand, base *room, budget int) (*room, int) {
	var best *room
	bestScore, bestSteps := 0, 0
	dist := make([]int, len(base.wall))
	queue := make([]int, len(base.wall))
	type pull struct {
		box  int
		d    dir
		cost int
	}
	var cands, onTarget []pull
	for range walkTries {
		r := base.clone()
		steps := 0
		for {
			r.distances(dist, queue)
			cands, onTarget = cands[:0], onTarget[:0]
			for b, isBox := range r.box {
				if !isBox {
					continue
				}
				for d := range dir(4) {
					s := b + r.delta(d)
					if dist[s] < 0 || r.wall[s+r.delta(d)] || r.box[s+r.delta(d)] || steps+dist[s]+1 > budget {
						continue
					}
					c := pull{b, d, dist[s]}
					cands = append(cands, c)
					if r.target[b] {
						onTarget = append(onTarget, c)
					}
				}
			}
			if len(cands) == 0 {
				break
			}
			pick := cands
			if len(onTarget) > 0 && rng.Float64() < preferOnTarget {
				pick = onTarget
			}
			c := pick[rng.IntN(len(pick))]
			// Walk to the cell beside the box, then pull 1–3 times.
			r.player = c.box + r.delta(c.d)
			steps += c.cost
			b := c.box
			for k := 1 + rng.IntN(3); k > 0; k-- {
				next := r.player + r.delta(c.d)
				if r.wall[next] || r.box[next] || steps+1 > budget {
					break
				}
				r.box[b] = false
				r.box[r.player] = true
				b = r.player
				r.player = next
				steps++
			}
			if s := score(r); s > bestScore {
				best, bestScore, bestSteps = r.clone(), s, steps
			}
		}
	}
	return best, bestSteps
}

// distances fills dist with the number of moves from the player to each
// cell without moving a box, or -1 where the player cannot walk. queue is
// scratch space of at least len(dist) cells.
func (r *room) distances(dist, queue []int) {
	for i := range dist {
		dist[i] = -1
	}
	dist[r.player] = 0
	queue[0] = r.player
	for head, tail := 0, 1; head < tail; head++ {
		i := queue[head]
		for d := range dir(4) {
			j := i + r.delta(d)
			if !r.wall[j] && !r.box[j] && dist[j] < 0 {
				dist[j] = dist[i] + 1
				queue[tail] = j
				tail++
			}
		}
	}
}

// score rates how far a state is from solved: boxes off target weigh most,
// then the sum over boxes of the distance to the nearest target (a lower
// bound on the pushes needed). A solved state scores 0.
func score(r *room) int {
	s := 0
	for i, b := range r.box {
		if !b || r.target[i] {
			continue
		}
		near := 4 * r.n
		for j, t := range r.target {
			if t {
				near = min(near, abs(i/r.n-j/r.n)+abs(i%r.n-j%r.n))
			}
		}
		s += 10 + near
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
