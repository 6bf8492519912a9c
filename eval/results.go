package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/gemgo/gemgo/chat"
)

// File names in an evaluation's output directory.
const (
	ResultsFile  = "results.jsonl"
	MetadataFile = "metadata.json"
	ReportFile   = "report.html"
	TableFile    = "results.md"
)

// Key names one episode.
type Key struct {
	Policy string `json:"policy"`
	Env    string `json:"env"`
	Seed   uint64 `json:"seed"`
	Sample int    `json:"sample"`
}

// Record is one line of results.jsonl: one episode.
type Record struct {
	Key
	// PolicyID is the Named.ID of the policy that played it: a
	// checkpoint's content ("sha256:…"); "" for the others.
	PolicyID string         `json:"policy_id,omitempty"`
	Settings string         `json:"settings"` // Config.EpisodeHash of the run that played it
	Messages []chat.Message `json:"messages"`
	// NativeMessages is, with -tool-protocol native, the conversation as
	// the endpoint saw it: the tools' calls (tool_calls) and results (role
	// tool); Messages is the env's side, the calls in their text form.
	NativeMessages   []chat.Message `json:"native_messages,omitempty"`
	Rewards          []float64      `json:"rewards"` // one per turn
	Return           float64        `json:"return"`  // the sum of Rewards
	Success          bool           `json:"success"`
	Turns            int            `json:"turns"`
	FinishReasons    []string       `json:"finish_reasons,omitempty"` // one per turn, for chat models
	PromptTokens     int            `json:"prompt_tokens"`
	CompletionTokens int            `json:"completion_tokens"`
	LatencyS         float64        `json:"latency_s"` // wall time of the episode
	Error            string         `json:"error,omitempty"`
}

// resultsFile appends records, one fsynced line each.
type resultsFile struct {
	mu sync.Mutex
	f  *os.File
}

// openResults reads the records of path (creating it when missing) and
// opens it for appending. A torn last line, the trace of a kill during a
// write, is cut off first, so the next record starts on a line of its own.
// The file is then reopened with O_APPEND: every write lands at the end
// of the file as it is at that moment, never over another line.
func openResults(path string) (*resultsFile, []Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %w", err)
	}
	recs, good, err := readRecords(f)
	if err == nil {
		err = f.Truncate(good)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("results %s: %w", path, err)
	}
	return &resultsFile{f: f}, recs, nil
}

// readRecords returns the records of complete lines and the offset after
// the last complete, valid line. A bad line in the middle is an error.
func readRecords(r io.Reader) ([]Record, int64, error) {
	br := bufio.NewReader(r)
	var recs []Record
	var off int64
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return recs, off, nil // a last line without newline is torn: dropped
		}
		if err != nil {
			return nil, 0, err
		}
		var rec Record
		if jerr := json.Unmarshal(bytes.TrimSpace(line), &rec); jerr != nil {
			if _, perr := br.Peek(1); errors.Is(perr, io.EOF) {
				return recs, off, nil // a torn last line that ends in a newline byte
			}
			return nil, 0, fmt.Errorf("line %d is not a result record (%v): the file is damaged; move it away to start over", n, jerr)
		}
		recs = append(recs, rec)
		off += int64(len(line))
	}
}

// append writes rec as one line and syncs it to disk.
func (r *resultsFile) append(rec Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return r.f.Sync()
}

func (r *resultsFile) Close() error { return r.f.Close() }

// ReadResults reads the records of a results.jsonl (a torn last line is
// left out).
func ReadResults(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, _, err := readRecords(f)
	if err != nil {
		return nil, fmt.Errorf("results %s: %w", path, err)
	}
	return recs, nil
}

// episodes indexes recs as a rerun sees them: for every key, its first
// record without an error, or else its last record. ids maps the name of
// each policy of the run to its Named.ID: a record of that name with
// another ID (a checkpoint file replaced since) is left out and counted
// in stale, so that the new content is played anew; it stays in the file,
// as the records of a policy not in this run do, and counts again if the
// old content comes back. Two records of one episode without an error
// and with different outcomes cannot come from resumed runs (a rerun
// never plays a finished episode): the file was edited, or written by two
// runs at once, and that is an error naming both lines. An identical
// duplicate is harmless and counted once.
func episodes(path string, recs []Record, ids map[string]string) (byKey map[Key]Record, stale map[string]int, err error) {
	byKey, stale = map[Key]Record{}, map[string]int{}
	line := map[Key]int{}
	for i, r := range recs {
		if id, ok := ids[r.Policy]; ok && r.PolicyID != id {
			stale[r.Policy]++
			continue
		}
		old, ok := byKey[r.Key]
		switch {
		case !ok || old.Error != "":
			byKey[r.Key], line[r.Key] = r, i+1
		case r.Error != "":
			// a finished episode stays finished
		case !sameOutcome(old, r):
			return nil, nil, fmt.Errorf("%s lines %d and %d are the same episode (policy %s, env %s, seed %d, sample %d) with different outcomes: the file was edited or written by two runs at once; move it away to start over",
				path, line[r.Key], i+1, r.Policy, r.Env, r.Seed, r.Sample)
		}
	}
	return byKey, stale, nil
}

// sameOutcome reports whether two records of an episode played it alike:
// the same conversation and rewards (latency and tokens may differ).
func sameOutcome(a, b Record) bool {
	return a.Success == b.Success && a.Return == b.Return && a.Turns == b.Turns &&
		slices.Equal(a.Rewards, b.Rewards) && slices.EqualFunc(a.Messages, b.Messages, sameMessage) &&
		slices.EqualFunc(a.NativeMessages, b.NativeMessages, sameMessage)
}

func sameMessage(a, b chat.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID && slices.Equal(a.ToolCalls, b.ToolCalls)
}
