package policy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/nlpodyssey/safetensors"
)

// LoadCheckpoint reads a checkpoint written by SaveCheckpoint. It checks
// the format version, the checksum, the configs and the tokenizer, and that
// the file holds exactly the tensors the stored configs call for, each with
// its shape. A truncated, corrupt or mismatched file is an error that names
// the file and the problem.
//
// It reads no more than the file's header declares: the path must name a
// regular file (a FIFO or a device such as /dev/zero is refused before
// any read), the header may not exceed safetensors' 100 MB, and the file's
// size must be exactly the header's plus the tensor data it declares.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	data, err := readCheckpointFile(path)
	if err != nil {
		return nil, fmt.Errorf("load checkpoint %s: %w", path, err)
	}
	c, err := UnmarshalCheckpoint(data)
	if err != nil {
		return nil, fmt.Errorf("load checkpoint %s: %w", path, err)
	}
	return c, nil
}

// maxHeaderBytes is safetensors' own limit on the JSON header (the
// reference implementation refuses a longer one).
const maxHeaderBytes = 100_000_000

// readCheckpointFile reads a safetensors file whole, after checking that
// its size is what its header declares: a file that is not one (or a huge
// one) is refused having read at most its header.
func readCheckpointFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		what := "a special file"
		switch {
		case fi.IsDir():
			what = "a directory"
		case fi.Mode()&os.ModeNamedPipe != 0:
			what = "a named pipe (FIFO)"
		case fi.Mode()&os.ModeDevice != 0:
			what = "a device"
		}
		return nil, fmt.Errorf("%s, not a checkpoint file (a .safetensors file that train or cmd/train saved)", what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := fi.Size()
	var prefix [8]byte
	if _, err := io.ReadFull(f, prefix[:]); err != nil {
		return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): %d bytes, shorter than its 8-byte header length", size)
	}
	n := binary.LittleEndian.Uint64(prefix[:])
	if n > maxHeaderBytes || int64(n) > size-8 {
		return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): its header length %d exceeds the file's %d bytes or safetensors' %d", n, size, maxHeaderBytes)
	}
	header := make([]byte, n)
	if _, err := io.ReadFull(f, header); err != nil {
		return nil, err
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(header, &entries); err != nil {
		return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): header: %w", err)
	}
	var end uint64 // the end of the data section, as the tensors' offsets declare it
	for name, raw := range entries {
		if name == "__metadata__" {
			continue
		}
		var info struct {
			DataOffsets [2]uint64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(raw, &info); err != nil {
			return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): tensor %q: %w", name, err)
		}
		end = max(end, info.DataOffsets[1])
	}
	if want := 8 + n + end; end > uint64(size) || want != uint64(size) {
		return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): its header declares %d bytes, the file has %d", want, size)
	}
	data := make([]byte, size)
	copy(data, prefix[:])
	copy(data[8:], header)
	if _, err := io.ReadFull(f, data[8+n:]); err != nil {
		return nil, fmt.Errorf("read: %w (did the file change while it was read?)", err)
	}
	return data, nil
}

