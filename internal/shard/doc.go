// Package shard splits a sweep or an evaluation over the tasks of a job
// array: a Shard is "index i of n" (0-based, as Slurm's
// SLURM_ARRAY_TASK_ID and Kubernetes' JOB_COMPLETION_INDEX count), given
// by a -shard i/n flag or read from the engine's variables, and Mine
// assigns item j to shard j mod n. See docs/scale.md.
package shard
