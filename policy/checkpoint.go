package policy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/nlpodyssey/safetensors"
)

// CheckpointVersion is the checkpoint format this build writes and reads.
const CheckpointVersion = 1

// Checkpoint is everything needed to resume training or to run a policy:
// the policy's weights, optionally a critic and the Adam state of each, the
// tokenizer, the model shape and free-form metadata.
//
// On disk it is a safetensors file (see SaveCheckpoint), so the weights
// open in PyTorch tools.
type Checkpoint struct {
	// Version is the format version; LoadCheckpoint sets it, SaveCheckpoint
	// always writes CheckpointVersion.
	Version int
	// Config is the policy's shape; zero means Policy.Config.
	Config Config
	// Policy holds the parameters of Specs(Config), in that order. Required.
	Policy *Weights
	// Critic, optional, holds the parameters of CriticSpecs(Critic.Config).
	Critic *Weights
	// PolicyAdam and CriticAdam, optional, are the optimizer states, aligned
	// with Policy.Params and Critic.Params.
	PolicyAdam, CriticAdam *AdamState
	// Tokenizer reads and writes the policy's text; its VocabSize must equal
	// Config.Vocab (and Critic.Config.Vocab). Required.
	Tokenizer *Tokenizer
	// Meta is free-form: the run config, the iteration, RNG states... The
	// caller fills it; it is saved and loaded as is.
	Meta map[string]string
}

// Names in the safetensors file. Tensors are "<group>/<param name>", e.g.
// "policy/tok_emb", "critic/vhead.w", "policy_adam_m/h0.wq"; header
// metadata keys are below, plus "meta/<key>" for each entry of Meta.
const (
	ckGroupPolicy      = "policy"
	ckGroupCritic      = "critic"
	ckGroupPolicyAdamM = "policy_adam_m"
	ckGroupPolicyAdamV = "policy_adam_v"
	ckGroupCriticAdamM = "critic_adam_m"
	ckGroupCriticAdamV = "critic_adam_v"

	ckKeyFormat         = "format"           // always checkpointFormat
	ckKeyVersion        = "format_version"   // CheckpointVersion in decimal
	ckKeyConfig         = "config"           // JSON of the policy Config
	ckKeyCriticConfig   = "critic_config"    // JSON of the critic Config, when there is a critic
	ckKeyTokenizer      = "tokenizer"        // JSON of the Tokenizer
	ckKeyPolicyAdamStep = "policy_adam_step" // AdamState.Step, when PolicyAdam is saved
	ckKeyCriticAdamStep = "critic_adam_step" // AdamState.Step, when CriticAdam is saved
	ckKeyChecksum       = "checksum"         // "crc32c:xxxxxxxx" of everything else
	ckMetaPrefix        = "meta/"
	checkpointFormat    = "gemgo-checkpoint"
)

