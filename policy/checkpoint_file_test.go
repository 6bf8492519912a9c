package policy_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/policy"
)

// LoadCheckpoint reads no more than a safetensors header declares: a FIFO
// (which would block the open until a writer came), a device (/dev/zero
// reads forever), a directory, a header length past the file or past
// safetensors' limit, and a file larger or smaller than its header
// declares are refused, each naming the file.
func TestLoadCheckpointReadsOnlyWhatTheHeaderDeclares(t *testing.T) {
	good, err := policy.MarshalCheckpoint(testCheckpoint(t, 3, false, false))
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	// A sparse file of 64 GiB that starts like a safetensors file with an
	// empty header: reading it whole (as os.ReadFile did) would need 64
	// GiB of memory.
	sparse := write("sparse.safetensors", []byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	require.NoError(t, os.Truncate(sparse, 64<<30))
	var long [8]byte
	binary.LittleEndian.PutUint64(long[:], 200_000_000)
	longHeader := write("long.safetensors", append(long[:], "{}"...))

	cases := []struct {
		name, path string
		want       string
	}{
		{"fifo", fifo, "a named pipe (FIFO), not a checkpoint file"},
		{"device", "/dev/zero", "a device, not a checkpoint file"},
		{"directory", dir, "a directory, not a checkpoint file"},
		{"empty", write("empty.safetensors", nil), "0 bytes, shorter than its 8-byte header length"},
		{"header past the file", write("cut.safetensors", good[:100]), "header length"},
		{"header past the limit", longHeader, "safetensors' 100000000"},
		{"sparse", sparse, "its header declares 10 bytes, the file has 68719476736"},
		{"trailing bytes", write("extra.safetensors", append(append([]byte{}, good...), 0)), "the file has"},
		{"missing data", write("short.safetensors", good[:len(good)-1]), "the file has"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := policy.LoadCheckpoint(c.path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.path)
			assert.Contains(t, err.Error(), c.want)
			// The failure mode is a read that never ends (FIFO, device) or
			// one of 64 GiB; a refusal takes milliseconds.
			assert.Less(t, time.Since(start), 5*time.Second)
		})
	}
	ck, err := policy.LoadCheckpoint(write("good.safetensors", good))
	require.NoError(t, err)
	assert.Equal(t, 1, ck.Policy.Config.Layers, "the checks keep a good file")
}
