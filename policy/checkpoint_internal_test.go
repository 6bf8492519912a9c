package policy

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/nlpodyssey/safetensors"
	"github.com/stretchr/testify/require"
)

var ckptCorpus = []string{"Guess the number between 1 and 10. Answer \\boxed{n}.\n5: higher\n8: lower", "\\boxed{7}"}

// tinyCheckpointBytes is a policy-only checkpoint with Adam state.
func tinyCheckpointBytes(t testing.TB) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 1))
	tok := BuildTokenizer(ckptCorpus, 10)
	cfg := Config{Vocab: tok.VocabSize(), Context: 4, Layers: 1, DModel: 4, Heads: 1}
	w, err := NewWeights(cfg, rng)
	require.NoError(t, err)
	a := &AdamState{Step: 3}
	for _, p := range w.Params {
		a.M, a.V = append(a.M, make([]float32, p.Size())), append(a.V, make([]float32, p.Size()))
	}
	data, err := MarshalCheckpoint(&Checkpoint{Policy: w, PolicyAdam: a, Tokenizer: tok, Meta: map[string]string{"k": "v"}})
	require.NoError(t, err)
	return data
}

// reseal edits the header metadata and tensors of a checkpoint file and
// writes it back with a fresh checksum, as a buggy or hostile writer would.
func reseal(t testing.TB, data []byte, edit func(meta map[string]string, views map[string]safetensors.TensorView)) []byte {
	t.Helper()
	n, md, err := safetensors.ReadMetadata(data)
	require.NoError(t, err)
	meta := maps.Clone(md.Metadata())
	views := map[string]safetensors.TensorView{}
	for name, info := range md.Tensors() {
		v, err := safetensors.NewTensorView(info.DType, info.Shape, data[8+n:][info.DataOffsets[0]:info.DataOffsets[1]])
		require.NoError(t, err)
		views[name] = v
	}
	edit(meta, views)
	meta[ckKeyChecksum] = ckptChecksum(meta, views)
	var buf bytes.Buffer
	require.NoError(t, safetensors.SerializeToWriter(views, meta, &buf))
	return buf.Bytes()
}

func view(t testing.TB, dt safetensors.DType, shape []uint64, data []byte) safetensors.TensorView {
	v, err := safetensors.NewTensorView(dt, shape, data)
	require.NoError(t, err)
	return v
}

