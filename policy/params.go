package policy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Config is the shape of a transformer policy (or critic).
type Config struct {
	Vocab   int `yaml:"-" json:"vocab"`         // token ids, set from the tokenizer (not a config key)
	Context int `yaml:"context" json:"context"` // longest sequence (prompt + response) the model reads
	Layers  int `yaml:"layers" json:"layers"`   // transformer blocks
	DModel  int `yaml:"d_model" json:"d_model"` // width of the residual stream
	Heads   int `yaml:"heads" json:"heads"`     // attention heads; DModel must be a multiple of Heads
	// TieEmbeddings computes the logits as h·tok_embᵀ + bout, with no output
	// matrix wout (GPT-2's weight tying): reading a token trains the row
	// that writing it uses, so a policy can write a name it has only read.
	// Omitted from YAML and JSON when false, so that untied configs and
	// checkpoints keep their bytes.
	TieEmbeddings bool `yaml:"tie_embeddings,omitempty" json:"tie_embeddings,omitempty"`
}

// Validate checks the shape, naming the field and the allowed range.
func (c Config) Validate() error {
	switch {
	case c.Vocab < 4 || c.Vocab > 1<<20:
		return fmt.Errorf("the vocabulary has %d tokens: allowed [4, %d] (it is the tokenizer's: specials, 256 bytes and up to tokenizer.max_vocab pieces)", c.Vocab, 1<<20)
	case c.Context < 2 || c.Context > 8192:
		return fmt.Errorf("model.context = %d: allowed [2, 8192]", c.Context)
	case c.Layers < 1 || c.Layers > 64:
		return fmt.Errorf("model.layers = %d: allowed [1, 64]", c.Layers)
	case c.DModel < 1 || c.DModel > 8192:
		return fmt.Errorf("model.d_model = %d: allowed [1, 8192]", c.DModel)
	case c.Heads < 1 || c.DModel%c.Heads != 0:
		return fmt.Errorf("model.heads = %d: must be at least 1 and divide model.d_model = %d", c.Heads, c.DModel)
	}
	return nil
}

// Diff returns nil when c, the shape of a saved model, equals want, the
// shape a config asks for, and otherwise an error naming each field that
// differs.
func (c Config) Diff(want Config) error {
	var d []string
	add := func(key string, have, want any) {
		d = append(d, fmt.Sprintf("%s = %v, want %v", key, have, want))
	}
	for _, f := range []struct {
		key        string
		have, want int
	}{
		{"the vocabulary (the tokenizer's)", c.Vocab, want.Vocab},
		{"model.context", c.Context, want.Context},
		{"model.layers", c.Layers, want.Layers},
		{"model.d_model", c.DModel, want.DModel},
		{"model.heads", c.Heads, want.Heads},
	} {
		if f.have != f.want {
			add(f.key, f.have, f.want)
		}
	}
	if c.TieEmbeddings != want.TieEmbeddings {
		add("model.tie_embeddings", c.TieEmbeddings, want.TieEmbeddings)
		d[len(d)-1] += " (" + tiedModel + ": the weights of one do not fit the other)"
	}
	if len(d) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(d, "; "))
}

// The two facts every model.tie_embeddings mismatch explains itself by,
// in one wording wherever weights, checkpoints or configs disagree on it.
const (
	tiedModel  = "a tied model has no output matrix wout, its logits read tok_emb"
	tiedFact   = "model.tie_embeddings = true: " + tiedModel
	untiedFact = "model.tie_embeddings = false: an untied model needs its output matrix wout"
)

// tieHint explains a parameter layout mismatch that model.tie_embeddings
// causes: w holds a wout that specs do not call for, or lacks one they do.
func tieHint(w *Weights, specs []ParamSpec) string {
	want := slices.ContainsFunc(specs, func(s ParamSpec) bool { return s.Name == paramWOut })
	switch has := w.Param(paramWOut) != nil; {
	case want && !has:
		return " (" + untiedFact + "; these weights are a tied model's, without one)"
	case !want && has && w.Config.TieEmbeddings:
		return " (" + tiedFact + "; these weights are an untied model's)"
	}
	return ""
}

