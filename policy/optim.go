package policy

import (
	"fmt"
	"math"
)

// OptimConfig configures Adam with decoupled weight decay (AdamW), global
// gradient-norm clipping and a learning-rate schedule: linear warm-up from 0
// over WarmupSteps, then, when TotalSteps > 0, a cosine decay to
// MinLRFrac·LR at TotalSteps (constant after it); with TotalSteps 0 the rate
// stays at LR after the warm-up. A caller whose steps are not known in
// advance (an RL run: its steps per iteration follow its episodes) leaves
// TotalSteps 0 and decays the rate itself with SetLRScale and Decay. Zero
// values mean the defaults noted.
type OptimConfig struct {
	LR          float64 `yaml:"lr"`            // peak learning rate; 0 means 1e-3
	Beta1       float64 `yaml:"beta1"`         // first-moment decay; 0 means 0.9
	Beta2       float64 `yaml:"beta2"`         // second-moment decay; 0 means 0.999
	Eps         float64 `yaml:"eps"`           // denominator epsilon; 0 means 1e-8
	WeightDecay float64 `yaml:"weight_decay"`  // decoupled weight decay per step (times LR); 0: none
	MaxGradNorm float64 `yaml:"max_grad_norm"` // clip the global gradient L2 norm to this; 0: no clipping
	WarmupSteps int     `yaml:"warmup_steps"`  // linear warm-up steps; 0: none
	MinLRFrac   float64 `yaml:"min_lr_frac"`   // floor of the cosine decay as a fraction of LR; 0 means 0
	// TotalSteps is the optimizer step the cosine decay ends at, for a
	// run of known length (the format warm-up); 0: no decay by steps. It
	// is no config key: a training run's decay follows its iterations.
	TotalSteps int `yaml:"-"`
}

// DefaultOptimConfig is the zero config with its defaults filled in.
func DefaultOptimConfig() OptimConfig { return OptimConfig{}.withDefaults() }

func (oc OptimConfig) withDefaults() OptimConfig {
	if oc.LR == 0 {
		oc.LR = 1e-3
	}
	if oc.Beta1 == 0 {
		oc.Beta1 = 0.9
	}
	if oc.Beta2 == 0 {
		oc.Beta2 = 0.999
	}
	if oc.Eps == 0 {
		oc.Eps = 1e-8
	}
	return oc
}

// Validate checks oc (after defaults), naming the field (by its key in a
// training config's optim section) and the allowed range.
func (oc OptimConfig) Validate() error {
	oc = oc.withDefaults()
	bad := func(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }
	switch {
	case bad(oc.LR) || oc.LR <= 0:
		return fmt.Errorf("optim.lr = %v: must be > 0", oc.LR)
	case bad(oc.Beta1) || oc.Beta1 < 0 || oc.Beta1 >= 1:
		return fmt.Errorf("optim.beta1 = %v: allowed [0, 1)", oc.Beta1)
	case bad(oc.Beta2) || oc.Beta2 < 0 || oc.Beta2 >= 1:
		return fmt.Errorf("optim.beta2 = %v: allowed [0, 1)", oc.Beta2)
	case bad(oc.Eps) || oc.Eps <= 0:
		return fmt.Errorf("optim.eps = %v: must be > 0", oc.Eps)
	case bad(oc.WeightDecay) || oc.WeightDecay < 0:
		return fmt.Errorf("optim.weight_decay = %v: must be ≥ 0", oc.WeightDecay)
	case bad(oc.MaxGradNorm) || oc.MaxGradNorm < 0:
		return fmt.Errorf("optim.max_grad_norm = %v: must be ≥ 0 (0: no clipping)", oc.MaxGradNorm)
	case oc.WarmupSteps < 0:
		return fmt.Errorf("optim.warmup_steps = %d: must be ≥ 0", oc.WarmupSteps)
	case oc.TotalSteps < 0:
		return fmt.Errorf("the decay's total steps = %d: must be ≥ 0 (0: no decay by steps)", oc.TotalSteps)
	case oc.TotalSteps > 0 && oc.TotalSteps < oc.WarmupSteps:
		return fmt.Errorf("the decay's total steps = %d is below optim.warmup_steps = %d: the decay must end after the warm-up", oc.TotalSteps, oc.WarmupSteps)
	case bad(oc.MinLRFrac) || oc.MinLRFrac < 0 || oc.MinLRFrac > 1:
		return fmt.Errorf("optim.min_lr_frac = %v: allowed [0, 1]", oc.MinLRFrac)
	}
	return nil
}

