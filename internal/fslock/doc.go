// Package fslock gives a process exclusive use of a directory for as long
// as it holds the lock: a run directory that two trainers must not write at
// once, say.
//
// The lock is an advisory flock(2) on the file .lock inside the directory.
// The kernel releases it when the process exits, however it exits (SIGKILL
// and crashes included), so a stale lock never outlives its holder and no
// cleanup is needed. The file itself stays; it holds nothing.
//
// It is a leaf package: it imports only the standard library (syscall's
// Flock, on Unix systems).
package fslock
