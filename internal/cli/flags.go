package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// SetUsage makes fs's usage the synopsis lines followed by the flags.
func SetUsage(fs *flag.FlagSet, synopsis ...string) {
	fs.Usage = func() {
		for _, l := range synopsis {
			fmt.Fprintln(fs.Output(), l)
		}
		fmt.Fprintln(fs.Output(), "flags:")
		fs.PrintDefaults()
	}
}

// ParseFlags parses args with fs, a command's flags; the command takes no
// positional arguments. ok is false when the command should return code at
// once: -h or -help prints the usage on stdout and gives ExitOK; a bad flag
// or an argument that is not a flag is one line on stderr and ExitUsage.
// fs should be made with flag.ContinueOnError.
func ParseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(io.Discard) // the flag package would print the usage after the error
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(stderr)
		return ExitOK, false
	case err != nil:
		// One line, though a flag's Set may return a multi-line error.
		fmt.Fprintf(stderr, "%s: %s (see -h)\n", fs.Name(), strings.ReplaceAll(strings.TrimSpace(err.Error()), "\n", "; "))
		return ExitUsage, false
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %q: the command takes flags only (see -h)\n", fs.Name(), fs.Arg(0))
		return ExitUsage, false
	}
	return ExitOK, true
}
