package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemgo/gemgo/tools/protocol"
)

// MCPConfig configures the MCP tool: one server, over stdio (Command) or
// streamable HTTP (Endpoint).
type MCPConfig struct {
	// Command starts a stdio server: the program and its arguments.
	Command []string
	// Endpoint is a streamable HTTP server's URL (instead of Command).
	Endpoint string
	// Timeout bounds one attempt of a call, connection included (30 s).
	Timeout time.Duration
	// Retries is how many times a call that failed to reach the server is
	// tried again (3; -1 for none). A tool's own error is not retried.
	Retries int
	// RetryDelay is the pause before a retry (1 s).
	RetryDelay time.Duration
}

func (c MCPConfig) withDefaults() MCPConfig {
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Retries == 0 {
		c.Retries = 3
	}
	if c.Retries < 0 {
		c.Retries = 0
	}
	if c.RetryDelay <= 0 {
		c.RetryDelay = time.Second
	}
	return c
}

// budget is the longest a call can take: every attempt and every pause.
func (c MCPConfig) budget() time.Duration {
	c = c.withDefaults()
	return time.Duration(c.Retries+1)*c.Timeout + time.Duration(c.Retries)*c.RetryDelay
}

// MCP calls the tools of one MCP server. The server's tools are listed
// once, when the tool is made, and shown in the instructions as JSON
// function definitions inside <tools></tools>. A call is
//
//	<tool_call><tool_name>NAME</tool_name><arguments>{JSON}</arguments></tool_call>
//
// Unlike GEM, which opens a client session for every call, the tool opens
// one session per episode, at its first call, and closes it at the next
// Reset (EndEpisode): a stdio server is one process per episode, and its
// state (a key-value store, say) lasts the episode. Observation: the
// structured result as JSON when the server gives one, else the text
// contents joined by "\n"; a failed call is "[Tool execution error: …]".
type MCP struct {
	cfg          MCPConfig
	client       *mcp.Client
	tools        []*mcp.Tool
	instructions string
	session      *mcp.ClientSession
	sessions     int
}

var (
	_ Tool        = (*MCP)(nil)
	_ CallSampler = (*MCP)(nil)
	_ Episodic    = (*MCP)(nil)
)

// NewMCP connects to the server once to list its tools.
func NewMCP(cfg MCPConfig) (*MCP, error) {
	if (len(cfg.Command) == 0) == (cfg.Endpoint == "") {
		return nil, errors.New("mcp tool: give exactly one of a command (stdio server) and an endpoint (streamable HTTP)")
	}
	m := &MCP{cfg: cfg.withDefaults(), client: mcp.NewClient(&mcp.Implementation{Name: "gemgo", Version: "v0"}, nil)}
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Timeout)
	defer cancel()
	cs, err := m.connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp tool: %w", err)
	}
	defer cs.Close()
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcp tool: list tools of %s: %w", m.server(), err)
		}
		m.tools = append(m.tools, t)
	}
	if len(m.tools) == 0 {
		return nil, fmt.Errorf("mcp tool: the server %s lists no tools", m.server())
	}
	slices.SortFunc(m.tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	m.instructions = m.describe()
	return m, nil
}

func (m *MCP) server() string {
	if m.cfg.Endpoint != "" {
		return m.cfg.Endpoint
	}
	return strings.Join(m.cfg.Command, " ")
}

func (m *MCP) connect(ctx context.Context) (*mcp.ClientSession, error) {
	var t mcp.Transport
	if m.cfg.Endpoint != "" {
		t = &mcp.StreamableClientTransport{Endpoint: m.cfg.Endpoint, MaxRetries: -1}
	} else {
		if _, err := exec.LookPath(m.cfg.Command[0]); err != nil {
			return nil, fmt.Errorf("server command %q not found: %w", m.cfg.Command[0], err)
		}
		t = &mcp.CommandTransport{Command: exec.Command(m.cfg.Command[0], m.cfg.Command[1:]...), TerminateDuration: time.Second}
	}
	cs, err := m.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", m.server(), err)
	}
	m.sessions++
	return cs, nil
}

// Sessions returns how many client sessions the tool has opened, the one
// that listed the tools included.
func (m *MCP) Sessions() int { return m.sessions }

// ToolNames returns the server's tool names, sorted.
func (m *MCP) ToolNames() []string {
	out := make([]string, len(m.tools))
	for i, t := range m.tools {
		out[i] = t.Name
	}
	return out
}

