package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/policy/internal/refmodel"
)

func main() {
	d := flag.Int("d", 64, "model width")
	out := flag.String("out", "", "dump directory (created)")
	seed := flag.Uint64("seed", 1, "seed of the weights and batches")
	flag.Parse()
	if err := run(*d, *out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "paritydump:", err)
		os.Exit(1)
	}
}

type paramMeta struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
}

func run(d int, dir string, seed uint64) error {
	if dir == "" {
		return fmt.Errorf("-out is required")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	w, err := policy.NewWeights(refmodel.Config(d), rng)
	if err != nil {
		return err
	}
	var meta struct {
		Params []paramMeta `json:"params"`
		Losses []float64   `json:"losses"`
	}
	var weights []float32
	for _, p := range w.Params {
		meta.Params = append(meta.Params, paramMeta{p.Name, p.Shape})
		weights = append(weights, p.Data...)
	}
	tr, err := policy.NewTrainer(w, refmodel.Optim())
	if err != nil {
		return err
	}
	var batches, grads []any
	for i := range 5 {
		raw, seqs := refmodel.NewBatch(rng)
		batches = append(batches, raw.Tokens, raw.Targets, raw.Weights)
		st, err := refmodel.Step(tr, seqs)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		meta.Losses = append(meta.Losses, st.Loss)
		if i == 0 {
			for _, g := range tr.Gradients() {
				grads = append(grads, g)
			}
		}
	}
	js, err := json.MarshalIndent(meta, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), js, 0o644); err != nil {
		return err
	}
	if err := writeBin(filepath.Join(dir, "weights.bin"), weights); err != nil {
		return err
	}
	if err := writeBin(filepath.Join(dir, "grads0.bin"), grads...); err != nil {
		return err
	}
	if err := writeBin(filepath.Join(dir, "batches.bin"), batches...); err != nil {
		return err
	}
	fmt.Printf("paritydump: d=%d, %d parameters, losses %v, written to %s\n", d, w.NumParams(), meta.Losses, dir)
	return nil
}

// writeBin writes each slice little-endian, one after the other.
func writeBin(path string, parts ...any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	for _, p := range parts {
		if err := binary.Write(bw, binary.LittleEndian, p); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
