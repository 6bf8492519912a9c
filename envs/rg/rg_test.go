package rg_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/rg"
	"github.com/gemgo/gemgo/envs/task"
)

func registry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	require.NoError(t, rg.Register(r))
	return r
}

func makeEnv(t *testing.T, r *envs.Registry, id string, opts ...envs.Option) *task.Env {
	t.Helper()
	e, err := r.Make(id, opts...)
	require.NoError(t, err, id)
	te, ok := e.(*task.Env)
	require.True(t, ok)
	return te
}

func TestAtLeastTwentyTasks(t *testing.T) {
	ids := registry(t).IDs()
	assert.GreaterOrEqual(t, len(ids), 20)
	assert.Equal(t, len(rg.IDs()), len(ids))
}

// Over many seeds, for every task: the reference answer scores 1, the same
// answer with a digit appended scores less than 1, an empty box scores 0,
// a sampled action parses and scores in [0, 1], and the same seed gives the
// same problem.
func TestEveryTaskScoresItsOwnAnswer(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			e := makeEnv(t, r, id)
			questions := map[string]bool{}
			rng := rand.New(rand.NewPCG(1, 2))
			for seed := range uint64(200) {
				obs, info, err := e.Reset(seed)
				require.NoError(t, err)
				require.Equal(t, 1, info[envs.InfoMaxTurns])
				p := e.Problem()
				questions[p.Question] = true
				require.Contains(t, obs, p.Question)
				st, err := e.Step(envs.Boxed(p.Answer))
				require.NoError(t, err)
				require.Equal(t, 1.0, st.Reward, "seed %d: %s -> %q", seed, p.Question, p.Answer)
				require.Equal(t, true, st.Info[task.InfoCorrect])
				require.True(t, st.Terminated)

				_, _, _ = e.Reset(seed)
				require.Equal(t, p.Question, e.Problem().Question, "seed %d not deterministic", seed)
				st, _ = e.Step(envs.Boxed(p.Answer + "1"))
				require.Less(t, st.Reward, 1.0, "seed %d: perturbed %q of %q", seed, p.Answer+"1", p.Question)
				require.Equal(t, false, st.Info[task.InfoCorrect])

				_, _, _ = e.Reset(seed)
				st, _ = e.Step(`\boxed{}`)
				require.Equal(t, 0.0, st.Reward)

				_, _, _ = e.Reset(seed)
				a := e.SampleAction(rng)
				_, ok := envs.LastBoxed(a)
				require.True(t, ok, a)
				st, _ = e.Step(a)
				require.GreaterOrEqual(t, st.Reward, 0.0)
				require.LessOrEqual(t, st.Reward, 1.0)
				require.NotEqual(t, true, st.Info[envs.InfoFormatError])
			}
			assert.Greater(t, len(questions), 20, "too little variety over 200 seeds")
		})
	}
}

// A few tasks re-derive the answer from the question text alone.
func TestAnswersFromQuestionText(t *testing.T) {
	r := registry(t)
	check := func(id string, re string, answer func(m []string) string) {
		e := makeEnv(t, r, id)
		rx := regexp.MustCompile(re)
		for seed := range uint64(50) {
			_, _, _ = e.Reset(seed)
			p := e.Problem()
			m := rx.FindStringSubmatch(p.Question)
			require.NotNil(t, m, "%s: %q", id, p.Question)
			assert.Equal(t, answer(m), p.Answer, "%s: %q", id, p.Question)
		}
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	check("rg:products", `^What is (\d+) \* (\d+)\?$`, func(m []string) string {
		return fmt.Sprint(atoi(m[1]) * atoi(m[2]))
	})
	check("rg:digit_sum", `of (\d+)\?$`, func(m []string) string {
		s := 0
		for _, c := range m[1] {
			s += int(c - '0')
		}
		return fmt.Sprint(s)
	})
	check("rg:count_bits", `of (\d+)\?$`, func(m []string) string {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		return fmt.Sprint(strings.Count(strconv.FormatUint(n, 2), "1"))
	})
	check("rg:modular_arithmetic", `^What is (\d+) mod (\d+)\?$`, func(m []string) string {
		return fmt.Sprint(atoi(m[1]) % atoi(m[2]))
	})
	check("rg:spell_backward", `^Spell the word "(\w+)" backward\.$`, func(m []string) string {
		b := []rune(m[1])
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	})
}

func TestOptions(t *testing.T) {
	r := registry(t)
	_, err := r.Make("rg:products", envs.With("digits", 9))
	require.ErrorContains(t, err, "digits")
	require.ErrorContains(t, err, "[1, 6]")
	_, err = r.Make("rg:products", envs.With("nope", 1))
	require.ErrorContains(t, err, "unknown option nope")
	_, err = r.Make("rg:set_intersection", envs.With("count", 15), envs.With("max_value", 20))
	require.ErrorContains(t, err, "max_value")

	e := makeEnv(t, r, "rg:products", envs.With("digits", 3), envs.With("style", "brief"), envs.With("format_penalty", 0.0))
	obs, _, err := e.Reset(3)
	require.NoError(t, err)
	assert.Regexp(t, `^What is \d{3} \* \d{3}\? Answer in \\boxed\{\}\.$`, obs)
	st, err := e.Step("no box here")
	require.NoError(t, err)
	assert.Equal(t, 0.0, st.Reward)
	assert.Equal(t, 0.0, e.FormatErrorReward())
	assert.Equal(t, true, st.Info[envs.InfoFormatError])
}

func TestPartialCredit(t *testing.T) {
	r := registry(t)
	e := makeEnv(t, r, "rg:number_sorting", envs.With("count", 4))
	_, _, _ = e.Reset(7)
	p := e.Problem()
	items := strings.Split(p.Answer, ", ")
	require.Len(t, items, 4)
	swapped := []string{items[1], items[0], items[2], items[3]}
	st, _ := e.Step(envs.Boxed(strings.Join(swapped, ", ")))
	if items[0] != items[1] {
		assert.InDelta(t, 0.5, st.Reward, 1e-12)
	}
}
