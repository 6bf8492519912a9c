// Package envbuild turns an env's configuration into an env: the one place
// where gemgo makes the envs it plays. Train (env and eval.options), eval,
// cmd/play and the env server (package remote) all call Make, so an env
// made for any of them goes through the same steps in the same order:
//
//  1. the env itself: Registry.Make in this process, Registry.MakeForClient
//     when Config.Client holds a server's policy for its clients' options,
//     or client.Dial to an env server when Config.Remote names one;
//  2. its tools (tools.Wrap), which run in this process;
//  3. its history wrapper (envs.WithHistory).
//
// A step that fails closes what the steps before it built, so a caller
// never holds half an env.
//
// The layering: envbuild imports envs, tools and envs/remote/client (the
// Go client of an env server). The server, package remote, imports
// envbuild to make its sessions' envs; it does not import the client, and
// the client does not import the server: the message format both speak is
// package envs/remote/wire, which imports neither. What a server lets its
// clients ask for (its tool kinds, the keys of a tool spec that name its
// files or hosts) stays in package remote, which checks a client's request
// before it calls Make.
package envbuild
