package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// queryBody wraps a query in the JSON body the web app posts.
func queryBody(t *testing.T, query string, vars map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// refusedWith checks that an answer is the one short GraphQL error a query
// over a bound gets: HTTP 200 as for any other invalid query, "data": null,
// a single error containing want, and a body far smaller than a page.
func refusedWith(t *testing.T, res httpResult, want string) {
	t.Helper()
	if res.status != http.StatusOK || res.data != nil || len(res.errs) != 1 || !strings.Contains(res.errs[0].Message, want) {
		t.Fatalf("want one error containing %q with status 200; got status %d, %d bytes: %.400s", want, res.status, len(res.body), res.body)
	}
	if len(res.body) > 1024 {
		t.Fatalf("refusal is %d bytes: %.400s", len(res.body), res.body)
	}
}

// TestLimitAliasesOfPage is the outside test's case: 100 aliases of one page
// query used to be answered with 100 copies of the page (686 KB for a 3.7 KB
// request on the real texts) and 100 store reads.
func TestLimitAliasesOfPage(t *testing.T) {
	var q strings.Builder
	q.WriteString("query($id: String!) {")
	for i := range 100 {
		fmt.Fprintf(&q, " p%d: page(id: $id) { id locale translations }", i)
	}
	q.WriteString(" }")
	src := newFakePages()
	res := do(t, testHandler(src, Options{}), postJSON(queryBody(t, q.String(), map[string]any{"id": "home"})))
	refusedWith(t, res, "Query selects 400 fields; this service allows at most 16 in one query")
	if len(src.calls) != 0 {
		t.Fatalf("a refused query read %d pages", len(src.calls))
	}
	// The error points at the first field over the bound: p4's page field.
	if loc := res.errs[0].Locations; len(loc) != 1 || loc[0] != (Location{Line: 1, Column: 203}) {
		t.Fatalf("locations = %v", loc)
	}
}

// TestLimitAliasesInsidePage: aliases of translations within one page copy
// the page's text just as well, so they count the same.
func TestLimitAliasesInsidePage(t *testing.T) {
	var q strings.Builder
	q.WriteString(`{ page(id: "home") {`)
	for i := range 30 {
		fmt.Fprintf(&q, " t%d: translations", i)
	}
	q.WriteString(" } }")
	_, errs, raw := run(t, newFakePages(), Request{Query: q.String()})
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "Query selects 31 fields") {
		t.Fatalf("answer %s", raw)
	}
}

// TestLimitFieldsAtTheBound: exactly maxQueryFields fields run.
func TestLimitFieldsAtTheBound(t *testing.T) {
	var q strings.Builder
	q.WriteString("{")
	for i := range maxQueryFields / 2 {
		fmt.Fprintf(&q, ` p%d: page(id: "home") { id }`, i)
	}
	q.WriteString(" }")
	data, errs, raw := run(t, newFakePages(), Request{Query: q.String()})
	if len(errs) != 0 || len(data) != maxQueryFields/2 {
		t.Fatalf("answer %s", raw)
	}
}

// TestLimitDepth: a query nested deeper than maxQueryDepth is refused for
// its depth, before validation, with the position of the first field too
// deep; the parser's own recursion guard only answers beyond maxNesting.
func TestLimitDepth(t *testing.T) {
	nested := func(depth int) string {
		// page is depth 1; each further level is one more field.
		return `{ page(id: "home") ` + strings.Repeat("{ x ", depth-2) + "{ id }" + strings.Repeat(" }", depth-2) + " }"
	}
	_, errs, raw := run(t, newFakePages(), Request{Query: nested(maxQueryDepth + 1)})
	if len(errs) != 1 || errs[0].Message != "Query nests fields 9 levels deep; this service allows at most 8." {
		t.Fatalf("depth %d: %s", maxQueryDepth+1, raw)
	}
	if loc := errs[0].Locations; len(loc) != 1 || loc[0] != (Location{Line: 1, Column: 50}) {
		t.Fatalf("locations = %v", loc)
	}
	// At the bound the query reaches validation, which refuses x for this
	// schema (there is no nested type yet): the depth bound is not what
	// answers.
	_, errs, raw = run(t, newFakePages(), Request{Query: nested(maxQueryDepth)})
	if len(errs) == 0 || strings.Contains(errs[0].Message, "deep") {
		t.Fatalf("depth %d: %s", maxQueryDepth, raw)
	}
	// Over HTTP the refusal is a plain GraphQL error with status 200.
	res := do(t, testHandler(newFakePages(), Options{}), postJSON(queryBody(t, nested(12), nil)))
	refusedWith(t, res, "Query nests fields 12 levels deep")
}