// Param is one named parameter tensor, row-major float32. Matrices are
// (in, out) and applied as x·W + b.
type Param struct {
	Name  string
	Shape []int
	Data  []float32
}

// Size is the number of elements in p.
func (p *Param) Size() int { return len(p.Data) }

// ParamSpec names a parameter, its shape and its initialisation.
type ParamSpec struct {
	Name  string
	Shape []int
	Init  string // "normal" (N(0, 0.02²)), "ones" or "zeros"
}

// Specs lists every parameter of a model of shape c, in the fixed order used
// by checkpoints and by the PyTorch reference's dumps (scripts/torchref,
// untied models only). With c.TieEmbeddings there is no wout: the output
// projection reads tok_emb transposed.
func Specs(c Config) []ParamSpec {
	d := c.DModel
	s := []ParamSpec{{paramTokEmb, []int{c.Vocab, d}, "normal"}, {paramPosEmb, []int{c.Context, d}, "normal"}}
	for l := 0; l < c.Layers; l++ {
		var b block[struct{}]
		for _, p := range b.params(d) {
			s = append(s, ParamSpec{blockParamName(l, p.name), p.shape, p.init})
		}
	}
	s = append(s, ParamSpec{paramLNFGain, []int{d}, "ones"}, ParamSpec{paramLNFBias, []int{d}, "zeros"})
	if !c.TieEmbeddings {
		s = append(s, ParamSpec{paramWOut, []int{d, c.Vocab}, "normal"})
	}
	return append(s, ParamSpec{paramBOut, []int{c.Vocab}, "zeros"})
}

// The parameters outside the blocks, by name; Specs gives their shapes.
const (
	paramTokEmb  = "tok_emb" // token embedding, vocab×d (with TieEmbeddings also the output projection)
	paramPosEmb  = "pos_emb" // position embedding, context×d
	paramLNFGain = "lnf.g"   // final layer norm
	paramLNFBias = "lnf.b"
	paramWOut    = "wout"    // output projection, d×vocab (untied models)
	paramBOut    = "bout"    // output bias, vocab
	paramVHeadW  = "vhead.w" // the critic's value head, d×1
	paramVHeadB  = "vhead.b"
)

// block holds one value per parameter of a transformer block: the
// training graph's nodes (model.go), the decoder's weight slices
// (forward.go). Its params method is the one table of the block's
// parameter names, which Specs (and so checkpoints, the optimizer's state
// and the PyTorch reference's dumps) and both forward passes read.
type block[P any] struct {
	ln1g, ln1b     P // pre-attention layer norm: gain, bias (d)
	wq, bq         P // query projection (d×d, d)
	wk, bk         P // key projection
	wv, bv         P // value projection
	wo, bo         P // attention output projection
	ln2g, ln2b     P // pre-MLP layer norm
	w1, b1, w2, b2 P // MLP: d×4d, 4d, 4d×d, d
}

// blockParam is one row of the table: a field of a block, its name after
// the block's prefix, its shape and its initialisation.
type blockParam[P any] struct {
	field *P
	name  string
	shape []int
	init  string
}

// params lists b's parameters for width d, in checkpoint order.
func (b *block[P]) params(d int) []blockParam[P] {
	ff := 4 * d
	return []blockParam[P]{
		{&b.ln1g, "ln1.g", []int{d}, "ones"}, {&b.ln1b, "ln1.b", []int{d}, "zeros"},
		{&b.wq, "wq", []int{d, d}, "normal"}, {&b.bq, "bq", []int{d}, "zeros"},
		{&b.wk, "wk", []int{d, d}, "normal"}, {&b.bk, "bk", []int{d}, "zeros"},
		{&b.wv, "wv", []int{d, d}, "normal"}, {&b.bv, "bv", []int{d}, "zeros"},
		{&b.wo, "wo", []int{d, d}, "normal"}, {&b.bo, "bo", []int{d}, "zeros"},
		{&b.ln2g, "ln2.g", []int{d}, "ones"}, {&b.ln2b, "ln2.b", []int{d}, "zeros"},
		{&b.w1, "w1", []int{d, ff}, "normal"}, {&b.b1, "b1", []int{ff}, "zeros"},
		{&b.w2, "w2", []int{ff, d}, "normal"}, {&b.b2, "b2", []int{d}, "zeros"},
	}
}

