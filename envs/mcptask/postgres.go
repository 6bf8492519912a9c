package mcptask

import "errors"

func newPostgresBackend() (backend, error) { return nil, errors.New("mcp:postgres: not yet") }

// PostgresUsable says why the postgres service cannot run here.
func PostgresUsable() error { return errors.New("mcp:postgres: not yet") }
