package task

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
)

// double asks for twice a random number; half credit for the number itself.
func double(r *rand.Rand) Problem {
	n := r.IntN(1000)
	ans := fmt.Sprint(2 * n)
	return Problem{
		Question: fmt.Sprintf("What is 2 * %d?", n),
		Answer:   ans,
		Score: func(a string) float64 {
			switch a {
			case ans:
				return 1
			case fmt.Sprint(n):
				return 0.5
			case "nan":
				return math.NaN()
			case "big":
				return 7
			}
			return 0
		},
		Details: func(a string) envs.Info { return envs.Info{"len": len(a)} },
	}
}

func TestStepScoresAndEnds(t *testing.T) {
	e, err := New(Config{Generate: double, FormatPenalty: DefaultFormatPenalty, Description: "d"})
	require.NoError(t, err)
	_, err = e.Step(`\boxed{1}`)
	require.ErrorIs(t, err, envs.ErrNotReset)

	obs, info, err := e.Reset(42)
	require.NoError(t, err)
	assert.Equal(t, envs.Info{envs.InfoTurn: 0, envs.InfoMaxTurns: 1}, info)
	assert.True(t, strings.HasPrefix(obs, e.Problem().Question+"\n"))
	assert.Contains(t, obs, `\boxed{}`)
	ans := e.Problem().Answer

	st, err := e.Step("work... " + envs.Boxed("0") + " no, " + envs.Boxed(ans))
	require.NoError(t, err)
	assert.Equal(t, 1.0, st.Reward)
	assert.True(t, st.Terminated)
	assert.False(t, st.Truncated)
	assert.Equal(t, true, st.Info[InfoCorrect])
	assert.Equal(t, true, st.Info[envs.InfoSuccess])
	assert.Equal(t, 1, st.Info[envs.InfoTurn])
	assert.Equal(t, len(ans), st.Info["len"])
	_, err = e.Step(envs.Boxed(ans))
	require.ErrorIs(t, err, envs.ErrNotReset, "the episode has ended")

	n := strings.TrimSuffix(strings.TrimPrefix(e.Problem().Question, "What is 2 * "), "?")
	_, _, _ = e.Reset(42)
	st, _ = e.Step(envs.Boxed(n))
	assert.Equal(t, 0.5, st.Reward)
	assert.Equal(t, false, st.Info[InfoCorrect])
	assert.Contains(t, st.Obs, ans)

	for a, want := range map[string]float64{"nan": 0, "big": 1} { // clamped to [0, 1]
		_, _, _ = e.Reset(42)
		st, _ = e.Step(envs.Boxed(a))
		assert.Equal(t, want, st.Reward, a)
	}
}

func TestFormatError(t *testing.T) {
	for _, pen := range []float64{DefaultFormatPenalty, 0, 0.5} {
		e, err := New(Config{Generate: double, FormatPenalty: pen})
		require.NoError(t, err)
		_, _, _ = e.Reset(1)
		st, err := e.Step(`the answer is 4, \boxed{4`)
		require.NoError(t, err)
		assert.Equal(t, -pen, st.Reward)
		assert.Equal(t, -pen, e.FormatErrorReward())
		assert.False(t, math.Signbit(e.FormatErrorReward()) && pen == 0, "no -0")
		assert.True(t, st.Terminated)
		assert.Equal(t, true, st.Info[envs.InfoFormatError])
		assert.Equal(t, false, st.Info[InfoCorrect])
	}
	assert.Equal(t, -0.1, envs.RewardFormatError)
	_, err := New(Config{Generate: double, FormatPenalty: 2})
	require.Error(t, err)
	_, err = New(Config{})
	require.Error(t, err)
	_, err = New(Config{Generate: double, Index: func(uint64) Problem { return Problem{} }})
	require.Error(t, err)
}

func TestReadCommon(t *testing.T) {
	o := envs.NewOptions("x", envs.With("style", "brief"), envs.With("format_penalty", 0))
	style, pen := ReadCommon(o)
	require.NoError(t, o.Err())
	assert.Equal(t, envs.StyleBrief, style)
	assert.Equal(t, 0.0, pen)

	o = envs.NewOptions("x", envs.With("format_penalty", 1.5))
	ReadCommon(o)
	require.ErrorContains(t, o.Err(), "format_penalty")
	o = envs.NewOptions("x", envs.With("style", "loud"))
	ReadCommon(o)
	require.ErrorContains(t, o.Err(), "style")
}

func TestDeterminismAndIndex(t *testing.T) {
	e, _ := New(Config{Generate: double})
	seen := map[string]bool{}
	for seed := range uint64(50) {
		a, _, _ := e.Reset(seed)
		b, _, _ := e.Reset(seed)
		require.Equal(t, a, b)
		seen[a] = true
	}
	assert.Greater(t, len(seen), 40)

	items := []string{"a", "b", "c"}
	ix, err := New(Config{Index: func(seed uint64) Problem { s := items[seed%3]; return Problem{Question: s, Answer: s} }, Style: envs.StyleBrief})
	require.NoError(t, err)
	obs, _, _ := ix.Reset(4)
	assert.Equal(t, `b. Answer in \boxed{}.`, obs)
	st, _ := ix.Step(`\boxed{ b }`) // nil Score: exact match after trimming
	assert.Equal(t, 1.0, st.Reward)
	_, ok := envs.LastBoxed(ix.SampleAction(rand.New(rand.NewPCG(1, 1))))
	assert.True(t, ok)
}