// longPages is a pageSource whose page "long" has a text of the given size.
func longPages(textBytes int) *fakePages {
	src := newFakePages()
	text := strings.Repeat("Үйлчилгээний нөхцөл. ", textBytes/len("Үйлчилгээний нөхцөл. ")+1)[:textBytes]
	text = strings.ToValidUTF8(text, "")
	b, _ := json.Marshal(map[string]string{"body": text})
	src.texts["long"] = map[string]string{LocaleEnglish: string(b), LocaleMongolian: string(b)}
	return src
}

// TestLimitAnswerBytes: an answer over maxAnswerBytes is refused whole, with
// one short error, never sent in part; a long page under the bound is served.
func TestLimitAnswerBytes(t *testing.T) {
	h := testHandler(longPages(maxAnswerBytes+1), Options{})
	res := do(t, h, postJSON(queryBody(t, `{ page(id: "long") { id translations } }`, nil)))
	refusedWith(t, res, "larger than 262144 bytes")

	// A few aliases of a page that fits alone add up past the bound; the
	// executor stops at the page that crosses it.
	src := longPages(maxAnswerBytes / 3)
	res = do(t, testHandler(src, Options{}), postJSON(queryBody(t,
		`{ a: page(id: "long") { translations } b: page(id: "long") { translations } c: page(id: "long") { translations } d: page(id: "long") { translations } }`, nil)))
	refusedWith(t, res, "larger than 262144 bytes")
	if len(src.calls) != 3 {
		t.Fatalf("pages read after the bound was passed: %v", src.calls)
	}

	// A single page of 200 KB of text, many times the longest page today,
	// is served in full.
	res = do(t, testHandler(longPages(200<<10), Options{}), postJSON(queryBody(t, `{ page(id: "long") { translations } }`, nil)))
	if res.status != http.StatusOK || len(res.errs) != 0 || len(res.body) < 200<<10 {
		t.Fatalf("long page: status %d, %d bytes, errors %v", res.status, len(res.body), res.errs)
	}
}

// TestLimitErrorCount: a query with hundreds of mistakes is answered with at
// most maxErrors errors and one entry saying how many were left out, so the
// list of errors cannot grow with the request either.
func TestLimitErrorCount(t *testing.T) {
	var q strings.Builder
	q.WriteString("query Q(")
	for i := range 500 {
		fmt.Fprintf(&q, "$v%d: Int ", i)
	}
	q.WriteString(`) { page(id: "home") { id } }`)
	_, errs, raw := run(t, newFakePages(), Request{Query: q.String()})
	if len(errs) != maxErrors+1 || errs[0].Message != `Variable "$v0" is never used in operation "Q".` ||
		errs[maxErrors].Message != "480 more errors were left out; this service lists at most 20." {
		t.Fatalf("%d errors: %.600s", len(errs), raw)
	}
}

// TestLimitGetQueryString: a GET query string is bounded like a POST body
// (400, as for a body over the bound), and so is a query handed to
// Service.Execute directly.
func TestLimitGetQueryString(t *testing.T) {
	query := `{ page(id: "home") { id } } # ` + strings.Repeat("x", maxRequestBytes)
	r := httptest.NewRequest(http.MethodGet, "/graphql?query="+url.QueryEscape(query), nil)
	res := do(t, testHandler(newFakePages(), Options{}), r)
	if res.status != http.StatusBadRequest || len(res.errs) != 1 || res.errs[0].Message != "Request query string is larger than 65536 bytes." {
		t.Fatalf("status %d: %.400s", res.status, res.body)
	}
	_, errs, _ := run(t, newFakePages(), Request{Query: query})
	if len(errs) != 1 || errs[0].Message != "Query text is larger than 65536 bytes." {
		t.Fatalf("errors %v", errs)
	}
}

