package mcptask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/tools/protocol"
)

// backend is a service: it opens an episode's state and MCP session.
type backend interface {
	// open lays out t's initial state and connects a client session to a
	// server on it.
	open(ctx context.Context, t *Task) (episode, error)
	// close releases what the backend holds (a cluster reference).
	close() error
}

// episode is one episode's state and session.
type episode interface {
	// session returns the episode's client session, connecting first if
	// need be.
	session(ctx context.Context) (*mcp.ClientSession, error)
	// toServer rewrites the agent's arguments for the server (the files
	// service maps its virtual root to the episode's dir); fromServer
	// rewrites the server's text for the agent.
	toServer(args map[string]any)
	fromServer(text string) string
	// stop ends the agent's access: the session and the server go.
	stop() error
	// verify runs t's checks on the state left (after stop).
	verify(t *Task) ([]checkResult, error)
	// remove deletes the state.
	remove() error
}

// Config is what an env is built from; zero fields take the task's value
// or the default.
type Config struct {
	// MaxTurns overrides every task's max_turns.
	MaxTurns int
	// OutputBytes is the most of a tool result an observation shows (head
	// and tail); default 8192.
	OutputBytes int
}

// Env is an MCPMark-style task: the agent calls one service's MCP tools
// until it answers without a call, then checks it never saw score the
// state it left.
type Env struct {
	tasks   []*Task
	cfg     Config
	backend backend
	service string

	cur    *Task
	ep     episode
	funcs  []protocol.Function
	instr  string
	turn   int
	used   time.Duration
	active bool
}

var (
	_ envs.Env           = (*Env)(nil)
	_ envs.ActionSampler = (*Env)(nil)
	_ envs.SolverMaker   = (*Env)(nil)
)

// newEnv returns an env over tasks, which must all use b's service.
func newEnv(tasks []*Task, cfg Config, service string, b backend) (*Env, error) {
	if len(tasks) == 0 {
		return nil, errors.New("mcp task: no tasks: give at least one")
	}
	for _, t := range tasks {
		if t.Spec.Service != service {
			return nil, fmt.Errorf("mcp task %s: service %s, but this env serves %s tasks (give %s tasks only)", t.Name, t.Spec.Service, service, service)
		}
	}
	if cfg.OutputBytes <= 0 {
		cfg.OutputBytes = 8192
	}
	return &Env{tasks: tasks, cfg: cfg, backend: b, service: service}, nil
}

// Tasks returns the env's tasks (not a copy: do not modify them).
func (e *Env) Tasks() []*Task { return e.tasks }

// Close ends the episode, removes its state and releases the service.
func (e *Env) Close() error {
	e.active = false
	return errors.Join(e.endEpisode(), e.backend.close())
}

func (e *Env) endEpisode() error {
	if e.ep == nil {
		return nil
	}
	err := errors.Join(e.ep.stop(), e.ep.remove())
	e.ep = nil
	return err
}

func (e *Env) maxTurns() int {
	if e.cfg.MaxTurns > 0 {
		return e.cfg.MaxTurns
	}
	return e.cur.Spec.MaxTurns
}

// Len is the number of tasks: seeds s … s+Len()−1 play each once
// (cmd/eval -episodes all).
func (e *Env) Len() int { return len(e.tasks) }

// Reset starts the episode of task seed mod Len() (the tasks sorted by
// name): it lays out the task's initial state and returns the instruction
// followed by the tools.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.active = false
	if err := e.endEpisode(); err != nil {
		return "", nil, err
	}
	e.cur = e.tasks[seed%uint64(len(e.tasks))]
	e.turn, e.used = 0, 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ep, err := e.backend.open(ctx, e.cur)
	if err != nil {
		return "", nil, err
	}
	e.ep = ep
	if e.funcs == nil {
		if err := e.listTools(ctx); err != nil {
			return "", nil, errors.Join(err, e.endEpisode())
		}
	}
	e.active = true
	return e.prompt(), envs.Info{envs.InfoMaxTurns: e.maxTurns(), "task": e.cur.Name}, nil
}

