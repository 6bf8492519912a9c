package mcptask

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShadowTamperIsPotent: the shadow TestPostgresTamper plants (a schema
// evil first on the role's default search_path, holding the checked table
// with the expected rows) fools a check that runs on a connection taking
// the role's defaults, and not verify, which sets search_path itself.
func TestShadowTamperIsPotent(t *testing.T) {
	if err := PostgresUsable(); err != nil {
		t.Skip(err)
	}
	tasks, err := ShippedTasks(ServicePostgres)
	require.NoError(t, err)
	var task *Task
	for _, x := range tasks {
		if x.Name == "restock" {
			task = x
		}
	}
	require.NotNil(t, task)
	b, err := newPostgresBackend()
	require.NoError(t, err)
	defer b.close()
	ctx := context.Background()
	ep := &pgEpisode{b: b, t: task, started: true}
	require.NoError(t, b.start(ctx, ep, task))
	defer ep.remove()
	_, err = ep.db.execute(ctx, "CREATE SCHEMA evil; CREATE TABLE evil.products AS SELECT id, name, category, price, CASE WHEN stock < 10 THEN stock + 50 ELSE stock END AS stock FROM public.products; ALTER ROLE CURRENT_USER SET search_path = evil, public")
	require.NoError(t, err)
	require.NoError(t, ep.stop())

	naive, err := ep.c.connect(ctx, ep.name, ep.name) // the role's defaults
	require.NoError(t, err)
	defer naive.Close(ctx)
	require.NoError(t, checkSQL(ctx, naive, task.Spec.Checks[0].SQL), "the shadow should fool a check on the role's search_path")

	res, err := ep.verify(task)
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Equal(t, "returned f, want true", res[0].fail)
}
