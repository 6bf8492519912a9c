// Package client plays envs that an env server (package remote, behind
// cmd/envserver) serves over OpenEnv's protocol: Dial makes an env on the
// server and returns an envs.Env whose calls are messages of one WebSocket
// session. A remote env gives exactly the observations, rewards and Info
// of the same env in-process (numbers keep their Go kinds, text that is not
// UTF-8 travels in base64: package wire), and its SampleAction draws from
// the caller's RNG, the server asking for each random number.
//
// The client imports package wire, the format it shares with the server,
// and not the server itself, so that the env builder (package
// envs/envbuild) can dial servers while the server builds its envs with
// that builder.
package client
