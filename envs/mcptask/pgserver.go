package mcptask

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxRows is the most rows a tool result shows.
const maxRows = 200

// pgConn is the server's connection to one database, opened again when a
// cancelled call closed it.
type pgConn struct {
	mu   sync.Mutex
	dial func(ctx context.Context) (*pgx.Conn, error)
	conn *pgx.Conn
}

func (p *pgConn) get(ctx context.Context) (*pgx.Conn, error) {
	if p.conn == nil || p.conn.IsClosed() {
		c, err := p.dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("connect to the database: %w", err)
		}
		p.conn = c
	}
	return p.conn, nil
}

func (p *pgConn) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		_ = p.conn.Close(context.Background())
		p.conn = nil
	}
}

// sqlArgs are the arguments of query and execute.
type sqlArgs struct {
	SQL string `json:"sql" jsonschema:"the SQL to run"`
}

// schemaArgs are the arguments of list_schema.
type schemaArgs struct {
	Schema string `json:"schema,omitempty" jsonschema:"only this schema (default: every schema but the system ones)"`
}

// newPGServer returns gemgo's PostgreSQL MCP server over db, with three
// tools: query (one statement in a read-only transaction), execute (any
// SQL, several statements allowed: PostgreSQL's simple protocol runs them
// as one implicit transaction; one the SQL opens itself must end in the
// same call) and list_schema (tables, views and their columns).
func newPGServer(db *pgConn) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gemgo-postgres", Version: "v0"}, nil)
	text := func(s string, err error) (*mcp.CallToolResult, any, error) {
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "query", Description: "Run one read-only SQL statement (SELECT, WITH, EXPLAIN, SHOW) in a read-only transaction and return its rows (at most 200 shown)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in sqlArgs) (*mcp.CallToolResult, any, error) {
			return text(db.query(ctx, in.SQL))
		})
	mcp.AddTool(s, &mcp.Tool{Name: "execute", Description: "Run SQL that may change the database (CREATE, INSERT, UPDATE, DELETE, ALTER, ...); several statements separated by ';' are allowed: they run in order as one transaction, so that if one fails none takes effect (unless the SQL holds its own BEGIN and COMMIT; a transaction left open at the end of the call is rolled back). Returns each statement's result."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in sqlArgs) (*mcp.CallToolResult, any, error) {
			return text(db.execute(ctx, in.SQL))
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_schema", Description: "List the database's tables and views with their columns, types, NOT NULL and primary keys."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in schemaArgs) (*mcp.CallToolResult, any, error) {
			return text(db.listSchema(ctx, in.Schema))
		})
	return s
}

// query runs one statement in a read-only transaction, rolled back.
func (p *pgConn) query(ctx context.Context, sql string) (string, error) {
	if strings.TrimSpace(sql) == "" {
		return "", errors.New("sql is empty: give one statement")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c, err := p.get(ctx)
	if err != nil {
		return "", err
	}
	pc := c.PgConn()
	if _, err := pc.Exec(ctx, "BEGIN READ ONLY").ReadAll(); err != nil {
		return "", pgError(err)
	}
	defer func() { _, _ = pc.Exec(context.Background(), "ROLLBACK").ReadAll() }()
	// The extended protocol runs exactly one statement; no result formats:
	// every column comes back as text.
	res := pc.ExecParams(ctx, sql, nil, nil, nil, nil).Read()
	if res.Err != nil {
		return "", pgError(res.Err)
	}
	return render(res), nil
}

// execute runs sql with the simple protocol (several statements).
func (p *pgConn) execute(ctx context.Context, sql string) (string, error) {
	if strings.TrimSpace(sql) == "" {
		return "", errors.New("sql is empty: give the statements to run")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c, err := p.get(ctx)
	if err != nil {
		return "", err
	}
	pc := c.PgConn()
	results, err := pc.Exec(ctx, sql).ReadAll()
	var parts []string
	for _, r := range results {
		if r.Err == nil {
			parts = append(parts, render(r))
		}
	}
	if st := pc.TxStatus(); st == 'T' || st == 'E' {
		_, _ = pc.Exec(context.Background(), "ROLLBACK").ReadAll()
		parts = append(parts, "ROLLBACK (a transaction was left open: it was rolled back; end it with COMMIT in the same call)")
	}
	if err != nil {
		return "", pgError(err)
	}
	return strings.Join(parts, "\n"), nil
}

const schemaSQL = `SELECT c.table_schema, c.table_name, t.table_type, c.column_name, c.data_type, c.is_nullable,
  EXISTS (SELECT 1 FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
    WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = c.table_schema AND tc.table_name = c.table_name
      AND k.column_name = c.column_name)
FROM information_schema.columns c
JOIN information_schema.tables t USING (table_schema, table_name)
WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND ($1 = '' OR c.table_schema = $1)
ORDER BY 1, 2, c.ordinal_position`

// listSchema describes the tables and views.
func (p *pgConn) listSchema(ctx context.Context, schema string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, err := p.get(ctx)
	if err != nil {
		return "", err
	}
	rows, err := c.Query(ctx, schemaSQL, schema)
	if err != nil {
		return "", pgError(err)
	}
	defer rows.Close()
	var b strings.Builder
	last := ""
	for rows.Next() {
		var sch, table, kind, col, typ, nullable string
		var pk bool
		if err := rows.Scan(&sch, &table, &kind, &col, &typ, &nullable, &pk); err != nil {
			return "", err
		}
		if name := sch + "." + table; name != last {
			last = name
			switch kind {
			case "BASE TABLE":
				kind = "table"
			default:
				kind = strings.ToLower(kind)
			}
			fmt.Fprintf(&b, "%s (%s)\n", name, kind)
		}
		fmt.Fprintf(&b, "  %s %s", col, typ)
		if nullable == "NO" {
			b.WriteString(" not null")
		}
		if pk {
			b.WriteString(" primary key")
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		return "", pgError(err)
	}
	if last == "" {
		return "(no tables)", nil
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// render writes a result: its rows as a table with a header (NULL for a
// null), at most maxRows of them, then the command tag.
func render(r *pgconn.Result) string {
	tag := r.CommandTag.String()
	if len(r.FieldDescriptions) == 0 {
		return tag
	}
	var b strings.Builder
	for i, f := range r.FieldDescriptions {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(f.Name)
	}
	b.WriteByte('\n')
	for i, row := range r.Rows {
		if i == maxRows {
			fmt.Fprintf(&b, "(%d more rows not shown)\n", len(r.Rows)-maxRows)
			break
		}
		for j, v := range row {
			if j > 0 {
				b.WriteString(" | ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.Write(v)
			}
		}
		b.WriteByte('\n')
	}
	if len(r.Rows) == 1 {
		b.WriteString("(1 row)")
	} else {
		fmt.Fprintf(&b, "(%d rows)", len(r.Rows))
	}
	return b.String()
}

// pgError is a database error as the agent reads it: PostgreSQL's message,
// detail and hint.
func pgError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		msg := "ERROR: " + pe.Message
		if pe.Detail != "" {
			msg += "\nDETAIL: " + pe.Detail
		}
		if pe.Hint != "" {
			msg += "\nHINT: " + pe.Hint
		}
		return errors.New(msg)
	}
	return err
}
