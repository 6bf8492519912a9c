// Package client plays envs that an env server (package remote, behind
// cmd/envserver) serves over OpenEnv's protocol: Dial makes an env on the
// server and returns an envs.Env whose calls are messages of one WebSocket
// session. A remote env gives exactly the observations, rewards and Info
// of the same env in-process (numbers keep their Go kinds, text that is not
// UTF-8 travels in base64: package wire), and its SampleAction draws from
// the caller's RNG, the server asking for each random number.
//
// A session whose connection breaks (the replica behind a balancer stops,
// a proxy drops the connection) is opened again at the same address and
// its episode replayed, since an episode is its seed and its actions: the
// new session is reset with the seed and sent the actions so far, each
// observation checked against the first play's, and the call goes on
// (Dialer.Reconnect, replay.go). A replay that differs fails the call.
//
// The client imports package wire, the format it shares with the server,
// and not the server itself, so that the env builder (package
// envs/envbuild) can dial servers while the server builds its envs with
// that builder.
package client