// toolLister is a backend that can list its tools without an episode's
// state (the postgres server's tools are fixed).
type toolLister interface {
	listSession(ctx context.Context) (cs *mcp.ClientSession, done func(), err error)
}

// listTools lists the service's tools once (every episode's server is the
// same program).
func (e *Env) listTools(ctx context.Context) error {
	var cs *mcp.ClientSession
	var err error
	if l, ok := e.backend.(toolLister); ok {
		var done func()
		if cs, done, err = l.listSession(ctx); err != nil {
			return err
		}
		defer done()
	} else if cs, err = e.ep.session(ctx); err != nil {
		return err
	}
	var fs []protocol.Function
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("mcp task: list the %s server's tools: %w", e.service, err)
		}
		schema, ok := t.InputSchema.(map[string]any)
		if !ok && t.InputSchema != nil {
			schema = protocol.FunctionSchema(t.InputSchema)
		}
		fs = append(fs, protocol.Function{Kind: protocol.KindMCP, Name: t.Name, Description: e.ep.fromServer(t.Description), Parameters: schema})
	}
	if len(fs) == 0 {
		return fmt.Errorf("mcp task: the %s server lists no tools", e.service)
	}
	slices.SortFunc(fs, func(a, b protocol.Function) int { return strings.Compare(a.Name, b.Name) })
	e.funcs, e.instr = fs, protocol.MCPInstructions(fs)
	return nil
}

// Functions returns the service's tools as functions (after a Reset), for
// native function calling (cmd/eval -tool-protocol native).
func (e *Env) Functions() ([]protocol.Function, error) {
	if e.funcs == nil {
		return nil, errors.New("mcp task: the tools are listed at the first Reset")
	}
	return e.funcs, nil
}

// Instructions is the tools' block that ends the first observation.
func (e *Env) Instructions() string { return e.instr }

// Route returns the call Step would run for action, if it holds one.
func (e *Env) Route(action string) (protocol.Call, bool) { return protocol.ParseMCP(action) }

// prompt is the episode's first observation.
func (e *Env) prompt() string {
	note := "The files are under /files; use paths there (/files/...)."
	if e.service == ServicePostgres {
		note = "Use the PostgreSQL tools; the connection to the database is already configured."
	}
	return strings.TrimSpace(e.cur.Spec.Instruction) + "\n\n" + note +
		" Solve the task entirely by yourself with the tools; do not ask for confirmation. When you are done, reply with your final answer without a tool call: that ends the episode and your work is checked." +
		fmt.Sprintf(" You have %d replies.\n\n", e.maxTurns()) + e.instr
}

// Step handles one reply. A reply with a tool call runs it (an unknown
// tool or arguments that are not a JSON object give an error observation
// and cost the turn); a reply without one is the final answer and ends
// the episode (terminated). The turn cap and the time budget end it too
// (truncated). Rewards are 0 until the end, then 1 when every check holds.
func (e *Env) Step(text string) (envs.Step, error) {
	if !e.active {
		return envs.Step{}, envs.ErrNotReset
	}
	e.turn++
	info := envs.Info{envs.InfoTurn: e.turn, "task": e.cur.Name}
	c, ok := protocol.ParseMCP(text)
	if !ok {
		if strings.Contains(text, "<tool_call>") {
			info[envs.InfoFormatError] = true
			return e.next(info, "[Tool call error: the reply opens <tool_call> but holds no complete call; write "+
				`<tool_call><tool_name>NAME</tool_name><arguments>{"name": "value"}</arguments></tool_call>]`)
		}
		return e.end(info, "You answered.", true)
	}
	info["tool"] = c.Name
	obs, err := e.call(c, info)
	if err != nil {
		e.active = false
		return envs.Step{}, err
	}
	return e.next(info, obs)
}

