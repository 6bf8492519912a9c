// Command play plays any gemgo env in the terminal, one action per line.
//
//	go run ./cmd/play -env game:Mastermind-v0-easy -seed 3
//	go run ./cmd/play -list
//	printf '\\boxed{5}\n\\boxed{7}\n' | go run ./cmd/play -env game:GuessTheNumber-v0-easy -style brief
//	go run ./cmd/play -env qa:Fictional-v0-onehop -tool search
//
// It prints the observation, reads one action per line from stdin (so a
// game can be scripted), and after each step prints the reward, the
// Terminated and Truncated flags and the step's Info, then the next
// observation. When the episode ends it prints how (terminated or
// truncated), whether it succeeded, the episode return and the number of
// turns. End of input before the end of the episode stops the game.
//
// Flags:
//
//	-env ID        the env to play (see -list)
//	-seed N        the episode seed (default 0): same seed, same game
//	-opt key=value an env option, repeatable (-opt max_turns=6)
//	-style S       the instruction style: gem (default) or brief
//	-tool T        wrap the env with a tool, repeatable: a name (python, search,
//	               mcp, or GEM's python_tool, search_tool, ...) or a YAML map,
//	               -tool '{name: search, topk: 2, information_tags: true}'
//	-list          print every env id, grouped by category, with its description
//
// Exit status: 0 when the game ended or input ran out (and for -h), 1 on an
// env error (an unknown id, a bad option), 2 on a bad command line, 130
// when an interrupt (Ctrl-C or SIGTERM) stopped the game.
package main
