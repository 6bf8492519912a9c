package algo

import "math"

// DiscountedReturns returns G_t = r_t + γ·G_{t+1} with G_{T+1} = 0, for the
// rewards of one episode.
func DiscountedReturns(rewards []float64, gamma float64) []float64 {
	g := make([]float64, len(rewards))
	acc := 0.0
	for t := len(rewards) - 1; t >= 0; t-- {
		acc = rewards[t] + gamma*acc
		g[t] = acc
	}
	return g
}

// meanStd is the mean and the population standard deviation of x.
func meanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return 0, 0
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := v - mean
		std += d * d
	}
	return mean, math.Sqrt(std / float64(len(x)))
}

// BatchNormalize returns (x − mean)/(std + eps) with the population std of
// the whole batch. A batch whose values are all equal maps to zeros.
func BatchNormalize(x []float64, eps float64) []float64 {
	mean, std := meanStd(x)
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = (v - mean) / (std + eps)
	}
	return out
}

// byGroup lists the indices of x in each group id, in order of first
// appearance.
func byGroup(groups []int) [][]int {
	pos := map[int]int{}
	var idx [][]int
	for i, g := range groups {
		k, ok := pos[g]
		if !ok {
			k = len(idx)
			pos[g] = k
			idx = append(idx, nil)
		}
		idx[k] = append(idx[k], i)
	}
	return idx
}

// GroupNormalize returns x − mean_group(x), divided by (std_group(x) + eps)
// when divideStd is set (GRPO; Dr.GRPO leaves it unset). groups[i] is the
// group id of x[i]; it panics if the lengths differ (a programming error).
func GroupNormalize(x []float64, groups []int, eps float64, divideStd bool) []float64 {
	if len(x) != len(groups) {
		panic("algo.GroupNormalize: x and groups differ in length")
	}
	out := make([]float64, len(x))
	for _, members := range byGroup(groups) {
		vals := make([]float64, len(members))
		for j, i := range members {
			vals[j] = x[i]
		}
		mean, std := meanStd(vals)
		for _, i := range members {
			out[i] = x[i] - mean
			if divideStd {
				out[i] /= std + eps
			}
		}
	}
	return out
}

// LeaveOneOut returns x_i − mean of the other members of its group (RLOO).
// A group of one has no baseline: its advantage is 0.
func LeaveOneOut(x []float64, groups []int) []float64 {
	if len(x) != len(groups) {
		panic("algo.LeaveOneOut: x and groups differ in length")
	}
	out := make([]float64, len(x))
	for _, members := range byGroup(groups) {
		n := len(members)
		if n < 2 {
			continue
		}
		sum := 0.0
		for _, i := range members {
			sum += x[i]
		}
		for _, i := range members {
			out[i] = x[i] - (sum-x[i])/float64(n-1)
		}
	}
	return out
}

// GAE computes generalized advantage estimates over the turns of one
// episode:
//
//	δ_t = r_t + γ·V(s_{t+1})·(1 − terminated_t) − V(s_t)
//	A_t = δ_t + γλ·(1 − terminated_t)·A_{t+1}
//
// values[t] is V(s_t) and nextValues[t] is V(s_{t+1}): the value of the
// next state, which is bootstrapped when the episode was truncated there and
// ignored when it terminated. The returns are A_t + V(s_t), the critic's
// targets. All slices must have the same length (it panics otherwise: a
// programming error).
func GAE(rewards, values, nextValues []float64, terminated []bool, gamma, lambda float64) (adv, returns []float64) {
	n := len(rewards)
	if len(values) != n || len(nextValues) != n || len(terminated) != n {
		panic("algo.GAE: rewards, values, nextValues and terminated differ in length")
	}
	adv = make([]float64, n)
	returns = make([]float64, n)
	next := 0.0
	for t := n - 1; t >= 0; t-- {
		notDone := 1.0
		if terminated[t] {
			notDone = 0
		}
		delta := rewards[t] + gamma*nextValues[t]*notDone - values[t]
		next = delta + gamma*lambda*notDone*next
		adv[t] = next
		returns[t] = next + values[t]
	}
	return adv, returns
}
