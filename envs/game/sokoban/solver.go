package sokoban

import (
	"container/heap"
	"errors"

	"github.com/gemgo/gemgo/envs"
)

// Solver plays a shortest solution of the room, found by an A* search
// (solution) that is independent of how the room was generated. It reads
// the room of the env, which is what every observation draws: the walls,
// targets, boxes and the player. It plans when the episode starts and
// again whenever the turn count shows moves it did not make.
type Solver struct {
	e        *Env
	plan     []dir
	nextTurn int // the env's turn count when plan[0] is due
}

// NewSolver returns the solver of e's current episode (make one per
// episode).
func NewSolver(e *Env) *Solver { return &Solver{e: e, nextTurn: -1} }

// NewSolver returns the solver of the episode e was last reset to
// (envs.SolverMaker).
func (e *Env) NewSolver() envs.Solver { return NewSolver(e) }

var _ envs.SolverMaker = (*Env)(nil)

// Act returns the next move as \boxed{up} (down, left, right); the
// observation is not read.
func (s *Solver) Act(string) (string, error) {
	if len(s.plan) == 0 || s.e.ep.Turn != s.nextTurn {
		s.plan = moves(s.e.r, s.e.limit-s.e.ep.Turn)
		s.nextTurn = s.e.ep.Turn
		if len(s.plan) == 0 {
			return "", errors.New("sokoban solver: no solution within the turns left")
		}
	}
	d := s.plan[0]
	s.plan = s.plan[1:]
	s.nextTurn++
	return envs.Boxed(d.String()), nil
}

// node is a search state: the player cell and the set of box cells as a
// bitmask (rooms of at most 128 cells).
type node struct {
	player int
	boxes  [2]uint64
}

func (n *node) has(i int) bool { return n.boxes[i>>6]&(1<<(i&63)) != 0 }
func (n *node) flip(i int)     { n.boxes[i>>6] ^= 1 << (i & 63) }

type item struct {
	n    node
	g, f int
}

type pq []item

func (q pq) Len() int { return len(q) }
func (q pq) Less(i, j int) bool {
	if q[i].f != q[j].f {
		return q[i].f < q[j].f
	}
	return q[i].g > q[j].g
}
func (q pq) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)   { *q = append(*q, x.(item)) }
func (q *pq) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

// solve returns the length of a shortest solution of r with at most limit
// moves, or -1 when there is none; see solution. The heuristic (sum over boxes of the
// Manhattan distance to the nearest target) never overestimates the moves
// left, so the first solved node popped is optimal.
func solve(r *room, limit int) int { return len(solution(r, limit)) - 1 }

// solution returns a shortest move sequence of at most limit moves (empty
// for a solved room) as moves[1:], with a leading placeholder so that an
// unsolvable room gives nil. Use solve for the length and moves for the
// sequence. Rooms of more than 128 cells give nil.
func solution(r *room, limit int) []dir {
	size := len(r.wall)
	if size > 128 { // New allows rooms of at most 10×10
		return nil
	}
	near := make([]int, size) // Manhattan distance to the nearest target
	for i := range size {
		near[i] = 1 << 20
		for j, t := range r.target {
			if t {
				near[i] = min(near[i], abs(i/r.n-j/r.n)+abs(i%r.n-j%r.n))
			}
		}
	}
	// A box can reach a target (ignoring other boxes) only from cells that
	// pulls from a target reach: a pull moves a box from x to x+δ with the
	// player going from x+δ to x+2δ, both floor. Boxes pushed anywhere else
	// are stuck for good, so such states are dropped.
	live := make([]bool, size)
	var stack []int
	for i, t := range r.target {
		if t {
			live[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for d := range dir(4) {
			y := x + r.delta(d)
			if r.wall[y] || live[y] || r.wall[y+r.delta(d)] {
				continue
			}
			live[y] = true
			stack = append(stack, y)
		}
	}
	start := node{player: r.player}
	hStart := 0
	for i, b := range r.box {
		if b {
			if !live[i] { // a dead box: no search needed
				return nil
			}
			start.flip(i)
			hStart += near[i]
		}
	}
	type entry struct {
		g, h int
		prev node
		d    dir
	}
	best := map[node]entry{start: {g: 0, h: hStart}}
	q := &pq{{start, 0, hStart}}
	for q.Len() > 0 {
		it := heap.Pop(q).(item)
		e := best[it.n]
		if it.g > e.g {
			continue
		}
		if e.h == 0 {
			out := make([]dir, it.g+1)
			for n, k := it.n, it.g; k > 0; k-- {
				e := best[n]
				out[k] = e.d
				n = e.prev
			}
			return out
		}
		for d := range dir(4) {
			delta := r.delta(d)
			next := it.n
			next.player += delta
			h := e.h
			if r.wall[next.player] {
				continue
			}
			if next.has(next.player) {
				b := next.player + delta
				if r.wall[b] || next.has(b) || !live[b] {
					continue
				}
				next.flip(next.player)
				next.flip(b)
				h += near[b] - near[next.player]
			}
			g := it.g + 1
			if g+h > limit {
				continue
			}
			if old, seen := best[next]; seen && old.g <= g {
				continue
			}
			best[next] = entry{g, h, it.n, d}
			heap.Push(q, item{next, g, g + h})
		}
	}
	return nil
}

// moves returns a shortest solution of r within limit moves, or nil.
func moves(r *room, limit int) []dir {
	if s := solution(r, limit); s != nil {
		return s[1:]
	}
	return nil
}