func TestReadJSONL(t *testing.T) {
	recs, err := ReadJSONL(strings.NewReader("{\"a\": 1.50, \"b\": [\"x\", 2]}\n\n  \n{\"a\": \"t\"}\n"), "f.jsonl")
	require.NoError(t, err)
	require.Len(t, recs, 2)
	assert.Equal(t, 4, recs[1].Line)
	s, err := recs[0].String("f.jsonl", "a")
	require.NoError(t, err)
	assert.Equal(t, "1.50", s, "numbers keep their written form")
	l, err := recs[0].Strings("f.jsonl", "b")
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "2"}, l)
	l, err = recs[1].Strings("f.jsonl", "a")
	require.NoError(t, err)
	assert.Equal(t, []string{"t"}, l)
	_, err = recs[1].String("f.jsonl", "b")
	assert.EqualError(t, err, `f.jsonl:4: missing field "b" (set the field-name option if the file uses another name)`)
	_, err = recs[0].String("f.jsonl", "b")
	assert.ErrorContains(t, err, `f.jsonl:1: field "b" is []interface {}`)

	for body, want := range map[string]string{
		"{\"a\": 1}\n[1, 2]\n":  "f.jsonl:2: invalid JSON",
		"{\"a\": 1} {\"a\": 2}": "f.jsonl:1: more than one JSON value",
		"":                      "f.jsonl: no records",
		"{\"a\": \"\"}":         "", // reading is fine; the empty field fails below
	} {
		_, err := ReadJSONL(strings.NewReader(body), "f.jsonl")
		if want == "" {
			require.NoError(t, err)
			continue
		}
		assert.ErrorContains(t, err, want)
	}
	_, err = ReadJSONLFile("/nonexistent/x.jsonl")
	assert.ErrorContains(t, err, "/nonexistent/x.jsonl")
}

func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{"{\"question\": \"q\", \"answer\": 3}\n", "{\n", "[]", "{\"a\": [1, {\"b\": null}]}", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		recs, err := ReadJSONL(strings.NewReader(body), "fuzz")
		if err != nil {
			return
		}
		for _, r := range recs {
			_, _ = r.String("fuzz", "question")
			_, _ = r.Strings("fuzz", "answer")
		}
	})
}

func TestAnswerTagFormat(t *testing.T) {
	e, err := New(Config{Generate: double, FormatPenalty: DefaultFormatPenalty, Format: FormatAnswerTag})
	require.NoError(t, err)
	obs, _, _ := e.Reset(3)
	assert.Contains(t, obs, "<answer></answer>")
	assert.NotContains(t, obs, `\boxed`)
	ans := e.Problem().Answer

	st, _ := e.Step("<think>...</think> <answer>0</answer> no: <answer>" + ans + "</answer>")
	assert.Equal(t, 1.0, st.Reward, "the last tag wins")
	_, _, _ = e.Reset(3)
	st, _ = e.Step("<answer>" + ans + "</answer> no: <answer>0</answer>")
	assert.Equal(t, 0.0, st.Reward, "the last tag wins")
	_, _, _ = e.Reset(3)
	st, _ = e.Step("<answer>draft <answer>" + ans + "</answer>")
	assert.Equal(t, 1.0, st.Reward, "an unclosed outer tag")

	_, _, _ = e.Reset(3)
	st, _ = e.Step(envs.Boxed(ans))
	assert.Equal(t, -0.1, st.Reward, "a box is not a tag")
	assert.Equal(t, true, st.Info[envs.InfoFormatError])
	assert.True(t, st.Terminated)
	assert.Contains(t, st.Obs, "<answer></answer>")

	_, _, _ = e.Reset(3)
	a := e.SampleAction(rand.New(rand.NewPCG(1, 2)))
	_, ok := envs.LastAnswerTag(a)
	assert.True(t, ok, "the sample %q is tagged", a)

	brief, _ := New(Config{Generate: double, Style: envs.StyleBrief, Format: FormatAnswerTag})
	obs, _, _ = brief.Reset(3)
	assert.True(t, strings.HasSuffix(obs, "Answer in <answer></answer>."), obs)

	boxed, _ := New(Config{Generate: double})
	obs, _, _ = boxed.Reset(3)
	assert.Contains(t, obs, `\boxed{}`, "boxed is the default")
	_, err = New(Config{Generate: double, Format: "xml"})
	require.ErrorContains(t, err, "answer format")

	o := envs.NewOptions("x", envs.With("answer_format", "answer_tag"))
	assert.Equal(t, FormatAnswerTag, ReadAnswerFormat(o))
	require.NoError(t, o.Err())
	o = envs.NewOptions("x")
	assert.Equal(t, FormatBoxed, ReadAnswerFormat(o))
	o = envs.NewOptions("x", envs.With("answer_format", "tags"))
	ReadAnswerFormat(o)
	require.ErrorContains(t, o.Err(), "answer_format")
}
