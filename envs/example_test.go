package envs_test

import (
	"fmt"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/envtest"
)

func ExampleNewActionObservationHistory() {
	env, err := envs.NewActionObservationHistory(envtest.NewToy(5), 0)
	if err != nil {
		panic(err)
	}
	obs, _, _ := env.Reset(0) // envtest.Toy hides 8 under seed 0
	fmt.Printf("%s\n--\n", obs)
	env.Step(`\boxed{4}`)
	st, _ := env.Step(`higher, so \boxed{8}`)
	fmt.Println(st.Obs)
	// Output:
	// guess 1-9
	// --
	// guess 1-9
	// > \boxed{4}
	// t1 higher
	// > higher, so \boxed{8}
	// t2 correct
}

func ExampleVectorEnv() {
	v, err := envs.NewVectorEnv([]envs.Env{envtest.NewToy(2), envtest.NewToy(2)}, envs.VectorConfig{})
	if err != nil {
		panic(err)
	}
	defer v.Close()
	if _, _, err := v.Reset(42); err != nil {
		panic(err)
	}
	for turn := 1; turn <= 3; turn++ {
		res, _ := v.Step([]string{`\boxed{5}`, "no box"})
		for _, r := range res {
			fmt.Printf("turn %d env %d: %q reward %g done %t", turn, r.Index, r.Step.Obs, r.Step.Reward, r.Step.Done())
			if sum, ok := envs.SummaryOf(r.Step.Info); ok {
				fmt.Printf(" | return %g turns %d success %t | next %q", sum.Return, sum.Turns, sum.Success, r.Next())
			}
			fmt.Println()
		}
	}
	// Output:
	// turn 1 env 0: "t1 higher" reward -0.05 done false
	// turn 1 env 1: "t1 format error" reward -0.1 done true | return -0.1 turns 1 success false | next "guess 1-9"
	// turn 2 env 0: "t2 higher" reward -0.05 done true | return -0.1 turns 2 success false | next "guess 1-9"
	// turn 2 env 1: "t1 format error" reward -0.1 done true | return -0.1 turns 1 success false | next "guess 1-9"
	// turn 3 env 0: "t1 lower" reward -0.05 done false
	// turn 3 env 1: "t1 format error" reward -0.1 done true | return -0.1 turns 1 success false | next "guess 1-9"
}
