package train

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/envtest"
	"github.com/gemgo/gemgo/policy"
)

func TestTokenStats(t *testing.T) {
	s := tokenStats([]int{9, 1, 5, 3, 7, 2, 8, 4, 6, 10}, 7)
	assert.Equal(t, TokenStats{N: 10, P50: 6, P95: 10, Max: 10, Over: 0.3}, s)
	assert.Equal(t, TokenStats{}, tokenStats(nil, 3))
}

// trainedOnToy1 trains the tiny config for one iteration on a one-turn
// Toy registered as test:toy1 and returns the registry, the config and the
// final checkpoint.
func trainedOnToy1(t *testing.T) (*envs.Registry, Config, *policy.Checkpoint) {
	t.Helper()
	reg := envs.NewRegistry()
	require.NoError(t, reg.Register("test:toy1", func(o *envs.Options) (envs.Env, error) { return envtest.NewToy(1), nil }))
	cfg := tinyConfig("rebn")
	cfg.Env.ID = "test:toy1"
	cfg.Env.Options = nil
	cfg.Iterations = 1
	dir := t.TempDir()
	_, err := Run(context.Background(), cfg, reg, Options{Dir: dir})
	require.NoError(t, err)
	ck, err := policy.LoadCheckpoint(filepath.Join(dir, FinalFile))
	require.NoError(t, err)
	return reg, cfg, ck
}

// Diagnose measures what it says: on a one-turn Toy, whose every seed
// shows the same prompt, the greedy policy opens every seed alike; a room
// smaller than the prompt cuts every prompt, and an answer budget of one
// token leaves every answer unfinished, which the env sees as the empty
// action (require_eos), a format error.
func TestDiagnose(t *testing.T) {
	reg, cfg, ck := trainedOnToy1(t)
	d, err := Diagnose(context.Background(), cfg, reg, ck, 30)
	require.NoError(t, err)
	assert.Equal(t, 30, d.Seeds)
	assert.Equal(t, cfg.Model.Context-cfg.Sample.MaxNewTokens, d.Room)
	assert.Equal(t, 30, d.RandomPrompts.N, "one turn a seed")
	assert.Equal(t, d.RandomPrompts.P50, d.RandomPrompts.Max, "one prompt for every seed")
	assert.Zero(t, d.RandomPrompts.Over)
	assert.Zero(t, d.Greedy.PromptsCut)
	require.Len(t, d.Greedy.Openings, 1, "greedy play answers one prompt one way")
	assert.Equal(t, 30, d.Greedy.Openings[0].N)
	assert.Equal(t, 1.0, d.Greedy.Turns)
	assert.Zero(t, d.Greedy.Repeats, "one turn cannot repeat")
	var b bytes.Buffer
	d.Write(&b)
	assert.Contains(t, b.String(), "env test:toy1, 30 held-out seeds")

	tight := cfg
	tight.Sample.MaxNewTokens = cfg.Model.Context - 2 // room 2: BOS and one more
	tight.Sample.RequireEOS = true
	d, err = Diagnose(context.Background(), tight, reg, ck, 10)
	require.NoError(t, err)
	assert.Equal(t, 1.0, d.RandomPrompts.Over)
	assert.Equal(t, 1.0, d.Greedy.PromptsCut)

	short := cfg
	short.Sample.MaxNewTokens = 1
	short.Sample.RequireEOS = true
	d, err = Diagnose(context.Background(), short, reg, ck, 10)
	require.NoError(t, err)
	assert.Equal(t, 1.0, d.RandomAnswers.Over, "\\boxed{d} and EOS take more than one token")
	for _, p := range []PlayStats{d.Greedy, d.Sampled} {
		assert.Equal(t, 1.0, p.Unfinished)
		assert.Equal(t, 1.0, p.FormatErrors)
		assert.Zero(t, p.Success)
	}

	_, err = Diagnose(context.Background(), cfg, reg, ck, 0)
	assert.ErrorContains(t, err, "allowed [1,")
	other := cfg
	other.Model.DModel *= 2
	_, err = Diagnose(context.Background(), other, reg, ck, 5)
	assert.ErrorContains(t, err, "model differs")
}

// growing ends an episode at once on random play's action (a run of 20
// '!', longer than any answer the policy may write) and otherwise lasts 3
// turns, each observation 30 tokens longer than the one before: random
// play's longest turn is its first, and the policy's turns 2 and 3 pass it.
type growing struct{ turn int }

const growingAction = "!!!!!!!!!!!!!!!!!!!!"

func (g *growing) Reset(uint64) (string, envs.Info, error) {
	g.turn = 0
	return "go", envs.Info{envs.InfoMaxTurns: 3}, nil
}

func (g *growing) Step(action string) (envs.Step, error) {
	g.turn++
	info := envs.Info{}
	if action == growingAction {
		info[envs.InfoSuccess] = true
		return envs.Step{Obs: "done", Reward: 1, Terminated: true, Info: info}, nil
	}
	st := envs.Step{Obs: "go" + strings.Repeat(" #", 15*g.turn), Info: info}
	if g.turn == 3 {
		info[envs.InfoSuccess] = false
		st.Truncated = true
	}
	return st, nil
}

func (g *growing) SampleAction(*rand.Rand) string { return growingAction }

