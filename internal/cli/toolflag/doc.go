// Package toolflag is the -tool flag of the commands that play envs
// (cmd/play, cmd/eval). It is apart from package cli, which every command
// links, because it links the tools and their back ends, which cmd/serve
// must not.
package toolflag
