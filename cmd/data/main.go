package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/gemgo/gemgo/envs/bench"
	"github.com/gemgo/gemgo/envs/bench/importer"
	"github.com/gemgo/gemgo/internal/cli"
)

func main() {
	cli.Main("data", "stopping", run)
}

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("data", flag.ContinueOnError)
	cli.SetUsage(fs,
		"usage: data -set NAME -in FILE [-data DIR] [-question-field F] [-answer-field F]",
		"       data -list [-data DIR]")
	set := fs.String("set", "", "the benchmark to import (see -list), e.g. gsm8k, math500, hotpotqa")
	in := fs.String("in", "", "the public copy to import: a .jsonl, .json (array of objects) or .parquet file")
	dataDir := fs.String("data", "", "the data directory (default $"+bench.DataEnv+", else gemgo/data under the user's cache directory)")
	qf := fs.String("question-field", "", "the question's field in the input (default: the set's usual names)")
	af := fs.String("answer-field", "", "the answer's field in the input (default: the set's usual names)")
	list := fs.Bool("list", false, "list the benchmarks, their ids and licences, and which are imported")
	if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	dir := *dataDir
	if dir == "" {
		d, err := bench.DefaultDataDir()
		if err != nil {
			fmt.Fprintln(stderr, "data:", err)
			return cli.ExitUsage
		}
		dir = d
	}
	if *list {
		return listSets(dir, stdout, stderr)
	}
	if *set == "" || *in == "" {
		fmt.Fprintln(stderr, "data: -set and -in are required (or -list): e.g. -set gsm8k -in test.jsonl (see -h)")
		return cli.ExitUsage
	}
	s, err := bench.Lookup(*set)
	if err != nil {
		fmt.Fprintf(stderr, "data: -set: %v\n", err)
		return cli.ExitUsage
	}
	p, err := importer.Import(s, *in, dir, *qf, *af)
	if err != nil {
		fmt.Fprintln(stderr, "data:", err)
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "%s: %d items from %s (sha256 %s) in %s\n", s.ID, p.Items, p.SourceFile, p.SHA256[:12], bench.DataPath(dir, s))
	fmt.Fprintf(stdout, "licence: %s\n", p.Licence)
	return cli.ExitOK
}

// listSets prints every set with its id, licence and import state in dir.
func listSets(dir string, stdout, stderr io.Writer) int {
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "set\tid\titems\tlicence\n")
	for _, s := range bench.Sets() {
		items := "not imported"
		if b, err := os.ReadFile(bench.ProvenancePath(dir, s)); err == nil {
			var p importer.Provenance
			if err := json.Unmarshal(b, &p); err != nil {
				fmt.Fprintf(stderr, "data: %s: %v\n", bench.ProvenancePath(dir, s), err)
				return cli.ExitFailed
			}
			items = fmt.Sprint(p.Items)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", s.Name, s.ID, items, s.Licence)
	}
	if err := w.Flush(); err != nil {
		return cli.ExitFailed
	}
	fmt.Fprintf(stdout, "data directory: %s\n", dir)
	return cli.ExitOK
}
