// Package cli holds the shape every gemgo command shares: the Command
// signature and Main, which runs one as the process (SIGINT and SIGTERM
// cancel its context; a second signal exits at once); ParseFlags (-h prints
// the usage on stdout and exits 0, a bad flag is one line on stderr and
// exit 2); the exit statuses; and a repeatable string flag. The -tool flag
// of the commands that play envs is package toolflag, apart: it links the
// tools, which cmd/serve must not.
//
// Every command in cmd/ has the same shape:
//
//	func main() { cli.Main("name", "what the first signal does", run) }
//
//	func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
//		fs := flag.NewFlagSet("name", flag.ContinueOnError)
//		cli.SetUsage(fs, "usage: name ...")
//		// the flags
//		if code, ok := cli.ParseFlags(fs, args, stdout, stderr); !ok {
//			return code
//		}
//		// the work, stopping when ctx is cancelled
//	}
//
// What a test sets besides (stdin, a registry, a callback with a server's
// address) is a field of a small struct whose run method run calls
// (cmd/play's player, cmd/serve's and cmd/envserver's server).
// cmd/cmdtest checks the shape on every command, built and run.
package cli
