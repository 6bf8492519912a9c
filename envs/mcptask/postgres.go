package mcptask

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// postgresBackend serves postgres tasks from the process's cluster, which
// it acquires at its first episode and releases at close.
type postgresBackend struct {
	c *cluster
	// untouched holds each task's check results on its fixture as it is:
	// the outcome of every episode that made no call (nothing else can
	// change the database), found once with a real episode.
	untouched map[*Task][]checkResult
}

// newPostgresBackend checks that PostgreSQL can run here; the cluster
// starts at the first episode.
func newPostgresBackend() (*postgresBackend, error) {
	if err := PostgresUsable(); err != nil {
		return nil, err
	}
	return &postgresBackend{untouched: map[*Task][]checkResult{}}, nil
}

func (b *postgresBackend) close() error {
	if b.c == nil {
		return nil
	}
	b.c = nil
	return releaseCluster()
}

// listSession connects to a server with no database: enough to list its
// tools.
func (b *postgresBackend) listSession(ctx context.Context) (*mcp.ClientSession, func(), error) {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newPGServer(&pgConn{dial: func(context.Context) (*pgx.Conn, error) {
		return nil, errors.New("no database: this server only lists its tools")
	}}).Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("mcp:postgres: start the server: %w", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gemgo", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		_ = ss.Close()
		return nil, nil, fmt.Errorf("mcp:postgres: connect to the server: %w", err)
	}
	return cs, func() { _ = cs.Close(); _ = ss.Close() }, nil
}

// open returns the episode; its database is made at its first call
// (start).
func (b *postgresBackend) open(_ context.Context, t *Task) (episode, error) {
	return &pgEpisode{b: b, t: t}, nil
}

// start makes the episode's role and database (a copy of the task's
// template) and connects a client to gemgo's PostgreSQL MCP server on it,
// in this process.
func (b *postgresBackend) start(ctx context.Context, ep *pgEpisode, t *Task) error {
	if b.c == nil {
		c, err := acquireCluster()
		if err != nil {
			return err
		}
		b.c = c
	}
	tpl, err := b.c.template(ctx, t.Fixture)
	if err != nil {
		return fmt.Errorf("mcp task %s: %w", t.Name, err)
	}
	name, err := b.c.newEpisode(ctx, tpl)
	if err != nil {
		return err
	}
	ep.c, ep.name = b.c, name
	timeout := strconv.Itoa(int(t.Spec.CallTimeoutSec * 1000))
	ep.db = &pgConn{dial: func(ctx context.Context) (*pgx.Conn, error) {
		return b.c.connect(ctx, name, name, "statement_timeout", timeout, "idle_in_transaction_session_timeout", timeout)
	}}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newPGServer(ep.db).Connect(ctx, st, nil)
	if err != nil {
		return errors.Join(fmt.Errorf("mcp:postgres: start the server: %w", err), ep.remove())
	}
	ep.ss = ss
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gemgo", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return errors.Join(fmt.Errorf("mcp:postgres: connect to the server: %w", err), ep.stop(), ep.remove())
	}
	ep.cs = cs
	return nil
}

// pgEpisode is one episode of the postgres service.
type pgEpisode struct {
	b       *postgresBackend
	t       *Task
	started bool
	ended   bool
	c       *cluster
	name    string // the episode's database and role ("" before start)
	db      *pgConn
	ss      *mcp.ServerSession
	cs      *mcp.ClientSession
}

func (ep *pgEpisode) session(ctx context.Context) (*mcp.ClientSession, error) {
	if ep.ended {
		return nil, errors.New("mcp:postgres: the episode has ended")
	}
	if !ep.started {
		ep.started = true
		if err := ep.b.start(ctx, ep, ep.t); err != nil {
			return nil, err
		}
	}
	return ep.cs, nil
}

func (ep *pgEpisode) toServer(map[string]any)    {}
func (ep *pgEpisode) fromServer(s string) string { return s }

// stop closes the session, the server and its connection.
func (ep *pgEpisode) stop() error {
	ep.ended = true
	if ep.cs != nil {
		_ = ep.cs.Close()
		ep.cs = nil
	}
	if ep.ss != nil {
		_ = ep.ss.Close()
		ep.ss = nil
	}
	if ep.db != nil {
		ep.db.close()
	}
	return nil
}

// verify runs each check in a read-only transaction of its own, on a new
// connection as the episode's role (no more rights than the agent had: a
// function the agent planted runs with the agent's rights), with
// search_path and statement_timeout set at connection (over any default
// the agent set with ALTER ROLE or ALTER DATABASE).
func (ep *pgEpisode) verify(t *Task) ([]checkResult, error) {
	if !ep.started {
		return ep.b.checkUntouched(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := ep.c.connect(ctx, ep.name, ep.name, "search_path", "public", "statement_timeout", "10000",
		"default_transaction_read_only", "on")
	if err != nil {
		return nil, fmt.Errorf("mcp task %s: connect to check the database: %w", t.Name, err)
	}
	defer conn.Close(context.Background())
	out := make([]checkResult, len(t.Spec.Checks))
	for i, c := range t.Spec.Checks {
		out[i] = checkResult{label: c.label()}
		if err := checkSQL(ctx, conn, c.SQL); err != nil {
			out[i].fail = err.Error()
		}
	}
	return out, nil
}

// checkUntouched returns t's check results on its fixture as it is,
// playing an episode without calls once to find them.
func (b *postgresBackend) checkUntouched(t *Task) ([]checkResult, error) {
	if res, ok := b.untouched[t]; ok {
		return res, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ep := &pgEpisode{b: b, t: t, started: true}
	if err := b.start(ctx, ep, t); err != nil {
		return nil, err
	}
	if err := ep.stop(); err != nil {
		return nil, errors.Join(err, ep.remove())
	}
	res, err := ep.verify(t)
	if err := errors.Join(err, ep.remove()); err != nil {
		return nil, err
	}
	b.untouched[t] = res
	return res, nil
}

// checkSQL runs one check: it must return one row of one column, true.
func checkSQL(ctx context.Context, conn *pgx.Conn, sql string) error {
	pc := conn.PgConn()
	if _, err := pc.Exec(ctx, "BEGIN READ ONLY").ReadAll(); err != nil {
		return pgError(err)
	}
	defer func() { _, _ = pc.Exec(context.Background(), "ROLLBACK").ReadAll() }()
	res := pc.ExecParams(ctx, sql, nil, nil, nil, nil).Read()
	if res.Err != nil {
		return errors.New(strings.ReplaceAll(pgError(res.Err).Error(), "\n", " "))
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return fmt.Errorf("returned %d rows, want one row of one value", len(res.Rows))
	}
	if v := res.Rows[0][0]; string(v) != "t" {
		if v == nil {
			return errors.New("returned NULL, want true")
		}
		return fmt.Errorf("returned %s, want true", v)
	}
	return nil
}

func (ep *pgEpisode) remove() error {
	if ep.name == "" {
		return nil
	}
	name := ep.name
	ep.name = ""
	return ep.c.dropEpisode(name)
}
