package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	Settings         string         `json:"settings"` // Config.EpisodeHash of the run that played it
	Messages         []chat.Message `json:"messages"`
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
func openResults(path string) (*resultsFile, []Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %w", err)
	}
	recs, good, err := readRecords(f)
	if err == nil {
		err = f.Truncate(good)
	}
	if err == nil {
		_, err = f.Seek(good, io.SeekStart)
	}
	if err != nil {
		f.Close()
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

// Latest keeps, for every key, its last record without an error, or else
// its last record: the episodes as a rerun sees them.
func Latest(recs []Record) map[Key]Record {
	out := map[Key]Record{}
	for _, r := range recs {
		if old, ok := out[r.Key]; ok && old.Error == "" && r.Error != "" {
			continue
		}
		out[r.Key] = r
	}
	return out
}
