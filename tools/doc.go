// Package tools gives gemgo's envs tools an agent can call, after GEM's
// tools and its ToolEnvWrapper (arXiv 2510.01051), and fixes where GEM
// goes wrong.
//
// A Tool has three methods: its instructions for the prompt, Parse (the
// first call in an action, or no call) and Run (the call, under a context
// and the tool's limits, to an observation or an error). Three tools are
// built in, each speaking GEM's formats:
//
//   - Python: <python>…</python> or a ```python block, run in package
//     sandbox as `python3 -I main.py`; the configured timeout is the one
//     that holds, output is cut at max_output with a marker, a failing
//     program is an error observation with its traceback. Each tool
//     forks its calls from a warm interpreter of its own
//     (sandbox.PythonServer: no interpreter start per call, the same
//     observations as a fresh process); fresh_process: true, or a
//     machine where the warm interpreter does not start, runs every call
//     in a fresh process. Close stops the interpreter.
//   - Search: <search>…</search> against a BM25 index (bleve's BM25 with
//     Pyserini's k1 = 0.9, b = 0.4) of a Search-R1 JSONL corpus, in memory
//     for small corpora and on disk, reused, for large ones; or against a
//     retrieval server in GEM's msgpack or Search-R1's JSON format.
//     Results are "Doc i(Title: t) text" lines, in <information> tags when
//     asked. The default corpus is the invented world of qa:Fictional.
//   - MCP: <tool_call><tool_name>…</tool_name><arguments>{…}</arguments></tool_call>
//     to any MCP server over stdio or streamable HTTP (the official Go
//     SDK), one client session per episode, with per-attempt timeouts and
//     retries; the server's tools are listed in the instructions.
//
// Env wraps any env: Reset appends the instructions; a step whose action
// holds a call of a tool with uses left is the tool's (at most one call a
// step, never a turn of the inner env, never graded by it, even when the
// call fails); every other action goes to the inner env unchanged. Info
// keys: use_tool, tool_type, parsed_action, tool_error, tool_uses,
// tool_errors, env_turn. Tool rewards default to 0, are paid only for
// calls that succeed and sum to at most MaxToolRewardFraction of a solve.
// SampleAction draws a well-formed call (with arbitrary content, which a
// tool may draw from the task statement's numbers or words) about one time
// in three, so that a format warm-up teaches the call format; right after
// a call, three in four of the inner env's boxed samples box a random word
// of the tool's observation (of the answer's kind, new to the task). Alone
// it solves about 6% of math:Products-v0 and 2% of qa:Fictional-v0-onehop
// (TestSampleActionAloneRarelySolvesTheToolTasks).
//
// Spec is the configuration of one tool (the YAML of a training config's
// env.tools list, or cmd/play's -tool flag); GEM's preset names
// (python_tool, search_tool, and their _no_int_reward forms) are accepted.
//
//	env, _ := builtin.Registry().Make("math:Products-v0")
//	wrapped, err := tools.Wrap(env, []tools.Spec{{Name: "python", MaxUses: 3}})
//
// The text protocol (the tool kinds, Call, the tag parsers, the
// instruction texts, Function) is package tools/protocol, which imports
// only the standard library: each tool's Parse is the protocol's parser
// of its kind, and a program that only renders or parses calls (package
// serve) imports the protocol without the back ends (the sandbox, bleve,
// the MCP SDK).
//
// Package tools/toolserver is a small MCP server for tests and demos
// (cmd/toolserver runs it).
package tools
