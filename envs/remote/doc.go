// Package remote serves gemgo's envs over OpenEnv's protocol: the Server
// behind cmd/envserver. Its Go client, which plays envs served that way,
// is package envs/remote/client; the message format both speak (message
// types, error codes, the Error a server answers, number and text
// encoding) is package envs/remote/wire. The server makes each session's
// env with envbuild.Make (package envs/envbuild), under its policy on its
// clients' options; the builder imports the client, never the server, so
// the packages import each other one way only.
//
// The wire format is OpenEnv's. A WebSocket at /ws holds one session (one
// env, one episode at a time); the client sends
//
//	{"type":"reset","data":{"seed":7, "env_id":"game:GuessTheNumber-v0-easy", "options":{"style":"brief"}}}
//	{"type":"step","data":{"message":"\\boxed{5}"}}
//	{"type":"state"}
//	{"type":"close"}
//
// and the server answers
//
//	{"type":"observation","data":{"observation":{"text":..., "terminated":false, "truncated":false,
//	    "info":{...}, "env_id":..., "seed":7, "episode_id":..., "step_count":1}, "reward":0.0, "done":false}}
//	{"type":"state","data":{"episode_id":..., "step_count":1, "active":true, ...}}
//	{"type":"error","data":{"message":..., "code":"EXECUTION_ERROR"}}
//
// with OpenEnv's error codes (wire's Code* constants). OpenEnv's clients strip
// reward, done and metadata from the observation dict, so terminated,
// truncated and info travel inside it. The env is chosen by the route
// (/e/{id}/ws), by env_id in the reset data, or by the server's default;
// options go in the reset data (read under envs.ClientPolicy: the options
// an env keeps for the operator, such as file paths and the code envs'
// python, are refused unless Config.AllowOptions names them, and resource
// options are capped, Config.OptionCaps), and so do tool wrappers (tools:
// a list of tools.Spec in their JSON form), which the server serves only when its
// Config.Tools allows their kinds, since they run on the server (client.Dialer's
// Tools asks for them from Go). The HTTP routes /health, /metadata,
// /schema, /reset, /step and /state (also under /e/{id}/) keep OpenEnv's
// shapes; HTTP keeps no episode between requests, so POST /step replays
// one from its seed and earlier actions.
//
// Three gemgo messages serve the Go client: describe makes the env and
// reports its description, format-error reward and whether it can sample;
// sample runs the env's SampleAction, asking the client for each random
// number (rand), so that random play draws from the caller's RNG as it does
// in-process. Numbers keep their Go kind on the wire (a float is written
// 1.0, an int 1), and text that is not valid UTF-8 travels in base64
// (message_b64, text_b64), so a remote env gives exactly the observations,
// rewards and Info of the same env in-process: it passes envtest.CheckEnv,
// and training on it gives the same numbers.
//
// The server keeps nothing across sessions: replicas behind any load
// balancer serve one cluster (docs/envserver.md). Its limits (Config): a
// session cap answered CAPACITY_REACHED, an idle timeout, a message size
// limit (status 1009 above it), a write timeout that drops a client that
// does not read, and Shutdown, which closes every session with status 1001.
package remote
