package content

import (
	"errors"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string) *document {
	t.Helper()
	doc, err := parseQuery(src)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return doc
}

func TestParseShorthandQuery(t *testing.T) {
	doc := mustParse(t, `{ page(id: "home", locale: "mn-MN") { id locale translations } }`)
	if len(doc.ops) != 1 {
		t.Fatalf("ops = %d, want 1", len(doc.ops))
	}
	op := doc.ops[0]
	if op.kind != "query" || op.name != "" || len(op.vars) != 0 {
		t.Fatalf("op = %+v", op)
	}
	if len(op.sel) != 1 || op.sel[0].name != "page" || op.sel[0].alias != "" {
		t.Fatalf("root selection = %+v", op.sel)
	}
	f := op.sel[0]
	if len(f.args) != 2 || f.args[0].name != "id" || f.args[0].val.kind != valString || f.args[0].val.raw != "home" ||
		f.args[1].name != "locale" || f.args[1].val.raw != "mn-MN" {
		t.Fatalf("args = %+v %+v", f.args[0], f.args[1])
	}
	var names []string
	for _, s := range f.sel {
		names = append(names, s.name)
	}
	if strings.Join(names, ",") != "id,locale,translations" {
		t.Fatalf("sub-selection = %v", names)
	}
}

func TestParseNamedQueryWithVariablesAndAlias(t *testing.T) {
	src := `# the home page texts
query HomePage($id: String!, $locale: String = "en-US", $tags: [String!]!) {
  home: page(id: $id, locale: $locale) {
    key: id, locale
    translations
    __typename
  }
}`
	op := mustParse(t, src).ops[0]
	if op.name != "HomePage" {
		t.Fatalf("name = %q", op.name)
	}
	if len(op.vars) != 3 {
		t.Fatalf("vars = %d", len(op.vars))
	}
	if v := op.vars[0]; v.name != "id" || v.typ.String() != "String!" || v.def != nil {
		t.Fatalf("var 0 = %+v type %s", v, v.typ)
	}
	if v := op.vars[1]; v.name != "locale" || v.typ.String() != "String" || v.def == nil || v.def.raw != "en-US" {
		t.Fatalf("var 1 = %+v", v)
	}
	if v := op.vars[2]; v.typ.String() != "[String!]!" {
		t.Fatalf("var 2 type = %s", v.typ)
	}
	if op.vars[0].loc != (Location{Line: 2, Column: 16}) {
		t.Fatalf("var 0 location = %+v", op.vars[0].loc)
	}
	f := op.sel[0]
	if f.alias != "home" || f.name != "page" || f.responseKey() != "home" {
		t.Fatalf("field = %+v", f)
	}
	if f.args[0].val.kind != valVariable || f.args[0].val.raw != "id" {
		t.Fatalf("id arg = %+v", f.args[0].val)
	}
	if f.sel[0].alias != "key" || f.sel[0].name != "id" || f.sel[3].name != "__typename" {
		t.Fatalf("sub-selection = %+v", f.sel)
	}
	if f.loc != (Location{Line: 3, Column: 3}) {
		t.Fatalf("field location = %+v", f.loc)
	}
}

func TestParseValueLiterals(t *testing.T) {
	src := `{ f(a: -12, b: 3.5e-2, c: true, d: null, e: ENUM, g: [1, "x", [false]], h: {k: "v", n: {m: 0}}, i: """
      block
        indented
    """, j: "esc\"\\\/\b\f\n\r\t\u00e9\u{1F600}\uD83D\uDE00") { x } }`
	args := mustParse(t, src).ops[0].sel[0].args
	want := map[string]string{
		"a": "-12", "b": "3.5e-2", "c": "true", "d": "null", "e": "ENUM",
		"g": `[1, "x", [false]]`, "h": `{k: "v", n: {m: 0}}`,
	}
	for _, a := range args {
		if w, ok := want[a.name]; ok && a.val.describe() != w {
			t.Errorf("arg %s = %s, want %s", a.name, a.val.describe(), w)
		}
	}
	kinds := map[string]valueKind{"a": valInt, "b": valFloat, "c": valBool, "d": valNull, "e": valEnum, "g": valList, "h": valObject, "i": valString, "j": valString}
	for _, a := range args {
		if a.val.kind != kinds[a.name] {
			t.Errorf("arg %s kind = %d, want %d", a.name, a.val.kind, kinds[a.name])
		}
	}
	if got := args[7].val.raw; got != "block\n  indented" {
		t.Errorf("block string = %q", got)
	}
	if got := args[8].val.raw; got != "esc\"\\/\b\f\n\r\té😀😀" {
		t.Errorf("escaped string = %q", got)
	}
}

func TestParseIgnoresCommasCommentsAndBOM(t *testing.T) {
	doc := mustParse(t, "\uFEFF,,{ # comment\r\n page(id:\"a\",,){id,,}, }")
	f := doc.ops[0].sel[0]
	if f.name != "page" || len(f.args) != 1 || len(f.sel) != 1 {
		t.Fatalf("field = %+v", f)
	}
	if f.loc.Line != 2 || f.loc.Column != 2 {
		t.Fatalf("location after CRLF = %+v", f.loc)
	}
}

func TestParseMultipleOperations(t *testing.T) {
	doc := mustParse(t, `query A { page(id: "a") { id } } query B { page(id: "b") { id } } mutation M { x }`)
	if len(doc.ops) != 3 || doc.ops[0].name != "A" || doc.ops[1].name != "B" || doc.ops[2].kind != "mutation" {
		t.Fatalf("ops = %+v", doc.ops)
	}
}

