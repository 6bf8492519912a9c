package nginxtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/envserver.md shows the nginx.conf that the tests run, word for
// word (with example paths and ports).
func TestDocsShowTheTestedConfig(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "envserver.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "```nginx\n" + Config("/srv/gemgo-nginx", "127.0.0.1:8000",
		[]string{"127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"}, "") + "```\n"
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/envserver.md does not show nginxtest.Config's file; want this block in it:\n%s", want)
	}
}