func TestLoadCheckpointMismatches(t *testing.T) {
	data := tinyCheckpointBytes(t)
	// Resealing without an edit gives a loadable file: the cases below fail
	// for their edit alone.
	_, err := UnmarshalCheckpoint(reseal(t, data, func(map[string]string, map[string]safetensors.TensorView) {}))
	require.NoError(t, err)

	cfgJSON := func(c Config) string { b, _ := json.Marshal(c); return string(b) }
	base, err := UnmarshalCheckpoint(data)
	require.NoError(t, err)
	cfg := base.Config
	smallTok, _ := json.Marshal(BuildTokenizer(ckptCorpus, 5))

	type edit = func(meta map[string]string, views map[string]safetensors.TensorView)
	for _, tc := range []struct {
		name string
		edit edit
		want string
	}{
		{"version", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyVersion] = "2" },
			`checkpoint format version "2": this build reads version 1 only`},
		{"format", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyFormat] = "pytorch" },
			`not a gemgo checkpoint`},
		{"shape", func(_ map[string]string, v map[string]safetensors.TensorView) {
			v["policy/tok_emb"] = view(t, safetensors.F32, []uint64{4, uint64(cfg.Vocab)}, v["policy/tok_emb"].Data())
		}, `tensor "policy/tok_emb" has shape [4 269], the stored config wants [269 4]`},
		{"adam shape", func(_ map[string]string, v map[string]safetensors.TensorView) {
			v["policy_adam_v/h0.wq"] = view(t, safetensors.F32, []uint64{16}, v["policy_adam_v/h0.wq"].Data())
		}, `tensor "policy_adam_v/h0.wq" has shape [16], the stored config wants [4 4]`},
		{"dtype", func(_ map[string]string, v map[string]safetensors.TensorView) {
			v["policy/wout"] = view(t, safetensors.I32, v["policy/wout"].Shape(), v["policy/wout"].Data())
		}, `tensor "policy/wout" has dtype I32, want F32`},
		{"missing", func(_ map[string]string, v map[string]safetensors.TensorView) { delete(v, "policy/lnf.b") },
			`missing tensor "policy/lnf.b" (shape [4])`},
		{"missing adam", func(_ map[string]string, v map[string]safetensors.TensorView) { delete(v, "policy_adam_m/bout") },
			`missing tensor "policy_adam_m/bout"`},
		{"extra", func(_ map[string]string, v map[string]safetensors.TensorView) {
			v["policy/extra"] = view(t, safetensors.F32, []uint64{1}, make([]byte, 4))
		}, `unexpected tensors "policy/extra"`},
		{"adam without step", func(m map[string]string, _ map[string]safetensors.TensorView) { delete(m, ckKeyPolicyAdamStep) },
			`unexpected tensors "policy_adam_m/bout", "policy_adam_m/h0.b1", "policy_adam_m/h0.b2", "policy_adam_m/h0.bk", "policy_adam_m/h0.bo", and 39 more`},
		{"adam step", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyPolicyAdamStep] = "-1" },
			`"policy_adam_step" = "-1": want a whole number >= 0`},
		{"critic adam alone", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyCriticAdamStep] = "1" },
			`header has "critic_adam_step" but no critic`},
		{"critic without tensors", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyCriticConfig] = cfgJSON(cfg) },
			`missing tensor "critic/tok_emb"`},
		{"unknown key", func(m map[string]string, _ map[string]safetensors.TensorView) { m["lr"] = "3" },
			`unknown header metadata key "lr"`},
		{"no config", func(m map[string]string, _ map[string]safetensors.TensorView) { delete(m, ckKeyConfig) },
			`header metadata has no "config"`},
		{"config field", func(m map[string]string, _ map[string]safetensors.TensorView) {
			m[ckKeyConfig] = `{"vocab":269,"width":3}`
		},
			`header metadata "config": json: unknown field "width"`},
		{"config range", func(m map[string]string, _ map[string]safetensors.TensorView) {
			c := cfg
			c.Heads = 3
			m[ckKeyConfig] = cfgJSON(c)
		}, `header metadata "config": model.heads = 3`},
		{"no tokenizer", func(m map[string]string, _ map[string]safetensors.TensorView) { delete(m, ckKeyTokenizer) },
			`header metadata has no "tokenizer"`},
		{"tokenizer corrupt", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyTokenizer] = `{"format":"x"}` },
			`tokenizer: format "x"`},
		{"tokenizer vocab", func(m map[string]string, _ map[string]safetensors.TensorView) { m[ckKeyTokenizer] = string(smallTok) },
			`the weights have a vocabulary of 269 tokens but the tokenizer has 265`},
	} {
		_, err := UnmarshalCheckpoint(reseal(t, data, tc.edit))
		require.Error(t, err, tc.name)
		require.Contains(t, err.Error(), tc.want, tc.name)
	}

	// Without resealing, any edit is a checksum mismatch.
	n, md, err := safetensors.ReadMetadata(data)
	require.NoError(t, err)
	meta := maps.Clone(md.Metadata())
	meta["meta/k"] = "w"
	views := map[string]safetensors.TensorView{}
	for name, info := range md.Tensors() {
		views[name] = view(t, info.DType, info.Shape, data[8+n:][info.DataOffsets[0]:info.DataOffsets[1]])
	}
	var buf bytes.Buffer
	require.NoError(t, safetensors.SerializeToWriter(views, meta, &buf))
	_, err = UnmarshalCheckpoint(buf.Bytes())
	require.ErrorContains(t, err, "checksum mismatch")
}

// FuzzCheckpointMetadata sets one header metadata entry to arbitrary text
// and reseals the file, to reach the checks behind the checksum.
func FuzzCheckpointMetadata(f *testing.F) {
	data := tinyCheckpointBytes(f)
	base, err := UnmarshalCheckpoint(data)
	if err != nil {
		f.Fatal(err)
	}
	cj, _ := json.Marshal(base.Config)
	tj, _ := json.Marshal(base.Tokenizer)
	for _, kv := range [][2]string{
		{ckKeyConfig, string(cj)}, {ckKeyTokenizer, string(tj)}, {ckKeyPolicyAdamStep, "7"},
		{ckKeyCriticConfig, string(cj)}, {ckKeyVersion, "1"}, {"meta/x", "y"},
	} {
		f.Add(kv[0], kv[1])
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		edited := reseal(t, data, func(m map[string]string, _ map[string]safetensors.TensorView) { m[key] = value })
		c, err := UnmarshalCheckpoint(edited)
		if err != nil {
			return
		}
		again, err := MarshalCheckpoint(c)
		require.NoError(t, err)
		_, err = UnmarshalCheckpoint(again)
		require.NoError(t, err)
	})
}
