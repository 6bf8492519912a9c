package policy_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

// testCheckpoint builds a tiny checkpoint with random weights; critic and
// adam add a critic and Adam states.
func testCheckpoint(t testing.TB, seed uint64, critic, adam bool) *policy.Checkpoint {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	tok := policy.BuildTokenizer(briefCorpus, 20)
	cfg := policy.Config{Vocab: tok.VocabSize(), Context: 8, Layers: 1, DModel: 4, Heads: 2}
	w, err := policy.NewWeights(cfg, rng)
	require.NoError(t, err)
	c := &policy.Checkpoint{Config: cfg, Policy: w, Tokenizer: tok,
		Meta: map[string]string{"iteration": "12", "run": `{"lr":0.003}`, "": "empty key", "rng": "\x00\u00ff"}}
	randAdam := func(w *policy.Weights) *policy.AdamState {
		a := &policy.AdamState{Step: 1 + rng.IntN(1000)}
		for _, p := range w.Params {
			m, v := make([]float32, p.Size()), make([]float32, p.Size())
			for i := range m {
				m[i], v[i] = float32(rng.NormFloat64()), float32(rng.ExpFloat64())
			}
			a.M, a.V = append(a.M, m), append(a.V, v)
		}
		return a
	}
	if adam {
		c.PolicyAdam = randAdam(w)
	}
	if critic {
		ccfg := cfg
		ccfg.DModel, ccfg.Layers = 6, 2
		c.Critic, err = policy.NewCriticWeights(ccfg, rng)
		require.NoError(t, err)
		if adam {
			c.CriticAdam = randAdam(c.Critic)
		}
	}
	return c
}

// requireSameCheckpoint compares every float bit for bit, the tokenizers
// and the metadata.
func requireSameCheckpoint(t *testing.T, want, got *policy.Checkpoint) {
	t.Helper()
	require.Equal(t, policy.CheckpointVersion, got.Version)
	require.Equal(t, want.Policy.Config, got.Config)
	sameWeights := func(a, b *policy.Weights) {
		if a == nil {
			require.Nil(t, b)
			return
		}
		require.Equal(t, a.Config, b.Config)
		require.Len(t, b.Params, len(a.Params))
		for i, p := range a.Params {
			q := b.Params[i]
			require.Equal(t, p.Name, q.Name)
			require.Equal(t, p.Shape, q.Shape)
			requireSameBits(t, p.Data, q.Data, p.Name)
		}
	}
	sameAdam := func(a, b *policy.AdamState) {
		if a == nil {
			require.Nil(t, b)
			return
		}
		require.Equal(t, a.Step, b.Step)
		require.Len(t, b.M, len(a.M))
		for i := range a.M {
			requireSameBits(t, a.M[i], b.M[i], "adam m")
			requireSameBits(t, a.V[i], b.V[i], "adam v")
		}
	}
	sameWeights(want.Policy, got.Policy)
	sameWeights(want.Critic, got.Critic)
	sameAdam(want.PolicyAdam, got.PolicyAdam)
	sameAdam(want.CriticAdam, got.CriticAdam)
	tw, err := json.Marshal(want.Tokenizer)
	require.NoError(t, err)
	tg, err := json.Marshal(got.Tokenizer)
	require.NoError(t, err)
	require.Equal(t, string(tw), string(tg))
	if len(want.Meta) == 0 {
		require.Empty(t, got.Meta)
	} else {
		require.Equal(t, want.Meta, got.Meta)
	}
}

func requireSameBits(t *testing.T, a, b []float32, what string) {
	t.Helper()
	require.Len(t, b, len(a), what)
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("%s[%d]: saved %v, loaded %v", what, i, a[i], b[i])
		}
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ critic, adam bool }{{false, false}, {false, true}, {true, false}, {true, true}} {
		c := testCheckpoint(t, 1, tc.critic, tc.adam)
		// Values a float text format would lose.
		d := c.Policy.Params[0].Data
		d[0], d[1], d[2], d[3] = float32(math.Copysign(0, -1)), float32(math.Inf(1)), math.Float32frombits(0x7fc00123), math.SmallestNonzeroFloat32
		path := filepath.Join(dir, "ckpt.safetensors")
		require.NoError(t, policy.SaveCheckpoint(path, c))
		got, err := policy.LoadCheckpoint(path)
		require.NoError(t, err, "critic=%v adam=%v", tc.critic, tc.adam)
		requireSameCheckpoint(t, c, got)

		// Saving what was loaded gives the same bytes.
		b1, err := os.ReadFile(path)
		require.NoError(t, err)
		b2, err := policy.MarshalCheckpoint(got)
		require.NoError(t, err)
		require.Equal(t, b1, b2)
	}
	// No temporary files are left behind.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

