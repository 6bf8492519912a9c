// Command envserver serves gemgo's envs over OpenEnv's protocol, for
// trainers in Python (TRL, or any framework through a short shim) and for
// gemgo's own trainer (env.remote in a training config):
//
//	go run ./cmd/envserver -addr 127.0.0.1:8000
//	go run ./cmd/envserver -addr :8000 -env game:GuessTheNumber-v0-easy -max-sessions 4096
//
// A client opens a WebSocket at /ws (or /e/{id}/ws to choose the env by
// route) and sends reset, step, state and close messages; GET /health is
// the load balancer's check. docs/envserver.md has the protocol, the
// Python clients and how to run replicas.
//
// -tools python,search lets clients wrap their env with those tools in the
// reset data; the tools then run on this machine (python in package
// sandbox), so the default serves none. Likewise clients may not set the
// env options that name this machine's files or programs or choose the
// code sandbox (path, word_file, clue_file, python, isolation,
// fresh_process) unless -allow-option names them, and the code envs'
// resource options (timeout, memory_mb, output_kb, concurrency,
// max_tests) are capped; -option-cap timeout=30 moves a cap. On a clean
// stop the code envs' warm interpreters are stopped and their work
// directories removed.
//
// -emit k8s prints Kubernetes manifests that run the server, with the
// other flags given, as -emit-replicas replicas: a Deployment whose pods
// are ready while /health answers 200, and a Service in front of them
// (docs/scale.md).
//
// SIGINT or SIGTERM drains the server: /health turns unhealthy, sessions
// finish the message they are handling and are closed with status 1001,
// and the process exits 0 (1 when -drain elapses first); a second signal
// exits at once with 130. Bad flags exit 2; -h prints the usage on stdout.
package main
