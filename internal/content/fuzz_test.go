package content

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/rs/zerolog"
)

// FuzzParse feeds arbitrary text to the parser and, when it parses, through
// validation and execution: nothing may panic, errors must be syntax errors
// with a position inside the text, and every response must be valid JSON.
// The seed corpus is in testdata/fuzz/FuzzParse; run longer with
// go test -run '^$' -fuzz FuzzParse -fuzztime 30s ./internal/content/
func FuzzParse(f *testing.F) {
	f.Add(`{ page(id: "home") { id locale translations } }`)
	f.Add(`query Q($id: String!, $l: String) { a: page(id: $id, locale: $l) { id } }`)
	x := &executor{src: newFakePages(), log: zerolog.Nop()}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := parseQuery(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("parse error %v is not a *SyntaxError", err)
			}
			if se.Loc.Line < 1 || se.Loc.Column < 1 || se.Loc.Line > countLines(src) {
				t.Fatalf("error location %+v outside the %d-line input", se.Loc, countLines(src))
			}
			if se.Message == "" {
				t.Fatal("empty syntax error message")
			}
			return
		}
		if len(doc.ops) == 0 {
			t.Fatal("parsed document without operations")
		}
		vars := map[string]any{"id": "home", "l": "mn-MN", "n": json.Number("1")}
		for _, op := range doc.ops {
			resp := x.execute(context.Background(), Request{Query: src, OperationName: op.name, Variables: vars})
			b, err := json.Marshal(resp)
			if err != nil || !json.Valid(b) {
				t.Fatalf("response not JSON: %v %s", err, b)
			}
			if (resp.Data == nil) == (len(resp.Errors) == 0) {
				t.Fatalf("response must have data xor errors: %s", b)
			}
		}
	})
}

// countLines counts lines as the lexer does (LF, CR LF and CR end a line).
func countLines(s string) int {
	n := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	return n
}
