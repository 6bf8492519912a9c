package terminal

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// maxCommandBytes bounds a command: it travels as one argument of bash -c,
// and Linux refuses a single argument over 128 KiB.
const maxCommandBytes = 64 << 10

// action is one parsed agent action.
type action struct {
	finish  bool
	cmd     string
	timeout time.Duration // from a YAML body's timeout_secs; 0: the default
	err     string        // why the action is not valid ("" when it is)
}

// parseAction reads the first <bash> or <finish> tag of text. A <bash>
// body is the command as written (raw), or GEM's YAML mapping with cmd
// (and optional timeout_secs) when the body parses as one. Text around
// the tag, other tags included, is ignored.
func parseAction(text string) action {
	b := strings.Index(text, "<bash>")
	f := strings.Index(text, "<finish")
	if f >= 0 {
		rest := text[f+len("<finish"):]
		if !strings.HasPrefix(rest, ">") && !strings.HasPrefix(rest, "/>") {
			f = -1 // <finishing>, <finish_up>: not the tag
		}
	}
	switch {
	case b < 0 && f < 0:
		return action{err: "No action found: reply with one <bash>COMMAND</bash> to run a command, or <finish></finish> when the task is done."}
	case f >= 0 && (b < 0 || f < b):
		return action{finish: true}
	}
	body, _, closed := strings.Cut(text[b+len("<bash>"):], "</bash>")
	if !closed {
		return action{err: "The <bash> tag is not closed: write <bash>COMMAND</bash>."}
	}
	a := action{cmd: body}
	if m, ok := yamlBody(body); ok {
		cmd, _ := m["cmd"].(string)
		a.cmd = cmd
		switch t := m["timeout_secs"].(type) {
		case int:
			a.timeout = time.Duration(t) * time.Second
		case float64:
			a.timeout = time.Duration(t * float64(time.Second))
		}
		if a.timeout < 0 {
			a.timeout = 0
		}
	}
	a.cmd = strings.TrimSpace(a.cmd)
	switch {
	case a.cmd == "":
		a.err = "The <bash> command is empty: write <bash>COMMAND</bash>."
	case len(a.cmd) > maxCommandBytes:
		a.err = fmt.Sprintf("The command is %d bytes; the most is %d: write long files in parts (for example with several heredocs).", len(a.cmd), maxCommandBytes)
	case strings.ContainsRune(a.cmd, 0):
		a.err = "The command holds a NUL byte, which bash cannot take."
	}
	return a
}

// yamlBody reads body as GEM's YAML form, a mapping with a string cmd.
func yamlBody(body string) (map[string]any, bool) {
	t := strings.TrimSpace(body)
	if len(t) > maxCommandBytes || !(strings.HasPrefix(t, "cmd:") || strings.HasPrefix(t, "{") || strings.Contains(t, "\ncmd:")) {
		return nil, false
	}
	var m map[string]any
	if yaml.Unmarshal([]byte(t), &m) != nil {
		return nil, false
	}
	if _, ok := m["cmd"].(string); !ok {
		return nil, false
	}
	return m, true
}
