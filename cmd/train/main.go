// Command train trains a policy on an env, as a config file says.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/gemgo/gemgo/algo"
	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

type printLog struct{}

func (printLog) Warmup(step, steps int, st policy.Stats) {
	if step%50 == 0 {
		fmt.Printf("warmup %d loss %.3f\n", step, st.Loss)
	}
}
func (printLog) Iteration(it int, m algo.Metrics) {
	fmt.Printf("it %d ret %.3f succ %.3f turns %.2f ent %.3f kl %.4f clip %.3f roll %.2fs upd %.2fs t %.0fs\n", it, m["charts/episodic_return"], m["charts/success_rate"], m["charts/turns"], m["losses/entropy"], m["losses/approx_kl"], m["losses/clipfrac"], m["perf/rollout_s"], m["perf/update_s"], m["global/wall_s"])
}
func (printLog) Eval(e train.EvalResult) {
	fmt.Printf("EVAL it %d success %.3f return %.3f turns %.2f solved-turns %.2f\n", e.Iteration, e.SuccessRate, e.MeanReturn, e.MeanTurns, e.SolvedTurns)
}

func main() {
	cfgPath := flag.String("config", "configs/rebn_guess.yaml", "config file")
	var sets multi
	flag.Var(&sets, "set", "override key=value")
	flag.Parse()
	cfg, err := train.LoadFile(train.ResolveConfigPath(*cfgPath, "configs"), sets)
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := train.Run(ctx, cfg, envs.Builtins(), train.Options{Dir: "runs/" + cfg.Name, Observer: printLog{}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Printf("done: %+v\n", res)
}