// UnmarshalCheckpoint decodes the bytes of a checkpoint file, with the
// checks of LoadCheckpoint.
func UnmarshalCheckpoint(data []byte) (*Checkpoint, error) {
	n, md, err := safetensors.ReadMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("not a valid safetensors file (truncated or corrupt?): %w", err)
	}
	meta := md.Metadata()
	if f := meta[ckKeyFormat]; f != checkpointFormat {
		return nil, fmt.Errorf("not a gemgo checkpoint: header metadata %q = %q, want %q", ckKeyFormat, f, checkpointFormat)
	}
	if v := meta[ckKeyVersion]; v != strconv.Itoa(CheckpointVersion) {
		return nil, fmt.Errorf("checkpoint format version %q: this build reads version %d only", v, CheckpointVersion)
	}

	// Tensor views, with their offsets checked against the data section.
	body := data[8+n:]
	views := map[string]safetensors.TensorView{}
	for name, info := range md.Tensors() {
		lo, hi := info.DataOffsets[0], info.DataOffsets[1]
		if lo > hi || hi > uint64(len(body)) {
			return nil, fmt.Errorf("tensor %q: data offsets [%d, %d] outside the %d data bytes", name, lo, hi, len(body))
		}
		v, err := safetensors.NewTensorView(info.DType, info.Shape, body[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		views[name] = v
	}
	if got, want := meta[ckKeyChecksum], ckptChecksum(meta, views); got != want {
		return nil, fmt.Errorf("checksum mismatch (header says %q, contents give %q): the file is corrupt", got, want)
	}

	c := &Checkpoint{Version: CheckpointVersion, Meta: map[string]string{}}
	for k, v := range meta {
		switch {
		case strings.HasPrefix(k, ckMetaPrefix):
			c.Meta[k[len(ckMetaPrefix):]] = v
		case k == ckKeyFormat || k == ckKeyVersion || k == ckKeyConfig || k == ckKeyCriticConfig || k == ckKeyTokenizer ||
			k == ckKeyPolicyAdamStep || k == ckKeyCriticAdamStep || k == ckKeyChecksum:
		default:
			return nil, fmt.Errorf("unknown header metadata key %q", k)
		}
	}
	if c.Config, err = decodeConfig(meta, ckKeyConfig); err != nil {
		return nil, err
	}
	tj, ok := meta[ckKeyTokenizer]
	if !ok {
		return nil, fmt.Errorf("header metadata has no %q", ckKeyTokenizer)
	}
	c.Tokenizer = new(Tokenizer)
	if err := c.Tokenizer.UnmarshalJSON([]byte(tj)); err != nil {
		return nil, err
	}

	// Which tensors the file must hold, and their shapes.
	used := map[string]bool{}
	r := tensorReader{views: views, used: used}
	if c.Policy, c.PolicyAdam, err = r.network(c.Config, Specs, meta, ckGroupPolicy, ckKeyPolicyAdamStep, ckGroupPolicyAdamM, ckGroupPolicyAdamV); err != nil {
		return nil, err
	}
	if _, ok := meta[ckKeyCriticConfig]; ok {
		cc, err := decodeConfig(meta, ckKeyCriticConfig)
		if err != nil {
			return nil, err
		}
		if c.Critic, c.CriticAdam, err = r.network(cc, CriticSpecs, meta, ckGroupCritic, ckKeyCriticAdamStep, ckGroupCriticAdamM, ckGroupCriticAdamV); err != nil {
			return nil, err
		}
	} else if _, ok := meta[ckKeyCriticAdamStep]; ok {
		return nil, fmt.Errorf("header has %q but no critic (%q)", ckKeyCriticAdamStep, ckKeyCriticConfig)
	}
	var extra []string
	for name := range views {
		if !used[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		hint := ""
		if c.Config.TieEmbeddings && slices.ContainsFunc(extra, func(n string) bool { return strings.HasSuffix(n, "/wout") }) {
			hint = " (the stored config has " + tiedFact + ")"
		}
		return nil, fmt.Errorf("unexpected tensors %s: the stored configs do not call for them%s", listNames(extra), hint)
	}
	// Validated again, as on save: the tokenizer must fit the models.
	if _, err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeConfig reads and validates the Config stored as JSON under key.
func decodeConfig(meta map[string]string, key string) (Config, error) {
	s, ok := meta[key]
	if !ok {
		return Config{}, fmt.Errorf("header metadata has no %q", key)
	}
	var c Config
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("header metadata %q: %w", key, err)
	}
	if dec.More() {
		return Config{}, fmt.Errorf("header metadata %q: data after the config object", key)
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("header metadata %q: %w", key, err)
	}
	return c, nil
}

// tensorReader takes the tensors of a file by name, checking their dtype
// and shape, and records which it took.
type tensorReader struct {
	views map[string]safetensors.TensorView
	used  map[string]bool
}

// network reads the weights of specs(cfg) from group and, when stepKey is in
// meta, the Adam moments from groups adamM and adamV.
func (r tensorReader) network(cfg Config, specs func(Config) []ParamSpec, meta map[string]string,
	group, stepKey, adamM, adamV string) (*Weights, *AdamState, error) {
	w := &Weights{Config: cfg}
	ss := specs(cfg)
	for _, s := range ss {
		d, err := r.take(group, s)
		if err != nil {
			return nil, nil, err
		}
		w.Params = append(w.Params, &Param{Name: s.Name, Shape: slices.Clone(s.Shape), Data: d})
	}
	step, ok := meta[stepKey]
	if !ok {
		return w, nil, nil
	}
	a := &AdamState{}
	var err error
	if a.Step, err = strconv.Atoi(step); err != nil || a.Step < 0 {
		return nil, nil, fmt.Errorf("header metadata %q = %q: want a whole number >= 0", stepKey, step)
	}
	for _, s := range ss {
		m, err := r.take(adamM, s)
		if err != nil {
			return nil, nil, err
		}
		v, err := r.take(adamV, s)
		if err != nil {
			return nil, nil, err
		}
		a.M, a.V = append(a.M, m), append(a.V, v)
	}
	return w, a, nil
}

// take returns the data of tensor group/s.Name, which must be F32 of shape
// s.Shape.
func (r tensorReader) take(group string, s ParamSpec) ([]float32, error) {
	name := group + "/" + s.Name
	v, ok := r.views[name]
	if !ok {
		hint := ""
		if s.Name == paramWOut {
			hint = " (the stored config has " + untiedFact + ")"
		}
		return nil, fmt.Errorf("missing tensor %q (shape %v) that the stored config calls for%s", name, s.Shape, hint)
	}
	r.used[name] = true
	if v.DType() != safetensors.F32 {
		return nil, fmt.Errorf("tensor %q has dtype %s, want F32", name, v.DType())
	}
	shape := v.Shape()
	ok = len(shape) == len(s.Shape)
	for i := 0; ok && i < len(shape); i++ {
		ok = shape[i] == uint64(s.Shape[i])
	}
	if !ok {
		return nil, fmt.Errorf("tensor %q has shape %v, the stored config wants %v", name, shape, s.Shape)
	}
	b := v.Data()
	if len(b) != 4*ckptNumel(s.Shape) {
		return nil, fmt.Errorf("tensor %q: %d data bytes, want %d", name, len(b), 4*ckptNumel(s.Shape))
	}
	d := make([]float32, len(b)/4)
	for i := range d {
		d[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return d, nil
}

// listNames quotes up to five names, then says how many more there are.
func listNames(names []string) string {
	var q []string
	for i, n := range names {
		if i == 5 {
			q = append(q, fmt.Sprintf("and %d more", len(names)-5))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}