// TestCheckpointIsSafetensors parses the file by the safetensors spec,
// without the library: u64 header size, JSON header, contiguous F32 data.
func TestCheckpointIsSafetensors(t *testing.T) {
	c := testCheckpoint(t, 2, true, true)
	data, err := policy.MarshalCheckpoint(c)
	require.NoError(t, err)
	require.Greater(t, len(data), 8)
	n := binary.LittleEndian.Uint64(data[:8])
	require.LessOrEqual(t, 8+n, uint64(len(data)))
	header := data[8 : 8+n]
	require.Equal(t, byte('{'), header[0])
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(header, &raw))
	var meta map[string]string
	require.NoError(t, json.Unmarshal(raw["__metadata__"], &meta))
	assert.Equal(t, "gemgo-checkpoint", meta["format"])
	assert.Equal(t, "1", meta["format_version"])
	assert.Equal(t, "12", meta["meta/iteration"])
	assert.Regexp(t, `^crc32c:[0-9a-f]{8}$`, meta["checksum"])
	var cfg policy.Config
	require.NoError(t, json.Unmarshal([]byte(meta["config"]), &cfg))
	assert.Equal(t, c.Policy.Config, cfg)

	type info struct {
		DType   string   `json:"dtype"`
		Shape   []int    `json:"shape"`
		Offsets [2]int64 `json:"data_offsets"`
	}
	body := data[8+n:]
	var spans [][2]int64
	byName := map[string]*policy.Param{}
	for _, g := range []struct {
		group string
		w     *policy.Weights
	}{{"policy", c.Policy}, {"critic", c.Critic}} {
		for _, p := range g.w.Params {
			byName[g.group+"/"+p.Name] = p
		}
	}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti info
		require.NoError(t, json.Unmarshal(msg, &ti), name)
		require.Equal(t, "F32", ti.DType, name)
		numel := int64(1)
		for _, k := range ti.Shape {
			numel *= int64(k)
		}
		require.Equal(t, 4*numel, ti.Offsets[1]-ti.Offsets[0], name)
		spans = append(spans, ti.Offsets)
		if p := byName[name]; p != nil {
			require.Equal(t, p.Shape, ti.Shape, name)
			for i, x := range p.Data {
				bits := binary.LittleEndian.Uint32(body[ti.Offsets[0]+4*int64(i):])
				require.Equal(t, math.Float32bits(x), bits, "%s[%d]", name, i)
			}
			delete(byName, name)
		}
	}
	require.Empty(t, byName, "tensors missing from the file")
	want := 2 * (len(c.Policy.Params) + len(c.Critic.Params)) // weights + m + v each
	require.Len(t, spans, want+len(c.Policy.Params)+len(c.Critic.Params))
	// The tensors tile the data section exactly.
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	end := int64(0)
	for _, s := range spans {
		require.Equal(t, end, s[0])
		end = s[1]
	}
	require.Equal(t, int64(len(body)), end)
}

func TestCheckpointOptionalPartsStayNil(t *testing.T) {
	c := testCheckpoint(t, 3, false, false)
	c.Meta = nil
	c.Config = policy.Config{} // zero means the policy's config
	data, err := policy.MarshalCheckpoint(c)
	require.NoError(t, err)
	got, err := policy.UnmarshalCheckpoint(data)
	require.NoError(t, err)
	assert.Nil(t, got.Critic)
	assert.Nil(t, got.PolicyAdam)
	assert.Nil(t, got.CriticAdam)
	assert.NotNil(t, got.Meta)
	assert.Empty(t, got.Meta)
	assert.Equal(t, c.Policy.Config, got.Config)
}