// next returns a step that continues the episode, unless a limit ends it.
func (e *Env) next(info envs.Info, obs string) (envs.Step, error) {
	switch {
	case e.turn >= e.maxTurns():
		info["truncated_by"] = "max_turns"
		return e.end(info, obs+"\n\nThat was your last reply (the turn limit).", false)
	case e.used >= seconds(e.cur.Spec.TimeBudgetSec):
		info["truncated_by"] = "time_budget_sec"
		return e.end(info, obs+"\n\nThe episode's tool time is used up.", false)
	}
	return envs.Step{Obs: obs, Info: info}, nil
}

// call runs one tool call and returns the observation.
func (e *Env) call(c protocol.Call, info envs.Info) (string, error) {
	if !slices.ContainsFunc(e.funcs, func(f protocol.Function) bool { return f.Name == c.Name }) {
		info["tool_error"] = true
		names := make([]string, len(e.funcs))
		for i, f := range e.funcs {
			names[i] = f.Name
		}
		return fmt.Sprintf("[Tool call error: unknown tool %q: the tools are %s]", c.Name, strings.Join(names, ", ")), nil
	}
	args := map[string]any{}
	if c.Input != "" {
		if err := json.Unmarshal([]byte(c.Input), &args); err != nil || args == nil {
			info["tool_error"] = true
			return fmt.Sprintf("[Tool call error: the arguments of %s are not a JSON object: %s]", c.Name, clip(c.Input)), nil
		}
	}
	e.ep.toServer(args)
	sctx, scancel := context.WithTimeout(context.Background(), time.Minute)
	defer scancel()
	cs, err := e.ep.session(sctx) // a server's start is not the agent's time
	if err != nil {
		return "", err
	}
	timeout := min(seconds(e.cur.Spec.CallTimeoutSec), max(seconds(e.cur.Spec.TimeBudgetSec)-e.used, 100*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.Name, Arguments: args})
	e.used += time.Since(start)
	if err != nil {
		info["tool_error"] = true
		if ctx.Err() != nil {
			return fmt.Sprintf("[Tool execution error: %s timed out after %s]", c.Name, timeout), nil
		}
		return "[Tool execution error: " + e.ep.fromServer(err.Error()) + "]", nil
	}
	text := headTail(e.ep.fromServer(resultText(res)), e.cfg.OutputBytes)
	if res.IsError {
		info["tool_error"] = true
		return "[Tool execution error: " + text + "]", nil
	}
	return text, nil
}

// resultText is a result's text contents joined by "\n", or its
// structured content as JSON when it has no text.
func resultText(res *mcp.CallToolResult) string {
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
	if len(texts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			return string(b)
		}
	}
	return strings.Join(texts, "\n")
}

// end stops the agent's access, runs the checks and ends the episode.
func (e *Env) end(info envs.Info, obs string, terminated bool) (envs.Step, error) {
	e.active = false
	if err := e.ep.stop(); err != nil {
		return envs.Step{}, err
	}
	res, err := e.ep.verify(e.cur)
	if err != nil {
		return envs.Step{}, err
	}
	passed := 0
	checks := make(map[string]any, len(res))
	for _, r := range res {
		if r.fail == "" {
			passed++
			checks[r.label] = "passed"
		} else {
			checks[r.label] = r.fail
		}
	}
	info["passed"], info["total"], info["checks"] = passed, len(res), checks
	reward := 0.0
	if passed == len(res) && len(res) > 0 {
		reward = 1
	}
	info[envs.InfoSuccess] = reward == 1
	summary := fmt.Sprintf("%d of %d checks passed; reward %g.", passed, len(res), reward)
	if err := e.endEpisode(); err != nil {
		return envs.Step{}, err
	}
	return envs.Step{Obs: obs + "\n" + summary, Reward: reward, Terminated: terminated, Truncated: !terminated, Info: info}, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// headTail keeps at most budget bytes of s: its head and its tail, with a
// marker saying how much was cut between them.
func headTail(s string, budget int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= budget {
		return s
	}
	h, t := budget/2, len(s)-budget/2
	for h > 0 && !utf8Start(s[h]) {
		h--
	}
	for t < len(s) && !utf8Start(s[t]) {
		t++
	}
	return fmt.Sprintf("%s\n[... %d bytes cut ...]\n%s", s[:h], t-h, s[t:])
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
