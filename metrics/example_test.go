package metrics_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gemgo/gemgo/metrics"
)

func ExampleProgress() {
	p := metrics.NewProgress(os.Stdout, 10, false) // false: not a terminal
	p.Update(5, map[string]float64{
		"global/env_steps":       640,
		"charts/success_rate":    0.5,
		"charts/episodic_return": 0.25,
		"losses/loss":            0.0123,
		"global/wall_s":          50,
	})
	p.Eval(5, map[string]float64{"eval/success_rate": 0.75})
	if err := p.Finish(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// iter=5/10 steps=640 success=0.500 return=0.250 loss=0.0123 eta=50s
	// eval iter=5 success_rate=0.75
}

func ExampleLogger() {
	dir, err := os.MkdirTemp("", "run")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	log, err := metrics.NewLogger(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = log.Log(1, map[string]float64{"charts/episodic_return": 0.5})
	_ = log.Log(2, map[string]float64{"charts/episodic_return": 0.75, "losses/approx_kl": 0.01})
	if err := log.Close(); err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{metrics.JSONLName, metrics.CSVName} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		fmt.Print(string(b))
	}
	rows, err := metrics.ReadJSONL(filepath.Join(dir, metrics.JSONLName))
	fmt.Println(len(rows), rows[1].Metrics["losses/approx_kl"], err)
	// Output:
	// {"iteration":1,"charts/episodic_return":0.5}
	// {"iteration":2,"charts/episodic_return":0.75,"losses/approx_kl":0.01}
	// iteration,charts/episodic_return,losses/approx_kl
	// 1,0.5,
	// 2,0.75,0.01
	// 2 0.01 <nil>
}
