// Command eval scores policies on envs, side by side, resumably.
//
//	go run ./cmd/eval -policy runs/rebn_guess -policy random -policy oracle \
//	    -env game:GuessTheNumber-v0-easy -env game:GuessTheNumber-v0-hard \
//	    -opt style=brief -opt partial_credit=false -episodes 100 -out runs/eval_guess
//	OPENAI_API_KEY=... go run ./cmd/eval -policy gpt-4o-mini@https://api.openai.com/v1 \
//	    -env game:GuessTheNumber-v0-easy -episodes 50 -out runs/eval_gpt
//	go run ./cmd/eval -policy random -env math:Products-v0 -opt style=brief \
//	    -tool '{name: python, max_uses: 2}' -episodes 20 -out runs/eval_products
//
// A -policy is a checkpoint file or run directory (its final.safetensors;
// it reads conversations as its training run rendered observations),
// random (the env's random valid actions), oracle (the env's solver,
// where one exists), or MODEL@URL, an OpenAI-compatible endpoint (vLLM,
// llama.cpp, Ollama, OpenAI, or cmd/serve), sent OPENAI_API_KEY.
//
// The output directory gets results.jsonl (one line per episode, appended
// as episodes end), metadata.json (the config, its hash and the
// aggregates), results.md and report.html; the table is printed too.
// Rerunning the same command plays only what is missing: after Ctrl-C,
// kill -9 or errors, nothing finished is lost or played twice. A
// checkpoint is known by its file's content (a SHA-256 in every line),
// so a replaced checkpoint is played anew. One eval at a time writes a
// directory: a second one into it exits at once, naming the first's pid.
//
// -tool wraps every env with a tool, with cmd/play's syntax: a name
// (-tool python) or a YAML map of a tools.Spec
// (-tool '{name: python, max_uses: 2}'), repeatable. Every episode gets
// tools of its own; a spec that is wrong, or a tool that cannot run here,
// stops the run before its first episode. -tool-protocol native offers
// the tools to an endpoint policy as OpenAI functions and runs the reply's
// tool_calls through the same tools (docs/eval.md); the mcp:* envs need
// no -tool for it, their MCP server's tools are offered. text, the
// default, is the tag protocol policies train on.
//
// An -env value may carry options of its own after "?"
// ('eval:MATH500?answer_format=boxed&style=brief'), over the -opt options
// every env gets.
//
// Seeds are seed_base … seed_base+episodes−1 for every env and policy
// (default seed_base 2^41, disjoint from training's seeds and held-out
// evaluation seeds). -episodes all plays every item of dataset envs (those
// that report their size, eval.Sizer) once, in file order: seeds from 0
// unless -seed-base is given; the envs must all hold the same number. -temperature 0 (the default) is greedy; pass@k needs
// -samples > 1 and -temperature > 0.
//
// Exit status: 0 done, 1 failed, 2 bad usage, 130 interrupted by Ctrl-C or
// SIGTERM (finished episodes are kept; a second signal exits at once).
//
// -shard i/n (0-based i; by default from SLURM_ARRAY_TASK_ID or
// JOB_COMPLETION_INDEX with -shards n) does only shard i's episodes into the
// shared -out, -merge writes the results once every shard is done (or
// lists the missing shards and their commands), and -emit slurm|k8s prints
// a job array that runs the shards: docs/scale.md.
package main