// blockParamName is the full name of parameter name of block l, "h<l>.<name>".
func blockParamName(l int, name string) string { return fmt.Sprintf("h%d.%s", l, name) }

// loadBlock returns block l of a model of width d, each parameter looked
// up by its full name.
func loadBlock[P any](l, d int, lookup func(name string) P) block[P] {
	var b block[P]
	for _, p := range b.params(d) {
		*p.field = lookup(blockParamName(l, p.name))
	}
	return b
}

// CriticSpecs lists every parameter of a value network of shape c: the
// transformer of Specs without the output projection (wout, bout), plus a
// scalar value head vhead.w (d_model×1) and vhead.b (1) read from the final
// layer norm's output at the last prompt token.
func CriticSpecs(c Config) []ParamSpec {
	s := slices.DeleteFunc(Specs(c), func(p ParamSpec) bool { return p.Name == paramWOut || p.Name == paramBOut })
	return append(s, ParamSpec{paramVHeadW, []int{c.DModel, 1}, "normal"}, ParamSpec{paramVHeadB, []int{1}, "zeros"})
}

// Weights is the parameter set of one network, in the order of its specs
// (Specs for a policy, CriticSpecs for a critic).
type Weights struct {
	Config Config
	Params []*Param
}

// AdamState is the optimizer state of one parameter set: the step count and
// the first and second moments, aligned with Weights.Params.
type AdamState struct {
	Step int
	M, V [][]float32
}

// NewWeights initialises a policy of shape c: embeddings and matrices
// N(0, 0.02²), layer-norm gains 1, biases and shifts 0.
func NewWeights(c Config, rng *rand.Rand) (*Weights, error) {
	return NewWeightsFromSpecs(c, Specs(c), rng)
}

// NewCriticWeights initialises a value network of shape c (CriticSpecs).
func NewCriticWeights(c Config, rng *rand.Rand) (*Weights, error) {
	return NewWeightsFromSpecs(c, CriticSpecs(c), rng)
}

// NewWeightsFromSpecs initialises the parameters specs of a network of shape c.
func NewWeightsFromSpecs(c Config, specs []ParamSpec, rng *rand.Rand) (*Weights, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	w := &Weights{Config: c}
	for _, s := range specs {
		n := 1
		for _, k := range s.Shape {
			n *= k
		}
		p := &Param{Name: s.Name, Shape: append([]int(nil), s.Shape...), Data: make([]float32, n)}
		switch s.Init {
		case "normal":
			for i := range p.Data {
				p.Data[i] = float32(rng.NormFloat64() * 0.02)
			}
		case "ones":
			for i := range p.Data {
				p.Data[i] = 1
			}
		}
		w.Params = append(w.Params, p)
	}
	return w, nil
}

// Param returns the parameter called name, or nil.
func (w *Weights) Param(name string) *Param {
	for _, p := range w.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// NumParams is the total number of scalars in w.
func (w *Weights) NumParams() int {
	n := 0
	for _, p := range w.Params {
		n += p.Size()
	}
	return n
}

// Clone returns a deep copy of w.
func (w *Weights) Clone() *Weights {
	c := &Weights{Config: w.Config}
	for _, p := range w.Params {
		c.Params = append(c.Params, &Param{Name: p.Name, Shape: append([]int(nil), p.Shape...), Data: append([]float32(nil), p.Data...)})
	}
	return c
}
