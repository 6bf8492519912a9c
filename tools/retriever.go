package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/vmihailenco/msgpack/v5"
)

// Retriever wire formats.
const (
	// FormatMsgpack is GEM's: a msgpack body {query, topk, return_scores}
	// and a msgpack reply {"result": [{"document": {id, contents}, "score"}]}.
	FormatMsgpack = "msgpack"
	// FormatJSON is Search-R1's retrieval server: a JSON body {queries:
	// [...], topk, return_scores} and a JSON reply {"result": [[...]]},
	// one list of documents per query.
	FormatJSON = "json"
)

// RetrieverClient queries a retrieval server over HTTP POST.
type RetrieverClient struct {
	url    string
	format string
	client *http.Client
}

var _ Retriever = (*RetrieverClient)(nil)

// NewRetrieverClient returns a client of the server at url speaking format
// (FormatMsgpack or FormatJSON).
func NewRetrieverClient(url, format string) (*RetrieverClient, error) {
	if format != FormatMsgpack && format != FormatJSON {
		return nil, fmt.Errorf("retriever: format %q: allowed %s, %s", format, FormatMsgpack, FormatJSON)
	}
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return nil, fmt.Errorf("retriever: url %q: want an http:// or https:// URL", url)
	}
	return &RetrieverClient{url: url, format: format, client: &http.Client{}}, nil
}

// Retrieve sends one query; ctx bounds the whole exchange.
func (c *RetrieverClient) Retrieve(ctx context.Context, query string, k int) ([]Doc, error) {
	var body []byte
	var err error
	ctype := "application/json"
	if c.format == FormatMsgpack {
		ctype = "application/msgpack"
		body, err = msgpack.Marshal(map[string]any{"query": query, "topk": k, "return_scores": true})
	} else {
		body, err = json.Marshal(map[string]any{"queries": []string{query}, "topk": k, "return_scores": true})
	}
	if err != nil {
		return nil, fmt.Errorf("retriever: encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("retriever: %w", err)
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("retriever %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("retriever %s: read reply: %w", c.url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("retriever %s: HTTP %d: %s", c.url, resp.StatusCode, strings.TrimSpace(string(data[:min(len(data), 200)])))
	}
	var reply map[string]any
	if c.format == FormatMsgpack {
		err = msgpack.Unmarshal(data, &reply)
	} else {
		err = json.Unmarshal(data, &reply)
	}
	if err != nil {
		return nil, fmt.Errorf("retriever %s: the reply is not %s: %v", c.url, c.format, err)
	}
	docs, err := docsOf(reply["result"])
	if err != nil {
		return nil, fmt.Errorf("retriever %s: %w", c.url, err)
	}
	return docs[:min(k, len(docs))], nil
}

// docsOf reads a reply's "result": a list of documents, or a list with one
// list of documents per query (the first is ours). A document is
// {"document": {id, contents}, "score"} with scores, or {id, contents}.
func docsOf(result any) ([]Doc, error) {
	list, ok := result.([]any)
	if !ok {
		return nil, fmt.Errorf(`reply has no "result" list (got %T)`, result)
	}
	if len(list) > 0 {
		if inner, nested := list[0].([]any); nested {
			list = inner
		}
	}
	docs := make([]Doc, 0, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("result %d is %T, not a document", i, item)
		}
		var d Doc
		if doc, wrapped := m["document"].(map[string]any); wrapped {
			d.Score = number(m["score"])
			m = doc
		}
		d.Contents, _ = m["contents"].(string)
		if d.Contents == "" {
			return nil, fmt.Errorf(`result %d has no "contents"`, i)
		}
		if id, has := m["id"]; has {
			d.ID = fmt.Sprint(id)
		}
		docs = append(docs, d)
	}
	return docs, nil
}

func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int64:
		return float64(x)
	case int8:
		return float64(x)
	case int16:
		return float64(x)
	case int32:
		return float64(x)
	case uint64:
		return float64(x)
	case uint8:
		return float64(x)
	}
	return 0
}