// LRAt is the learning rate of step (1-based: the first update is step 1).
func (oc OptimConfig) LRAt(step int) float64 {
	oc = oc.withDefaults()
	if oc.WarmupSteps > 0 && step <= oc.WarmupSteps {
		return oc.LR * float64(step) / float64(oc.WarmupSteps)
	}
	if oc.TotalSteps <= 0 {
		return oc.LR
	}
	if step >= oc.TotalSteps {
		return oc.LR * oc.MinLRFrac
	}
	span := oc.TotalSteps - oc.WarmupSteps
	return oc.LR * oc.Decay(float64(step-oc.WarmupSteps)/float64(span))
}

// Decay is the cosine decay's factor at the fraction frac of its length:
// 1 at 0, falling along half a cosine to MinLRFrac at 1 (and held there
// after it; 1 before 0).
func (oc OptimConfig) Decay(frac float64) float64 {
	frac = min(max(frac, 0), 1)
	cos := 0.5 * (1 + math.Cos(math.Pi*frac))
	return oc.MinLRFrac + (1-oc.MinLRFrac)*cos
}

// adam is the optimizer of one parameter set.
type adam struct {
	oc    OptimConfig
	state AdamState
	scale float64 // factor on the schedule's rate (setScale); 1 until set
}

func newAdam(w *Weights, oc OptimConfig) (*adam, error) {
	if err := oc.Validate(); err != nil {
		return nil, err
	}
	a := &adam{oc: oc.withDefaults(), scale: 1}
	for _, p := range w.Params {
		a.state.M = append(a.state.M, make([]float32, p.Size()))
		a.state.V = append(a.state.V, make([]float32, p.Size()))
	}
	return a, nil
}

// step clips grads (scaling them in place) to the global norm limit and
// applies one Adam update to params. It returns the gradient norm before
// clipping and the learning rate used.
func (a *adam) step(params, grads [][]float32) (norm, lr float64) {
	var ss float64
	for _, g := range grads {
		for _, x := range g {
			ss += float64(x) * float64(x)
		}
	}
	norm = math.Sqrt(ss)
	scale := 1.0
	if a.oc.MaxGradNorm > 0 && norm > a.oc.MaxGradNorm {
		scale = a.oc.MaxGradNorm / (norm + 1e-6)
	}
	a.state.Step++
	t := a.state.Step
	lr = a.oc.LRAt(t) * a.scale
	b1, b2 := a.oc.Beta1, a.oc.Beta2
	c1 := 1 - math.Pow(b1, float64(t))
	c2 := math.Sqrt(1 - math.Pow(b2, float64(t)))
	stepSize := float32(lr / c1)
	decay := float32(1 - lr*a.oc.WeightDecay)
	fb1, fb2 := float32(b1), float32(b2)
	fc2, eps, fs := float32(c2), float32(a.oc.Eps), float32(scale)
	for i, p := range params {
		m, v, g := a.state.M[i], a.state.V[i], grads[i]
		for j := range p {
			gj := g[j] * fs
			m[j] = fb1*m[j] + (1-fb1)*gj
			v[j] = fb2*v[j] + (1-fb2)*gj*gj
			denom := float32(math.Sqrt(float64(v[j])))/fc2 + eps
			p[j] = p[j]*decay - stepSize*m[j]/denom
		}
	}
	return norm, lr
}

// setScale sets the factor on the schedule's rate of the steps that
// follow: s ≥ 0 and finite.
func (a *adam) setScale(s float64) error {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return fmt.Errorf("learning-rate scale %v: must be finite and ≥ 0", s)
	}
	a.scale = s
	return nil
}

// setState replaces the optimizer state after checking it fits w.
func (a *adam) setState(w *Weights, s AdamState) error {
	if s.Step < 0 {
		return fmt.Errorf("adam state: step %d is negative", s.Step)
	}
	if len(s.M) != len(w.Params) || len(s.V) != len(w.Params) {
		return fmt.Errorf("adam state has %d/%d moment tensors, the network has %d parameters", len(s.M), len(s.V), len(w.Params))
	}
	st := AdamState{Step: s.Step}
	for i, p := range w.Params {
		if len(s.M[i]) != p.Size() || len(s.V[i]) != p.Size() {
			return fmt.Errorf("adam state for %s has %d/%d elements, want %d", p.Name, len(s.M[i]), len(s.V[i]), p.Size())
		}
		st.M = append(st.M, append([]float32(nil), s.M[i]...))
		st.V = append(st.V, append([]float32(nil), s.V[i]...))
	}
	a.state = st
	return nil
}

// stateCopy returns a deep copy of the optimizer state.
func (a *adam) stateCopy() AdamState {
	st := AdamState{Step: a.state.Step}
	for i := range a.state.M {
		st.M = append(st.M, append([]float32(nil), a.state.M[i]...))
		st.V = append(st.V, append([]float32(nil), a.state.V[i]...))
	}
	return st
}
