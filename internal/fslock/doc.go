// Package fslock gives one process at a time the use of a directory: Lock
// takes an exclusive flock(2) on a lock file inside it, without waiting,
// and a second Lock of the same directory, from this process or another,
// fails at once with a *HeldError that names the holder's process id.
//
// An flock belongs to the open file description, so two Locks in one
// process conflict as two processes do. The kernel drops the lock when the
// holder exits, even by kill -9, so a crash never leaves a directory
// locked; the lock file stays behind (removing it would let a second
// process lock a new file while a third still holds the old one). The
// file is opened close-on-exec, so a child process (a sandboxed tool)
// does not keep the lock past its parent.
//
// On a platform without flock (Windows, plan9, wasm) Lock takes no lock and
// always succeeds.
package fslock