// Diagnose counts the turns whose prompt and answer pass random play's
// longest turn: on growing, random play's one turn is BOS, "go", SEP and
// 20 '!' with EOS; the policy's first turn (an answer of at most
// sample.max_new_tokens = 8) stays under it and its next two pass it.
func TestDiagnosePastRandom(t *testing.T) {
	reg, cfg, ck := trainedOnToy1(t)
	require.NoError(t, reg.Register("test:growing", func(o *envs.Options) (envs.Env, error) { return &growing{}, nil }))
	cfg.Env.ID = "test:growing"
	require.Equal(t, 8, cfg.Sample.MaxNewTokens)
	d, err := Diagnose(context.Background(), cfg, reg, ck, 5)
	require.NoError(t, err)
	want := len(ck.Tokenizer.EncodePrompt("go")) + len(ck.Tokenizer.EncodeResponse(growingAction))
	assert.Equal(t, want, d.RandomLongest)
	for _, p := range []PlayStats{d.Greedy, d.Sampled} {
		assert.Equal(t, 3.0, p.Turns)
		assert.InDelta(t, 2.0/3, p.PastRandom, 1e-12)
	}
	var b bytes.Buffer
	d.Write(&b)
	assert.Contains(t, b.String(), fmt.Sprintf("greedy: 66.7%% of turns pass random play's longest turn (%d tokens", want))
}

// refusing calls every move invalid and lasts 3 turns.
type refusing struct{ turn int }

func (r *refusing) Reset(uint64) (string, envs.Info, error) {
	r.turn = 0
	return "go", envs.Info{envs.InfoMaxTurns: 3}, nil
}

func (r *refusing) Step(string) (envs.Step, error) {
	r.turn++
	info := envs.Info{envs.InfoInvalid: true}
	st := envs.Step{Obs: "Invalid.", Info: info}
	if r.turn == 3 {
		info[envs.InfoSuccess] = false
		st.Truncated = true
	}
	return st, nil
}

func (r *refusing) SampleAction(*rand.Rand) string { return "x" }

// Diagnose counts the turns after an invalid move and the unfinished
// answers among them: on refusing, turns 2 and 3 of every episode follow
// one, and with an answer budget of one token every answer is unfinished.
func TestDiagnoseAfterInvalid(t *testing.T) {
	reg, toy, ck := trainedOnToy1(t)
	require.NoError(t, reg.Register("test:refusing", func(o *envs.Options) (envs.Env, error) { return &refusing{}, nil }))
	cfg := toy
	cfg.Env.ID = "test:refusing"
	cfg.Sample.MaxNewTokens = 1
	cfg.Sample.RequireEOS = true
	d, err := Diagnose(context.Background(), cfg, reg, ck, 4)
	require.NoError(t, err)
	for _, p := range []PlayStats{d.Greedy, d.Sampled} {
		assert.Equal(t, 3.0, p.Turns)
		assert.InDelta(t, 2.0/3, p.AfterInvalid, 1e-12)
		assert.Equal(t, 1.0, p.UnfinishedAfterInvalid)
	}
	var b bytes.Buffer
	d.Write(&b)
	assert.Contains(t, b.String(), "greedy: 66.7% of turns follow an invalid move, 100.0% of them unfinished answers")

	d, err = Diagnose(context.Background(), toy, reg, ck, 4)
	require.NoError(t, err)
	assert.Zero(t, d.Greedy.AfterInvalid, "the one-turn Toy has no turn after a move")
	assert.Zero(t, d.Greedy.UnfinishedAfterInvalid)
}

// DiagnoseEach plays every entry of a mixture, each exactly as Diagnose
// plays a run of that entry alone; a run of one env gets one diagnosis,
// Diagnose's, under its id.
func TestDiagnoseEachMixEntry(t *testing.T) {
	cfg := mixConfig(t)
	cfg.Iterations = 1
	dir := t.TempDir()
	_, err := Run(context.Background(), cfg, builtin.Registry(), Options{Dir: dir})
	require.NoError(t, err)
	ck, err := policy.LoadCheckpoint(filepath.Join(dir, FinalFile))
	require.NoError(t, err)
	ds, err := DiagnoseEach(context.Background(), cfg, builtin.Registry(), ck, 6)
	require.NoError(t, err)
	require.Len(t, ds, 2)
	for i, m := range cfg.Env.Mix {
		alone := cfg
		alone.Env.Mix, alone.Env.ID, alone.Env.Options = nil, m.ID, m.Options
		want, err := Diagnose(context.Background(), alone, builtin.Registry(), ck, 6)
		require.NoError(t, err)
		assert.Equal(t, []string{"guess", "rg:count_bits"}[i], ds[i].Name)
		assert.Equal(t, m.ID, ds[i].Env)
		assert.Equal(t, want, ds[i].Diagnosis, "entry %d as a run of it alone", i)
	}
	assert.NotEqual(t, ds[0].RandomPrompts, ds[1].RandomPrompts, "two envs, two prompts")

	alone := cfg
	alone.Env.Mix, alone.Env.ID, alone.Env.Options = nil, cfg.Env.Mix[1].ID, cfg.Env.Mix[1].Options
	one, err := DiagnoseEach(context.Background(), alone, builtin.Registry(), ck, 6)
	require.NoError(t, err)
	require.Len(t, one, 1)
	assert.Equal(t, NamedDiagnosis{Name: "rg:count_bits", Diagnosis: ds[1].Diagnosis}, one[0])
}