func TestCheckpointTruncated(t *testing.T) {
	c := testCheckpoint(t, 4, true, true)
	data, err := policy.MarshalCheckpoint(c)
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "cut.safetensors")
	headerEnd := 8 + int(binary.LittleEndian.Uint64(data[:8]))
	for cut := 0; cut < len(data); cut++ {
		// Every cut near the header's ends, a sample of the rest.
		near := cut < 16 || (cut > headerEnd-16 && cut < headerEnd+16) || cut > len(data)-16
		if !near && ((cut < headerEnd && cut%41 != 0) || (cut >= headerEnd && cut%1009 != 0)) {
			continue
		}
		require.NoError(t, os.WriteFile(path, data[:cut], 0o644))
		_, err := policy.LoadCheckpoint(path)
		require.Error(t, err, "truncated at %d of %d bytes", cut, len(data))
		require.Contains(t, err.Error(), path)
		require.Contains(t, err.Error(), "not a valid safetensors file")
	}
	_, err = policy.LoadCheckpoint(filepath.Join(dir, "missing.safetensors"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestCheckpointFlippedBytes(t *testing.T) {
	// Every byte of the header (policy only, to keep it short), every 13th
	// of the data.
	c := testCheckpoint(t, 5, false, false)
	data, err := policy.MarshalCheckpoint(c)
	require.NoError(t, err)
	headerEnd := 8 + int(binary.LittleEndian.Uint64(data[:8]))
	bad := slices.Clone(data)
	checked := 0
	for i := range data {
		if i >= headerEnd && (i-headerEnd)%13 != 0 {
			continue
		}
		bad[i] ^= 0x01
		_, err := policy.UnmarshalCheckpoint(bad)
		bad[i] = data[i]
		require.Error(t, err, "flipped byte %d (%q) of %d, header ends at %d", i, data[i], len(data), headerEnd)
		if i >= headerEnd {
			require.Contains(t, err.Error(), "checksum mismatch")
		}
		checked++
	}
	require.Greater(t, checked, headerEnd)
	_, err = policy.UnmarshalCheckpoint(bad)
	require.NoError(t, err) // the original is intact
}

func TestSaveCheckpointInvalid(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.safetensors")
	for _, tc := range []struct {
		name string
		edit func(c *policy.Checkpoint)
		want string
	}{
		{"no policy", func(c *policy.Checkpoint) { c.Policy = nil }, "no policy weights"},
		{"no tokenizer", func(c *policy.Checkpoint) { c.Tokenizer = nil }, "no tokenizer"},
		{"config differs", func(c *policy.Checkpoint) { c.Config.Context++ }, "differs from the policy weights"},
		{"vocab", func(c *policy.Checkpoint) { c.Tokenizer = policy.BuildTokenizer(briefCorpus, 3) }, "tokenizer has 263"},
		{"param missing", func(c *policy.Checkpoint) { c.Policy.Params = c.Policy.Params[1:] }, "parameters, the config wants"},
		{"param short", func(c *policy.Checkpoint) { c.Policy.Params[2].Data = c.Policy.Params[2].Data[1:] }, "parameter 2 is not h0.ln1.g"},
		{"param renamed", func(c *policy.Checkpoint) { c.Policy.Params[0].Name = "emb" }, "parameter 0 is not tok_emb"},
		{"nil param", func(c *policy.Checkpoint) { c.Policy.Params[1] = nil }, "parameter 1 is not pos_emb"},
		{"adam short", func(c *policy.Checkpoint) { c.PolicyAdam.M = c.PolicyAdam.M[1:] }, "first and"},
		{"adam size", func(c *policy.Checkpoint) { c.CriticAdam.V[0] = nil }, "critic Adam state of tok_emb"},
		{"adam step", func(c *policy.Checkpoint) { c.PolicyAdam.Step = -1 }, "negative"},
		{"critic adam alone", func(c *policy.Checkpoint) { c.Critic = nil }, "no critic weights"},
		{"bad critic config", func(c *policy.Checkpoint) { c.Critic.Config.Heads = 4 }, "critic: model.heads"},
		{"binary meta", func(c *policy.Checkpoint) { c.Meta["rng"] = "\xff" }, "not valid UTF-8"},
	} {
		c := testCheckpoint(t, 6, true, true)
		tc.edit(c)
		err := policy.SaveCheckpoint(path, c)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		assert.Contains(t, err.Error(), path, tc.name)
		_, statErr := os.Stat(path)
		assert.ErrorIs(t, statErr, os.ErrNotExist, tc.name)
	}
	require.Error(t, policy.SaveCheckpoint(path, nil))
}

func TestSaveCheckpointNeverDamagesExisting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ckpt.safetensors")
	good := testCheckpoint(t, 7, true, true)
	require.NoError(t, policy.SaveCheckpoint(path, good))
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	// An invalid checkpoint fails before anything is written.
	bad := testCheckpoint(t, 8, false, false)
	bad.Tokenizer = nil
	require.Error(t, policy.SaveCheckpoint(path, bad))
	// A failed rename (the target is a non-empty directory) leaves no
	// temporary file behind.
	blocked := filepath.Join(dir, "blocked")
	require.NoError(t, os.MkdirAll(filepath.Join(blocked, "x"), 0o755))
	require.Error(t, policy.SaveCheckpoint(blocked, good))
	// A directory that does not exist.
	require.Error(t, policy.SaveCheckpoint(filepath.Join(dir, "no", "such", "dir", "c"), good))

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"blocked", "ckpt.safetensors"}, names)

	// Overwriting with a new checkpoint replaces it whole.
	next := testCheckpoint(t, 9, false, true)
	require.NoError(t, policy.SaveCheckpoint(path, next))
	got, err := policy.LoadCheckpoint(path)
	require.NoError(t, err)
	requireSameCheckpoint(t, next, got)
}

func FuzzLoadCheckpoint(f *testing.F) {
	c := testCheckpoint(f, 10, false, false)
	data, err := policy.MarshalCheckpoint(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add(data[:8])
	f.Add([]byte{})
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := policy.UnmarshalCheckpoint(data)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty error message")
			}
			return
		}
		// Whatever loads saves and loads back the same.
		again, err := policy.MarshalCheckpoint(c)
		require.NoError(t, err)
		back, err := policy.UnmarshalCheckpoint(again)
		require.NoError(t, err)
		requireSameCheckpoint(t, c, back)
	})
}