// describe lists the tools with their input schemas exactly as the server
// gave them: the client holds each as a map[string]any (the go-sdk's
// mcp.Tool.InputSchema), or nil for none (written null); any other value
// would go through protocol.FunctionSchema.
func (m *MCP) describe() string {
	fs := make([]protocol.Function, len(m.tools))
	for i, t := range m.tools {
		schema, ok := t.InputSchema.(map[string]any)
		if !ok && t.InputSchema != nil {
			schema = protocol.FunctionSchema(t.InputSchema)
		}
		fs[i] = protocol.Function{Kind: protocol.KindMCP, Name: t.Name, Description: t.Description, Parameters: schema}
	}
	return protocol.MCPInstructions(fs)
}

// Instructions lists the server's tools.
func (m *MCP) Instructions() string { return m.instructions }

// Parse finds the first complete tool call (protocol.ParseMCP).
func (m *MCP) Parse(action string) (protocol.Call, bool) { return protocol.ParseMCP(action) }

func toolError(err error) string { return "[Tool execution error: " + err.Error() + "]" }

// Run calls the tool on this episode's session, opening it on first use.
func (m *MCP) Run(ctx context.Context, c protocol.Call) (string, error) {
	if !slices.ContainsFunc(m.tools, func(t *mcp.Tool) bool { return t.Name == c.Name }) {
		err := fmt.Errorf("unknown tool %q: the tools are %s", c.Name, strings.Join(m.ToolNames(), ", "))
		return toolError(err), err
	}
	args := map[string]any{}
	if c.Input != "" {
		if err := json.Unmarshal([]byte(c.Input), &args); err != nil || args == nil {
			err := fmt.Errorf("the arguments of %s are not a JSON object: %q", c.Name, truncate(c.Input, 200, false))
			return toolError(err), err
		}
	}
	var last error
	for attempt := 0; attempt <= m.cfg.Retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return toolError(last), last
			case <-time.After(m.cfg.RetryDelay):
			}
		}
		res, err := m.attempt(ctx, c.Name, args)
		if err == nil {
			return m.observe(res)
		}
		last = err
		m.dropSession() // a broken session is not reused
		if ctx.Err() != nil {
			break
		}
	}
	return toolError(last), last
}

func (m *MCP) attempt(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	actx, cancel := context.WithTimeout(ctx, m.cfg.Timeout)
	defer cancel()
	if m.session == nil {
		cs, err := m.connect(actx)
		if err != nil {
			return nil, err
		}
		m.session = cs
	}
	res, err := m.session.CallTool(actx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("call %s: timed out after %v", name, m.cfg.Timeout)
		}
		return nil, fmt.Errorf("call %s: %w", name, err)
	}
	return res, nil
}

// observe turns a result into the observation.
func (m *MCP) observe(res *mcp.CallToolResult) (string, error) {
	var texts []string
	for _, c := range res.Content {
		switch x := c.(type) {
		case *mcp.TextContent:
			texts = append(texts, x.Text)
		case *mcp.ImageContent:
			texts = append(texts, "[image "+x.MIMEType+"]")
		case *mcp.AudioContent:
			texts = append(texts, "[audio "+x.MIMEType+"]")
		case *mcp.ResourceLink:
			texts = append(texts, "[resource "+x.URI+"]")
		case *mcp.EmbeddedResource:
			if x.Resource != nil {
				texts = append(texts, x.Resource.Text)
			}
		}
	}
	text := strings.Join(texts, "\n")
	if res.IsError {
		err := errors.New(text)
		return toolError(err), err
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b), nil
		}
	}
	return text, nil
}

func (m *MCP) dropSession() {
	if m.session != nil {
		_ = m.session.Close()
		m.session = nil
	}
}

// EndEpisode closes the episode's session (a stdio server's process ends).
func (m *MCP) EndEpisode() error {
	m.dropSession()
	return nil
}

// Close ends the episode's session.
func (m *MCP) Close() error { return m.EndEpisode() }

var sampleWords = []string{"alpha", "notes", "7", "blue", "x", "report"}

// SampleCall draws a call of a random server tool with arbitrary arguments
// of the types its schema names.
func (m *MCP) SampleCall(r *rand.Rand, _ string) string {
	t := m.tools[r.IntN(len(m.tools))]
	args := map[string]any{}
	if s, ok := t.InputSchema.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			switch p["type"] {
			case "number", "integer":
				args[name] = r.IntN(100)
			case "boolean":
				args[name] = r.IntN(2) == 0
			default:
				args[name] = sampleWords[r.IntN(len(sampleWords))]
			}
		}
	}
	b, _ := json.Marshal(args)
	return "<tool_call><tool_name>" + t.Name + "</tool_name><arguments>" + string(b) + "</arguments></tool_call>"
}
