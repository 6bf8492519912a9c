package mcptask

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresInstall is how to install PostgreSQL on Debian.
const PostgresInstall = "apt-get install postgresql"

// Roles of the cluster: the superuser (initdb's bootstrap role), and the
// role that owns what a fixture creates in a template database; each
// episode gets a role of its own (episodeRole).
const (
	superRole    = "gemgo"
	templateRole = "gemgo_fixture"
)

// cluster is a throwaway PostgreSQL cluster: initdb'd into a temp dir,
// listening only on a Unix socket in that dir (mode 700: only the
// cluster's user and root reach it), run as a non-root user when the
// process is root. One is shared per process (acquireCluster) and stopped
// when its last user releases it.
type cluster struct {
	base string // the temp dir: data/ and the socket
	cmd  *exec.Cmd
	logs *limitedBuffer
	done chan struct{}

	mu        sync.Mutex
	templates map[string]string // fixture hash → template database
	next      int               // episode counter
}

var shared struct {
	mu   sync.Mutex
	c    *cluster
	refs int
	// keep holds the cluster after its last release (tests set it, so
	// that their envs share one cluster; stopShared stops it)
	keep bool
}

var cleanedPG sync.Once

// acquireCluster returns the process's cluster, starting it on first use.
func acquireCluster() (*cluster, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.c == nil {
		c, err := startCluster()
		if err != nil {
			return nil, err
		}
		shared.c = c
	}
	shared.refs++
	return shared.c, nil
}

// releaseCluster drops a reference; the last one stops the cluster.
func releaseCluster() error {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.refs--
	if shared.refs > 0 || shared.c == nil || shared.keep {
		return nil
	}
	c := shared.c
	shared.c = nil
	return c.stop()
}

// HoldCluster starts the process's PostgreSQL cluster, if it is not
// running, and keeps it until release is called, for a caller that makes
// and closes postgres envs one after another (tests, sweeps): each env
// otherwise starts the cluster anew once the previous one released it.
func HoldCluster() (release func() error, err error) {
	if _, err := acquireCluster(); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() error {
		err := error(nil)
		once.Do(func() { err = releaseCluster() })
		return err
	}, nil
}

// postgresBin finds the directory holding initdb and postgres: where
// initdb on PATH lives (symbolic links resolved), else the newest
// /usr/lib/postgresql/*/bin (Debian keeps them there, off PATH).
func postgresBin() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			dirs = append(dirs, filepath.Dir(r))
		}
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(found, func(a, b string) int { return versionOf(b) - versionOf(a) })
	for _, d := range append(dirs, found...) {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("mcp:postgres: PostgreSQL is not installed (no initdb and postgres on PATH or in /usr/lib/postgresql/*/bin): %s", PostgresInstall)
}

func versionOf(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// clusterUser is who runs the cluster: as root, the postgres user (else
// nobody), since PostgreSQL refuses to run as root; otherwise the caller.
func clusterUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
	}
	return nil, errors.New("mcp:postgres: as root, PostgreSQL must run as another user, and neither postgres nor nobody exists: " + PostgresInstall + " (it adds the postgres user)")
}

// PostgresUsable says why the postgres service cannot run here; nil when
// it can.
func PostgresUsable() error {
	if _, err := postgresBin(); err != nil {
		return err
	}
	_, err := clusterUser()
	return err
}

const clusterPrefix = "gemgo-pg-"

// startCluster runs initdb and starts the server.
func startCluster() (*cluster, error) {
	bin, err := postgresBin()
	if err != nil {
		return nil, err
	}
	cred, err := clusterUser()
	if err != nil {
		return nil, err
	}
	cleanedPG.Do(removeLeakedClusters)
	base, err := os.MkdirTemp("", clusterPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("mcp:postgres: cluster dir: %w", err)
	}
	c := &cluster{base: base, templates: map[string]string{}, logs: &limitedBuffer{max: 64 << 10}, done: make(chan struct{})}
	fail := func(err error) (*cluster, error) {
		_ = os.RemoveAll(base)
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(base, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("mcp:postgres: cluster dir: %w", err))
		}
	}
	env := []string{"PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C", "HOME=" + base}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(base, "data"), "-U", superRole,
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
	initdb.Dir, initdb.Env = base, env
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("mcp:postgres: initdb: %w: %s", err, tail(string(out))))
	}
	// Only the socket in base; durability off (the cluster is thrown away).
	c.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(base, "data"), "-k", base,
		"-c", "listen_addresses=", "-c", "unix_socket_permissions=0700", "-c", "fsync=off",
		"-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
		"-c", "shared_buffers=16MB", "-c", "log_min_messages=warning")
	c.cmd.Dir, c.cmd.Env = base, env
	c.cmd.Stdout, c.cmd.Stderr = c.logs, c.logs
	// SIGQUIT, PostgreSQL's immediate shutdown, should this process die
	// without stopping it.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	if err := c.cmd.Start(); err != nil {
		return fail(fmt.Errorf("mcp:postgres: start postgres: %w", err))
	}
	go func() { _ = c.cmd.Wait(); close(c.done) }()
	if err := c.setUp(); err != nil {
		return nil, errors.Join(err, c.stop())
	}
	return c, nil
}