func TestParseSyntaxErrors(t *testing.T) {
	cases := []struct {
		src  string
		msg  string
		line int
		col  int
	}{
		{"", "Unexpected <EOF>.", 1, 1},
		{"   # only a comment", "Unexpected <EOF>.", 1, 20},
		{"{", `Expected Name, found <EOF>.`, 1, 2},
		{"{}", `Expected Name, found "}".`, 1, 2},
		{"{ page(id: ) { id } }", `Unexpected ")".`, 1, 12},
		{"{ page() { id } }", `Expected Name, found ")".`, 1, 8},
		{"{ page(id \"x\") { id } }", `Expected ":", found String "x".`, 1, 11},
		{"{ page(id: \"x) { id } }", "Unterminated string.", 1, 12},
		{"{ page(id: \"a\nb\") { id } }", "Unterminated string.", 1, 12},
		{"{ page(id: \"\\q\") { id } }", `Invalid character escape sequence: "\\q".`, 1, 13},
		{"{ page(id: \"\\u12G4\") { id } }", `Invalid Unicode escape sequence: "\\u12G4".`, 1, 13},
		{"{ page(id: \"\\uDC00\") { id } }", `Invalid Unicode escape sequence: "\\uDC00".`, 1, 13},
		{"{ page(id: 012) { id } }", `Invalid number, unexpected digit after 0: "1".`, 1, 13},
		{"{ page(id: 1.) { id } }", `Invalid number, expected digit but got: ")".`, 1, 14},
		{"{ page(id: 12abc) { id } }", `Invalid number, expected digit but got: "a".`, 1, 14},
		{"{ page(id: \"x\") { id } % }", `Unexpected character: "%".`, 1, 24},
		{"{ page(id: \"x\") { ...F } }", "Fragments are not supported by this service.", 1, 19},
		{"fragment F on Page { id }", "Fragments are not supported by this service.", 1, 1},
		{"{ page(id: \"x\") @include(if: true) { id } }", "Directives are not supported by this service.", 1, 17},
		{"query Q($id: String! = $other) { page(id: $id) { id } }", "Unexpected variable in a constant value.", 1, 24},
		{"query Q($id String!) { x }", `Expected ":", found Name "String".`, 1, 13},
		{"query Q($id: [String) { x }", `Expected "]", found ")".`, 1, 21},
		{"query Q { x } extra", `Unexpected Name "extra".`, 1, 15},
		{`"description" query { x }`, "Unexpected description: only executable definitions are allowed.", 1, 1},
		{"{ x(a: [1, 2 }", `Unexpected "}".`, 1, 14},
		{"{ x(a: {k 1}) }", `Expected ":", found Int "1".`, 1, 11},
		{"{ x(a: \"\"\"never closed) }", "Unterminated string.", 1, 8},
		{"{\n  page(id: \"é\") {\n    id ^\n  }\n}", `Unexpected character: "^".`, 3, 8},
		{"{ x(a: \"\xff\") }", "Invalid UTF-8 in the query text.", 1, 9},
		{"{ x(a: \"tab\tok\x01\") }", `Invalid character within String: "\x01".`, 1, 15},
	}
	for _, tc := range cases {
		_, err := parseQuery(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("parse %q: err = %v, want a syntax error", tc.src, err)
			continue
		}
		if se.Message != tc.msg || se.Loc.Line != tc.line || se.Loc.Column != tc.col {
			t.Errorf("parse %q:\n got %q at %d:%d\nwant %q at %d:%d", tc.src, se.Message, se.Loc.Line, se.Loc.Column, tc.msg, tc.line, tc.col)
		}
	}
}

func TestParseLimits(t *testing.T) {
	deep := strings.Repeat("{ a ", 40) + strings.Repeat("}", 40)
	if _, err := parseQuery(deep); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep selection: err = %v", err)
	}
	deepValue := "{ x(a: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + ") }"
	if _, err := parseQuery(deepValue); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep list value: err = %v", err)
	}
	deepType := "query Q($a: " + strings.Repeat("[", 100) + "String" + strings.Repeat("]", 100) + ") { x }"
	if _, err := parseQuery(deepType); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep type: err = %v", err)
	}
	wide := "{ " + strings.Repeat("a ", maxTokens) + "}"
	if _, err := parseQuery(wide); err == nil || !strings.Contains(err.Error(), "more than 4096 tokens") {
		t.Errorf("many tokens: err = %v", err)
	}
	// Just under the nesting limit parses.
	ok := strings.Repeat("{ a ", maxNesting) + strings.Repeat("}", maxNesting)
	if _, err := parseQuery(ok); err != nil {
		t.Errorf("nesting %d: %v", maxNesting, err)
	}
}

func TestBlockStringValue(t *testing.T) {
	cases := map[string]string{
		"":                           "",
		"  \n  hello\n    world\n  ": "hello\n  world",
		"first\n   second\n   third": "first\nsecond\nthird",
		"\r\n  a\r  b\r\n":           "a\nb",
		"  \t \n\n   x   \n\n  ":     "x   ",
		"no newline at all":          "no newline at all",
		"a\n\n  b\n      \n  c":      "a\n\nb\n    \nc",
	}
	for in, want := range cases {
		if got := blockStringValue(in); got != want {
			t.Errorf("blockStringValue(%q) = %q, want %q", in, got, want)
		}
	}
}