// SaveCheckpoint writes c to path atomically (atomicfile.WriteFile): a
// failed save never damages an existing checkpoint.
//
// The file is safetensors: an 8-byte little-endian header length, a JSON
// header and the raw tensors. Every tensor is float32 ("F32") named
// "<group>/<param>" with group policy, critic, policy_adam_m, policy_adam_v,
// critic_adam_m or critic_adam_v. The header's __metadata__ holds the format
// name and version, the configs and the tokenizer as JSON, the Adam step
// counts, the caller's Meta as "meta/<key>", and a CRC-32C checksum over all
// of it and the tensors, so that any corruption is detected on load.
func SaveCheckpoint(path string, c *Checkpoint) (err error) {
	data, err := MarshalCheckpoint(c)
	if err != nil {
		return fmt.Errorf("save checkpoint %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	return nil
}

// MarshalCheckpoint returns the bytes SaveCheckpoint writes.
func MarshalCheckpoint(c *Checkpoint) ([]byte, error) {
	if c == nil {
		return nil, errors.New("nil checkpoint")
	}
	cfg, err := c.check()
	if err != nil {
		return nil, err
	}
	tensors := map[string]safetensors.TensorView{}
	add := func(group string, params []*Param, data [][]float32) error {
		for i, p := range params {
			d := p.Data
			if data != nil {
				d = data[i]
			}
			shape := make([]uint64, len(p.Shape))
			for k, n := range p.Shape {
				shape[k] = uint64(n)
			}
			v, err := safetensors.NewTensorView(safetensors.F32, shape, ckptBytes(d))
			if err != nil {
				return fmt.Errorf("tensor %s/%s: %w", group, p.Name, err)
			}
			tensors[group+"/"+p.Name] = v
		}
		return nil
	}
	meta := map[string]string{
		ckKeyFormat:  checkpointFormat,
		ckKeyVersion: strconv.Itoa(CheckpointVersion),
	}
	cj, _ := json.Marshal(cfg) // a struct of ints always marshals
	meta[ckKeyConfig] = string(cj)
	tj, err := json.Marshal(c.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	meta[ckKeyTokenizer] = string(tj)
	errs := []error{add(ckGroupPolicy, c.Policy.Params, nil)}
	if a := c.PolicyAdam; a != nil {
		meta[ckKeyPolicyAdamStep] = strconv.Itoa(a.Step)
		errs = append(errs, add(ckGroupPolicyAdamM, c.Policy.Params, a.M), add(ckGroupPolicyAdamV, c.Policy.Params, a.V))
	}
	if c.Critic != nil {
		cj, _ := json.Marshal(c.Critic.Config)
		meta[ckKeyCriticConfig] = string(cj)
		errs = append(errs, add(ckGroupCritic, c.Critic.Params, nil))
		if a := c.CriticAdam; a != nil {
			meta[ckKeyCriticAdamStep] = strconv.Itoa(a.Step)
			errs = append(errs, add(ckGroupCriticAdamM, c.Critic.Params, a.M), add(ckGroupCriticAdamV, c.Critic.Params, a.V))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for k, v := range c.Meta {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, fmt.Errorf("meta[%q] = %q is not valid UTF-8 text (safetensors metadata is JSON): encode binary values, e.g. in hex", k, v)
		}
		meta[ckMetaPrefix+k] = v
	}
	meta[ckKeyChecksum] = ckptChecksum(meta, tensors)
	var buf bytes.Buffer
	if err := safetensors.SerializeToWriter(tensors, meta, &buf); err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	return buf.Bytes(), nil
}

// check validates c for saving and returns the policy's shape.
func (c *Checkpoint) check() (Config, error) {
	if c.Policy == nil {
		return Config{}, errors.New("checkpoint has no policy weights")
	}
	if c.Tokenizer == nil {
		return Config{}, errors.New("checkpoint has no tokenizer")
	}
	cfg := c.Config
	if cfg == (Config{}) {
		cfg = c.Policy.Config
	}
	if cfg != c.Policy.Config {
		return Config{}, fmt.Errorf("checkpoint config %+v differs from the policy weights' config %+v", cfg, c.Policy.Config)
	}
	if err := ckptCheckWeights("policy", c.Policy, Specs, c.Tokenizer); err != nil {
		return Config{}, err
	}
	if err := ckptCheckAdam("policy", c.PolicyAdam, c.Policy); err != nil {
		return Config{}, err
	}
	if c.Critic == nil {
		if c.CriticAdam != nil {
			return Config{}, errors.New("checkpoint has critic Adam state but no critic weights")
		}
		return cfg, nil
	}
	if err := ckptCheckWeights("critic", c.Critic, CriticSpecs, c.Tokenizer); err != nil {
		return Config{}, err
	}
	return cfg, ckptCheckAdam("critic", c.CriticAdam, c.Critic)
}

// ckptCheckWeights reports whether w holds exactly the parameters specs(w.Config).
func ckptCheckWeights(what string, w *Weights, specs func(Config) []ParamSpec, tok *Tokenizer) error {
	if err := w.Config.Validate(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if w.Config.Vocab != tok.VocabSize() {
		return fmt.Errorf("%s: the weights have a vocabulary of %d tokens but the tokenizer has %d: the checkpoint's weights and tokenizer do not belong together (build the model with Config.Vocab = Tokenizer.VocabSize())", what, w.Config.Vocab, tok.VocabSize())
	}
	want := specs(w.Config)
	if len(w.Params) != len(want) {
		return fmt.Errorf("%s: %d parameters, the config wants %d%s", what, len(w.Params), len(want), tieHint(w, want))
	}
	for i, s := range want {
		p := w.Params[i]
		if p == nil || p.Name != s.Name || !slices.Equal(p.Shape, s.Shape) || len(p.Data) != ckptNumel(s.Shape) {
			return fmt.Errorf("%s: parameter %d is not %s %v with %d values", what, i, s.Name, s.Shape, ckptNumel(s.Shape))
		}
	}
	return nil
}

// ckptCheckAdam reports whether a, if any, is aligned with w.
func ckptCheckAdam(what string, a *AdamState, w *Weights) error {
	if a == nil {
		return nil
	}
	if a.Step < 0 {
		return fmt.Errorf("%s Adam state: step %d is negative", what, a.Step)
	}
	if len(a.M) != len(w.Params) || len(a.V) != len(w.Params) {
		return fmt.Errorf("%s Adam state: %d first and %d second moments for %d parameters", what, len(a.M), len(a.V), len(w.Params))
	}
	for i, p := range w.Params {
		if len(a.M[i]) != len(p.Data) || len(a.V[i]) != len(p.Data) {
			return fmt.Errorf("%s Adam state of %s: moments of %d and %d values, want %d", what, p.Name, len(a.M[i]), len(a.V[i]), len(p.Data))
		}
	}
	return nil
}

// ckptChecksum is the CRC-32C of the metadata (except the checksum itself) and
// of every tensor's name, shape, dtype and data, in sorted order, so that it
// does not depend on how the file lays them out.
func ckptChecksum(meta map[string]string, tensors map[string]safetensors.TensorView) string {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	var n [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		io.WriteString(h, s)
	}
	for _, k := range ckptSortedKeys(meta) {
		if k != ckKeyChecksum {
			str(k)
			str(meta[k])
		}
	}
	for _, k := range ckptSortedKeys(tensors) {
		t := tensors[k]
		str(k)
		str(t.DType().String())
		for _, d := range t.Shape() {
			binary.LittleEndian.PutUint64(n[:], d)
			h.Write(n[:])
		}
		h.Write(t.Data())
	}
	return fmt.Sprintf("crc32c:%08x", h.Sum32())
}

func ckptSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ckptBytes returns d as little-endian bytes.
func ckptBytes(d []float32) []byte {
	b := make([]byte, 4*len(d))
	for i, x := range d {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func ckptNumel(shape []int) int {
	n := 1
	for _, k := range shape {
		n *= k
	}
	return n
}
