package mcptask_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/builtin"
	"github.com/gemgo/gemgo/envs/mcptask"
)

// needPostgres skips a test where PostgreSQL cannot run.
func needPostgres(t *testing.T) {
	t.Helper()
	if err := mcptask.PostgresUsable(); err != nil {
		t.Skip(err)
	}
}

func postgresEnv(t *testing.T, opts ...envs.Option) *mcptask.Env {
	t.Helper()
	needPostgres(t)
	env, err := builtin.Registry().Make("mcp:postgres-sample", opts...)
	require.NoError(t, err)
	t.Cleanup(func() { envs.Close(env) })
	return envs.Unwrapped(env).(*mcptask.Env)
}

// TestPostgresReferenceSolutions: every shipped postgres task's reference
// solution scores 1.0 and doing nothing (answering at once) scores 0
// (with -short, the first two tasks).
func TestPostgresReferenceSolutions(t *testing.T) {
	tasks, err := mcptask.ShippedTasks(mcptask.ServicePostgres)
	require.NoError(t, err)
	if testing.Short() {
		tasks = tasks[:2] // every episode starts a server or a database
	}
	for _, task := range tasks {
		t.Run(task.Name, func(t *testing.T) {
			env := postgresEnv(t, envs.With("task", task.Name))
			_, _, err := env.Reset(1)
			require.NoError(t, err)
			_, st := play(t, env, 1, env.SolutionActions())
			require.Equal(t, 1.0, st.Reward, "%s\n%v", st.Obs, st.Info["checks"])
			require.True(t, st.Terminated)
			_, st = play(t, env, 1, []string{"Done."})
			require.Equal(t, 0.0, st.Reward, "doing nothing passes: %v", st.Info["checks"])
		})
	}
}

// TestPostgresTamper: an agent of the restock task that shadows the
// checked table (a schema evil first on its role's and its database's
// default search_path, holding the expected rows), makes its role's
// sessions read-only, and tries to alter the template, make roles, gain
// superuser or write a server file, scores 0; each forbidden try is an
// error; and the next episode on the same env, a fresh role and database,
// is untouched: its reference solution scores 1.
func TestPostgresTamper(t *testing.T) {
	env := postgresEnv(t, envs.With("task", "restock"))
	call := func(tool, sql string) string {
		return callJSON(tool, map[string]any{"sql": sql})
	}
	_, _, err := env.Reset(1)
	require.NoError(t, err)
	st, err := env.Step(call("query", "SELECT datname FROM pg_database WHERE datistemplate AND datname LIKE 'tpl%'"))
	require.NoError(t, err)
	tpl := strings.Fields(strings.Split(st.Obs, "\n")[1])[0]
	require.True(t, strings.HasPrefix(tpl, "tpl_"), st.Obs)
	for _, sql := range []string{
		"CREATE SCHEMA evil; CREATE TABLE evil.products AS SELECT id, name, category, price, CASE WHEN stock < 10 THEN stock + 50 ELSE stock END AS stock FROM public.products",
		"ALTER ROLE CURRENT_USER SET search_path = evil, public",
		"DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET search_path = evil, public', current_database()); END $$",
		"ALTER ROLE CURRENT_USER SET default_transaction_read_only = on",
	} {
		st, err := env.Step(call("execute", sql))
		require.NoError(t, err)
		require.NotContains(t, st.Obs, "error", sql)
	}
	for _, sql := range []string{
		"ALTER DATABASE " + tpl + " RENAME TO gone",
		"DROP DATABASE " + tpl,
		"ALTER DATABASE " + tpl + " WITH ALLOW_CONNECTIONS true",
		"CREATE ROLE intruder LOGIN",
		"ALTER ROLE CURRENT_USER SUPERUSER",
		"COPY products TO '/tmp/gemgo-mcp-tamper.csv'",
		"CREATE EXTENSION dblink",
	} {
		st, err := env.Step(call("execute", sql))
		require.NoError(t, err)
		require.Contains(t, st.Obs, "[Tool execution error: ERROR:", sql)
	}
	st, err = env.Step("Done.")
	require.NoError(t, err)
	require.Equal(t, 0.0, st.Reward, "the shadow table passed the check: %v", st.Info["checks"])
	_, st = play(t, env, 1, env.SolutionActions())
	require.Equal(t, 1.0, st.Reward, "the next episode was touched: %s %v", st.Obs, st.Info["checks"])
}

// TestPostgresTools: query runs one statement, read-only; execute runs
// several and rolls back a transaction left open; errors and bad
// arguments are error observations that cost a turn.
func TestPostgresTools(t *testing.T) {
	env := postgresEnv(t, envs.With("task", "restock"))
	_, _, err := env.Reset(1)
	require.NoError(t, err)
	for _, c := range []struct{ action, want string }{
		{callJSON("query", map[string]any{"sql": "SELECT id, stock FROM products WHERE stock < 8 ORDER BY id"}), "id | stock\n4 | 5\n5 | 2\n(2 rows)"},
		{callJSON("query", map[string]any{"sql": "UPDATE products SET stock = 0"}), "[Tool execution error: ERROR: cannot execute UPDATE in a read-only transaction]"},
		{callJSON("query", map[string]any{"sql": "SELECT 1; SELECT 2"}), "[Tool execution error: ERROR: cannot insert multiple commands into a prepared statement]"},
		{callJSON("execute", map[string]any{"sql": "BEGIN; UPDATE products SET stock = 0"}), "BEGIN\nUPDATE 7\nROLLBACK (a transaction was left open: it was rolled back; end it with COMMIT in the same call)"},
		{callJSON("execute", map[string]any{"sql": "UPDATE products SET stock = 1 WHERE id = 1; SELEC 1"}), "[Tool execution error: ERROR: syntax error at or near \"SELEC\"]"},
		{callJSON("execute", map[string]any{"sql": "UPDATE products SET stock = 1 WHERE id = 1; SELECT 1/0"}), "[Tool execution error: ERROR: division by zero]"},
		{callJSON("query", map[string]any{"sql": "SELECT stock, NULL AS x FROM products WHERE id = 1"}), "stock | x\n120 | NULL\n(1 row)"}, // the failed calls changed nothing
		{callJSON("execute", map[string]any{"sql": "UPDATE products SET stock = 1 WHERE id = 1; SELECT stock FROM products WHERE id = 1"}), "UPDATE 1\nstock\n1\n(1 row)"},
		{callJSON("list_schema", map[string]any{"schema": "nope"}), "(no tables)"},
		{callJSON("query", map[string]any{}), `[Tool execution error: validating "arguments": validating root: required: missing properties: ["sql"]]`},
		{`<tool_call><tool_name>drop_all</tool_name><arguments>{}</arguments></tool_call>`, `[Tool call error: unknown tool "drop_all": the tools are execute, list_schema, query]`},
		{`<tool_call><tool_name>query</tool_name><arguments>{"sql": </arguments></tool_call>`, `[Tool call error: the arguments of query are not a JSON object: "{\"sql\":"]`},
	} {
		st, err := env.Step(c.action)
		require.NoError(t, err)
		require.False(t, st.Done())
		require.Equal(t, c.want, st.Obs, c.action)
	}
}
