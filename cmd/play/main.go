package main

import "github.com/gemgo/gemgo/internal/cli"

func main() {
	cli.Main("play", "stopping the episode", run)
}
