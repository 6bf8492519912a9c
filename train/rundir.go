package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gemgo/gemgo/internal/atomicfile"
	"github.com/gemgo/gemgo/internal/fslock"
	"github.com/gemgo/gemgo/metrics"
)

// claimDir makes a new run's directory (created: this call made it) or
// checks that a resumed run's exists, and takes the directory's lock
// (internal/fslock) for the run's lifetime: a second process on the same
// directory (two -resume of one run) is refused at once, before either
// writes a byte there.
func claimDir(dir string, resume bool) (created bool, unlock func(), err error) {
	if resume {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return false, nil, fmt.Errorf("resume %s: no run directory there: give the directory of a run (runs/NAME)", dir)
		}
	} else {
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			created = true
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return false, nil, fmt.Errorf("run directory %s: %w (choose another with -out)", dir, err)
		}
	}
	unlock, err = fslock.Lock(dir)
	if errors.Is(err, fslock.ErrHeld) {
		return false, nil, fmt.Errorf("%w: another train process is running in it; only one may write a run directory (wait for it to end, or stop it first)", err)
	}
	if err != nil {
		return false, nil, fmt.Errorf("run directory %s: %w (choose another with -out)", dir, err)
	}
	return created, unlock, nil
}

// runFiles are the files a run writes to its directory.
var runFiles = []string{ConfigFile, CheckpointFile, FinalFile, ReferenceFile, WarmupFile, MetricsFile, metrics.CSVName, ReportFile, fslock.Name}

// removeFailedStart removes the directory of a new run that failed before
// its first iteration, which this process created (so it holds nothing but
// the run's files): there is nothing in it to resume, and the next run
// with the config's name then takes the same name. A directory that holds
// a checkpoint or a warm-up (an interrupt saved it: -resume continues it)
// is kept, and so is one where other files appeared (only the run's own
// files are removed; the directory goes only when that leaves it empty).
func removeFailedStart(dir string) {
	for _, f := range []string{CheckpointFile, WarmupFile} {
		if fileExists(filepath.Join(dir, f)) {
			return
		}
	}
	_, _ = atomicfile.RemoveStale(dir)
	for _, f := range runFiles {
		_ = os.Remove(filepath.Join(dir, f))
	}
	_ = os.Remove(dir) // fails, and keeps it, when anything else is there
}

// checkMetricsReach refuses to resume from a checkpoint at iteration it
// when dir's metrics end before it: a run logs an iteration's row before
// it saves that iteration's checkpoint, so such metrics are older than
// the checkpoint (a copy of a live run that took metrics.jsonl first), and
// the resumed run would leave their missing iterations out for good. Rows
// after the checkpoint are fine: dropRowsAfter drops them.
func checkMetricsReach(dir string, it int) error {
	if it == 0 {
		return nil
	}
	path := filepath.Join(dir, MetricsFile)
	rows, err := metrics.ReadJSONL(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	last := -1
	for _, r := range rows {
		last = max(last, r.Iteration)
	}
	if last >= it {
		return nil
	}
	have := fmt.Sprintf("end at iteration %d", last)
	missing := fmt.Sprintf("iterations %d–%d", last+1, it)
	switch {
	case last < 0:
		have = "hold no rows"
		missing = fmt.Sprintf("iterations 1–%d", it)
	case last+1 == it:
		missing = fmt.Sprintf("iteration %d", it)
	}
	return fmt.Errorf("its metrics (%s) %s, but its checkpoint is at iteration %d: %s would have no row for good "+
		"(was the directory copied from a live run, the metrics before the checkpoint?); copy %s again from the run that wrote it "+
		"(rows after iteration %d are dropped on resume), or start a new run; nothing was changed",
		path, have, it, missing, MetricsFile, it)
}
