// Package cmdtest tests, over every command in cmd/, the shape they share
// through package internal/cli: -h and -help print the usage on stdout
// and exit 0; a bad flag or a positional argument is one line on stderr
// and exit 2; SIGTERM stops a command as SIGINT does. It builds the
// commands and runs them as processes; it has only tests.
package cmdtest