// TestErrorMessagesArePrintable: error messages quote what the caller sent
// (here a page id), so control and bidirectional characters in it come back
// escaped, never raw.
func TestErrorMessagesArePrintable(t *testing.T) {
	id := "a\x1b[31mb\u202ec\x00d\x7f"
	res := do(t, testHandler(newFakePages(), Options{}), postJSON(queryBody(t, `query($id: String!) { page(id: $id) { id } }`, map[string]any{"id": id})))
	if len(res.errs) != 1 {
		t.Fatalf("answer %s", res.body)
	}
	msg := res.errs[0].Message
	if want := `page not found: a\x1b[31mb\u202ec\x00d\x7f`; msg != want {
		t.Fatalf("message %q, want %q", msg, want)
	}
	for _, r := range msg {
		if !unicode.IsPrint(r) {
			t.Fatalf("message %q holds %U", msg, r)
		}
	}
}

func TestPrintableMessage(t *testing.T) {
	cases := map[string]string{
		"":                       "",
		"page not found: wallet": "page not found: wallet",
		"Крипто худалдах, авах":           "Крипто худалдах, авах",
		"line\nbreak\ttab":                `line\nbreak\ttab`,
		"bell\a and esc\x1b":              `bell\a and esc\x1b`,
		"c1 \u0085 and rlo \u202e end":    `c1 \u0085 and rlo \u202e end`,
		"bad utf8 \xff\xfe!":              `bad utf8 \xff\xfe!`,
		"zero width \u200b joiner \ufeff": `zero width \u200b joiner \ufeff`,
		"replacement \ufffd is printable": "replacement \ufffd is printable",
	}
	for in, want := range cases {
		got := printableMessage(in)
		if got != want {
			t.Errorf("printableMessage(%q) = %q, want %q", in, got, want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("printableMessage(%q) is not UTF-8", in)
		}
	}
}

// appPageQuery reads the query the web app sends from its source, so that a
// change there that would cross a bound fails here rather than in browsers.
func appPageQuery(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "frontend", "src", "lib", "content-client.ts"))
	if err != nil {
		t.Fatalf("read the web app's content client: %v", err)
	}
	m := regexp.MustCompile(`PAGE_QUERY\s*=\s*'([^']*)'`).FindSubmatch(src)
	if m == nil {
		t.Fatal("PAGE_QUERY not found in content-client.ts")
	}
	return string(m[1])
}

// TestLimitsLeaveRoomForTheApp holds the bounds to what the web app needs
// with a fourfold margin: its query's size, fields and depth, and the answer
// for every compiled-in page in every locale.
func TestLimitsLeaveRoomForTheApp(t *testing.T) {
	const margin = 4
	query := appPageQuery(t)
	doc, err := parseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	fields, depth := 0, 0
	var walk func(sel []*field, level int)
	walk = func(sel []*field, level int) {
		for _, f := range sel {
			fields++
			depth = max(depth, level)
			walk(f.sel, level+1)
		}
	}
	walk(doc.ops[0].sel, 1)
	if fields*margin > maxQueryFields || depth*margin > maxQueryDepth {
		t.Errorf("the app's query selects %d fields %d deep; bounds %d and %d leave less than a %d× margin", fields, depth, maxQueryFields, maxQueryDepth, margin)
	}

	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, Texts()); err != nil {
		t.Fatal(err)
	}
	h := New(st, Options{}).Handler()
	files, err := readTexts(Texts())
	if err != nil {
		t.Fatal(err)
	}
	largest := 0
	for _, f := range files {
		body := queryBody(t, query, map[string]any{"id": f.id, "locale": f.locale})
		if len(body)*margin > maxRequestBytes {
			t.Errorf("the app's request for %s is %d bytes", f.id, len(body))
		}
		res := do(t, h, postJSON(body))
		if res.status != http.StatusOK || len(res.errs) != 0 {
			t.Fatalf("%s/%s: status %d errors %v", f.locale, f.id, res.status, res.errs)
		}
		largest = max(largest, len(res.body))
		if len(res.body)*margin > maxAnswerBytes {
			t.Errorf("%s/%s: the answer is %d bytes, less than a %d× margin under maxAnswerBytes (%d)", f.locale, f.id, len(res.body), margin, maxAnswerBytes)
		}
	}
	t.Logf("app query: %d bytes, %d fields, %d deep; largest page answer %d bytes", len(query), fields, depth, largest)
}
