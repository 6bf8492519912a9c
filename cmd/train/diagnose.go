package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/internal/cli"
	"github.com/gemgo/gemgo/policy"
	"github.com/gemgo/gemgo/train"
)

// diagnose prints train.Diagnose for the policies a run directory holds:
// the warmed-up one (the KL reference, when the run kept one) and the
// latest (final.safetensors, else checkpoint.safetensors), under the
// run's own config with sets applied, on each env its evaluation plays
// (every entry of a mixture).
func diagnose(ctx context.Context, dir string, sets []string, seeds int, stdout, stderr io.Writer) int {
	cfg, err := train.LoadFile(filepath.Join(dir, train.ConfigFile), sets)
	if err != nil {
		fmt.Fprintf(stderr, "train: -diagnose %s: %v (give a run directory that cmd/train wrote)\n", dir, err)
		return cli.ExitUsage
	}
	latest := train.FinalFile
	if _, err := os.Stat(filepath.Join(dir, latest)); err != nil {
		latest = train.CheckpointFile
	}
	found := 0
	for _, f := range []struct{ file, what string }{{train.ReferenceFile, "the warmed-up policy"}, {latest, "the latest policy"}} {
		path := filepath.Join(dir, f.file)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		found++
		ck, err := policy.LoadCheckpoint(path)
		if err != nil {
			fmt.Fprintln(stderr, "train:", err)
			return cli.ExitFailed
		}
		ds, err := train.DiagnoseEach(ctx, cfg, builtin.Registry(), ck, seeds)
		if err != nil {
			fmt.Fprintln(stderr, "train:", err)
			if ctx.Err() != nil {
				return cli.ExitInterrupted
			}
			return cli.ExitFailed
		}
		for _, d := range ds {
			if len(ds) > 1 {
				fmt.Fprintf(stdout, "== %s (%s) on %s\n", f.what, path, d.Name)
			} else {
				fmt.Fprintf(stdout, "== %s (%s)\n", f.what, path)
			}
			d.Write(stdout)
		}
	}
	if found == 0 {
		fmt.Fprintf(stderr, "train: -diagnose %s: no %s, %s or %s there (train first, or give the run directory)\n", dir, train.ReferenceFile, train.FinalFile, train.CheckpointFile)
		return cli.ExitFailed
	}
	return cli.ExitOK
}
