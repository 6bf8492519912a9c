// Package mcptask holds gemgo's MCPMark-style task envs: the agent calls
// the tools of one MCP server over several turns, then checks it never
// saw score the state it left (MCPMark's filesystem and postgres
// services, offline, with tasks written for gemgo).
//
// Ids (see Register):
//
//   - mcp:files-sample — the file tasks shipped with gemgo
//     (envs/mcptask/tasks/files, embedded); option task pins one.
//   - mcp:postgres-sample — the PostgreSQL tasks shipped with gemgo
//     (envs/mcptask/tasks/postgres); option task pins one.
//
// Reset(seed) plays task seed mod n of the id's n tasks (sorted by name);
// Env.Len is n, so that cmd/eval -episodes all plays each once.
//   - mcp:dir — the task directory, or directory of task directories of
//     one service, at option path.
//
// A task is a directory: task.yaml (Spec: service, instruction, limits,
// checks, the reference solution as tool calls and its final answer) and
// the fixture: files/ for the files service, fixture.sql for postgres.
//
// Files service: at Reset the fixture is copied into a fresh directory,
// and the npm filesystem MCP server (@modelcontextprotocol/server-filesystem,
// DefaultFilesServer) is started on it, with that directory its only
// allowed one, in the sandbox (sandbox.Start: its own uid, no network, the
// rest of the file system read-only under bwrap), at the episode's first
// call. The agent sees the directory as /files (VirtualRoot): arguments
// are rewritten to the real path, results back.
//
// PostgreSQL service: one throwaway cluster per process (initdb into a
// temp dir, a Unix socket in that dir only, no TCP, run as the postgres
// user, else nobody, when the process is root), started by the first
// episode and stopped when the last env using it closes (HoldCluster
// keeps it across envs). Per task fixture, a template database built once
// from fixture.sql; per episode a new role (no superuser, CREATEDB or
// CREATEROLE) and a database copied from the template (CREATE DATABASE …
// TEMPLATE) whose objects it owns, made at the episode's first call and
// dropped at its end. The MCP server is gemgo's own, on the official Go
// SDK, in this process: query (one statement in a read-only
// transaction), execute (any SQL; several statements run as one
// transaction) and list_schema; each call is bounded by the task's
// call_timeout_sec (statement_timeout and the call's context). Checks are
// SQL queries that must return true, run on a new connection as the
// episode's role (no more rights than the agent had), each in a read-only
// transaction, with search_path and statement_timeout set at connection,
// over any default the agent set with ALTER ROLE or ALTER DATABASE.
//
// Actions: a reply holding <tool_call><tool_name>NAME</tool_name><arguments>{JSON}</arguments></tool_call>
// calls that tool (the first complete call of the reply); the result, cut
// to option output_bytes (head and tail), is the observation. An unknown
// tool, arguments that are not a JSON object, or a reply that opens
// <tool_call> without a complete call is an error observation that costs
// a turn; a tool's own error is shown as "[Tool execution error: …]". A
// reply without a tool call is the final answer: it ends the episode
// (Terminated). The turn cap and the time budget (the total wall time of
// the calls) end it too (Truncated).
//
// Rewards are 0 until the end. Then the agent's access ends (the session
// closes, the server and every process of its uid are killed) and the
// task's checks run on the state, never on the agent's text: 1 when every
// check holds, else 0. The checks live in the env's memory, loaded with
// the task, and are never written where the server can reach.
//
// For native function calling (cmd/eval -tool-protocol native) the env
// offers its tools as the tool wrapper does: Functions, Instructions (the
// block the first observation ends with) and Route.
//
// Step's Info: turn, task, tool and tool_error after a call, format_error;
// at the end passed, total, checks (label to "passed" or why it failed),
// success, and truncated_by (max_turns or time_budget_sec).
//
// Options: max_turns (overrides the task's), output_bytes (8192); for
// mcp:files-sample and mcp:dir server (the filesystem server's program)
// and isolation (auto or a sandbox isolation name).
package mcptask
