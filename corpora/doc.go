// Package corpora holds the retrieval corpora that ship with gemgo: the
// documents of the invented worlds that the qa:Fictional-* envs ask about,
// as JSONL lines in the Search-R1 format ({"id": "...", "contents":
// "\"Title\"\ntext"}).
//
// It is a leaf package of data only, so that the search tool (tools), the
// env server's guard on tool settings (envs/remote) and the QA family
// (envs/qa) read the same bytes without importing one another. The files
// are generated: envs/qa's GenerateFictional writes them, and its golden
// test (go test ./envs/qa -run TestFictionalGolden -update) rewrites them.
package corpora
