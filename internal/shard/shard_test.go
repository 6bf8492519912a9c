package shard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		flag  string
		count int
		env   map[string]string
		want  Shard
	}{
		{"", 0, nil, Shard{}},
		{"2/4", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, Shard{2, 4}},
		{"", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, Shard{1, 3}},
		{"", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "8"}, Shard{1, 4}},
		{"", 5, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2"}, Shard{2, 5}},
		// a resubmitted --array=3 of 4: -shards keeps the id the index
		{"", 4, map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"}, Shard{3, 4}},
		{"", 4, map[string]string{"JOB_COMPLETION_INDEX": "3"}, Shard{3, 4}},
		{"", 0, map[string]string{"JOB_COMPLETION_INDEX": "0", EnvCount: "2"}, Shard{0, 2}},
	} {
		got, err := Resolve(tc.flag, tc.count, env(tc.env))
		require.NoError(t, err, "%+v", tc)
		assert.Equal(t, tc.want, got, "%+v", tc)
	}
	for _, tc := range []struct {
		flag  string
		count int
		env   map[string]string
		want  string
	}{
		{"4/4", 0, nil, "index must be in 0..3 (0-based)"},
		{"1-4", 0, nil, "want i/n"},
		{"0/0", 0, nil, "at least 1"},
		{"", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, "give -shard i/n"},
		{"", 0, map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, `SLURM_ARRAY_TASK_ID="x" is not a number`},
		{"", 0, map[string]string{"JOB_COMPLETION_INDEX": "1"}, "give -shards N"},
		{"", 2, map[string]string{"JOB_COMPLETION_INDEX": "2"}, "index must be in 0..1"},
		{"", 3, nil, "without an index"},
	} {
		_, err := Resolve(tc.flag, tc.count, env(tc.env))
		require.Error(t, err, "%+v", tc)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestMineAndArrayList(t *testing.T) {
	s := Shard{1, 3}
	var got []int
	for j := range 8 {
		if s.Mine(j) {
			got = append(got, j)
		}
	}
	assert.Equal(t, []int{1, 4, 7}, got)
	assert.True(t, Shard{}.Mine(5), "off: every item")
	assert.Equal(t, "0,2-4,7", ArrayList([]int{0, 2, 3, 4, 7}))
	assert.Equal(t, "1-of-3", s.Name())
}

func TestCommand(t *testing.T) {
	args := []string{"-policy", "random", "-shard", "1/4", "-merge", "-shards=4", "-out", "my dir", "-emit", "slurm", "-emit-mem=2G", "-emit-cpus", "3"}
	assert.Equal(t, "eval -policy random -out 'my dir' -shard 2/4", Command("eval", args, Shard{2, 4}))
	assert.Equal(t, "eval -policy random -out 'my dir' -merge", MergeCommand("eval", args))
}