// setUp waits for the server and makes the fixture role.
func (c *cluster) setUp() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var conn *pgx.Conn
	for {
		var err error
		if conn, err = c.connect(ctx, superRole, "postgres"); err == nil {
			break
		}
		select {
		case <-c.done:
			return fmt.Errorf("mcp:postgres: the server exited at its start: %s", tail(c.logs.String()))
		case <-ctx.Done():
			return fmt.Errorf("mcp:postgres: the server did not accept connections within 2 minutes: %v: %s", err, tail(c.logs.String()))
		case <-time.After(50 * time.Millisecond):
		}
	}
	defer conn.Close(context.Background())
	_, err := conn.Exec(ctx, "CREATE ROLE "+templateRole+" NOLOGIN; REVOKE CONNECT ON DATABASE postgres, template1 FROM PUBLIC")
	if err != nil {
		return fmt.Errorf("mcp:postgres: set up the cluster: %w", err)
	}
	return nil
}

// connect opens a connection as role to database db over the socket.
// params are run-time settings sent at the start (they take precedence
// over any ALTER ROLE or ALTER DATABASE default).
func (c *cluster) connect(ctx context.Context, role, db string, params ...string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.Host, cfg.Port, cfg.User, cfg.Database = c.base, 5432, role, db
	cfg.TLSConfig, cfg.Fallbacks = nil, nil
	cfg.RuntimeParams = map[string]string{"application_name": "gemgo"}
	for i := 0; i+1 < len(params); i += 2 {
		cfg.RuntimeParams[params[i]] = params[i+1]
	}
	return pgx.ConnectConfig(ctx, cfg)
}

// template returns the template database of fixture, making it on first
// use: the fixture's SQL runs as templateRole, which then owns what it
// made; the database takes no connections afterwards.
func (c *cluster) template(ctx context.Context, fixture string) (string, error) {
	sum := sha256.Sum256([]byte(fixture))
	h := hex.EncodeToString(sum[:])
	c.mu.Lock()
	defer c.mu.Unlock()
	if name, ok := c.templates[h]; ok {
		return name, nil
	}
	name := "tpl_" + h[:16]
	admin, err := c.connect(ctx, superRole, "postgres")
	if err != nil {
		return "", fmt.Errorf("mcp:postgres: %w", err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("mcp:postgres: create the template: %w", err)
	}
	err = func() error {
		conn, err := c.connect(ctx, superRole, name)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "GRANT ALL ON SCHEMA public TO "+templateRole+"; SET ROLE "+templateRole); err != nil {
			return err
		}
		_, err = conn.PgConn().Exec(ctx, fixture).ReadAll() // several statements: the simple protocol
		return err
	}()
	if err != nil {
		_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name)
		return "", fmt.Errorf("mcp:postgres: fixture.sql: %w", err)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" WITH ALLOW_CONNECTIONS false IS_TEMPLATE true"); err != nil {
		return "", fmt.Errorf("mcp:postgres: seal the template: %w", err)
	}
	c.templates[h] = name
	return name, nil
}

// newEpisode makes a role and a database for one episode: a copy of the
// template whose objects the role owns (and nothing else).
func (c *cluster) newEpisode(ctx context.Context, tpl string) (name string, err error) {
	c.mu.Lock()
	c.next++
	name = fmt.Sprintf("ep_%d_%d", os.Getpid(), c.next)
	c.mu.Unlock()
	admin, err := c.connect(ctx, superRole, "postgres")
	if err != nil {
		return "", fmt.Errorf("mcp:postgres: %w", err)
	}
	defer admin.Close(context.Background())
	for _, q := range []string{
		"CREATE ROLE " + name + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION CONNECTION LIMIT 4",
		"CREATE DATABASE " + name + " TEMPLATE " + tpl + " OWNER " + name,
		"REVOKE ALL ON DATABASE " + name + " FROM PUBLIC",
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			return "", errors.Join(fmt.Errorf("mcp:postgres: new episode database: %w", err), c.dropEpisode(name))
		}
	}
	conn, err := c.connect(ctx, superRole, name)
	if err != nil {
		return "", errors.Join(fmt.Errorf("mcp:postgres: %w", err), c.dropEpisode(name))
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "REASSIGN OWNED BY "+templateRole+" TO "+name); err != nil {
		return "", errors.Join(fmt.Errorf("mcp:postgres: hand the episode's objects to its role: %w", err), c.dropEpisode(name))
	}
	return name, nil
}

// dropEpisode removes an episode's database and role.
func (c *cluster) dropEpisode(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := c.connect(ctx, superRole, "postgres")
	if err != nil {
		return fmt.Errorf("mcp:postgres: drop episode %s: %w", name, err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("mcp:postgres: drop episode %s: %w", name, err)
	}
	if _, err := admin.Exec(ctx, "DROP ROLE IF EXISTS "+name); err != nil {
		return fmt.Errorf("mcp:postgres: drop episode role %s: %w", name, err)
	}
	return nil
}

// stop shuts the server down at once (the data is thrown away) and
// removes its directory.
func (c *cluster) stop() error {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-c.done:
		case <-time.After(30 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	}
	if err := os.RemoveAll(c.base); err != nil {
		return fmt.Errorf("mcp:postgres: remove the cluster: %w", err)
	}
	return nil
}

// removeLeakedClusters removes the cluster dirs of processes that no
// longer exist (killed before they could stop their cluster; the server
// itself got SIGQUIT when they died).
func removeLeakedClusters() {
	ents, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range ents {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(e.Name(), clusterPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !e.IsDir() || !strings.HasPrefix(e.Name(), clusterPrefix) || !ok || err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			_ = os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return s
}
