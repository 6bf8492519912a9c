package metrics

import (
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkLoggerLog measures one Log of a typical PPO row (15 metrics):
// a JSONL append with fsync and a CSV append.
func BenchmarkLoggerLog(b *testing.B) {
	l, err := NewLogger(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	m := sampleRows(1)[1].Metrics
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if err := l.Log(i, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderReport measures rendering the report of a 200-iteration run
// (the page, without the file write).
func BenchmarkRenderReport(b *testing.B) {
	r := sampleReport()
	r.Rows = sampleRows(200)
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderPage(io.Discard, r.Title, r.Subtitle, r.Sections()...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteReport adds the atomic file write (temp file, fsync, rename).
func BenchmarkWriteReport(b *testing.B) {
	r := sampleReport()
	r.Rows = sampleRows(200)
	path := filepath.Join(b.TempDir(), "report.html")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteReport(path, r); err != nil {
			b.Fatal(err)
		}
	}
}
