package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
)

// fakePages is a pageSource holding texts by id and locale. It applies the
// same locale mapping as Service and records every call.
type fakePages struct {
	mu    sync.Mutex
	texts map[string]map[string]string // id → resolved locale → JSON
	fail  error                        // returned for id "broken"
	calls []string                     // "id|requested locale"
}

func newFakePages() *fakePages {
	return &fakePages{texts: map[string]map[string]string{
		"home": {
			LocaleEnglish:   `{"title":"Buy and sell crypto","hero":{"cta":"Sign up"}}`,
			LocaleMongolian: `{"title":"Крипто худалдах, авах","hero":{"cta":"Бүртгүүлэх"}}`,
		},
		"corporateVerificationStep1": {
			LocaleEnglish:   `{"title":"Company details"}`,
			LocaleMongolian: `{"title":"Байгууллагын мэдээлэл"}`,
		},
	}}
}

func (f *fakePages) Page(_ context.Context, id, locale string) (Page, error) {
	f.mu.Lock()
	f.calls = append(f.calls, id+"|"+locale)
	f.mu.Unlock()
	if id == "" {
		return Page{}, ErrEmptyID
	}
	if id == "broken" && f.fail != nil {
		return Page{}, f.fail
	}
	loc := ResolveLocale(id, locale)
	raw, ok := f.texts[id][loc]
	if !ok {
		return Page{}, fmt.Errorf("%w: %s", ErrPageNotFound, id)
	}
	return Page{ID: id, Locale: loc, Translations: json.RawMessage(raw)}, nil
}

func run(t *testing.T, src pageSource, req Request) (data map[string]any, errs []GraphQLError, rawJSON string) {
	t.Helper()
	x := &executor{src: src, log: zerolog.Nop()}
	resp := x.execute(context.Background(), req)
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("marshal response: %v", err)
	}
	var out struct {
		Data   map[string]any `json:"data"`
		Errors []GraphQLError `json:"errors"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("response %s is not JSON: %v", b, err)
	}
	if len(out.Errors) > 0 && out.Data != nil {
		t.Fatalf("response has errors and data: %s", b)
	}
	return out.Data, out.Errors, string(b)
}

func TestExecuteLiteralArguments(t *testing.T) {
	data, errs, raw := run(t, newFakePages(), Request{Query: `{ page(id: "home", locale: "mn-MN") { id locale translations } }`})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := `{"data":{"page":{"id":"home","locale":"mn-MN","translations":{"title":"Крипто худалдах, авах","hero":{"cta":"Бүртгүүлэх"}}}}}`
	if raw != want {
		t.Fatalf("response\n got %s\nwant %s", raw, want)
	}
	if data["page"] == nil {
		t.Fatal("no page in data")
	}
}

func TestExecuteVariablesAliasesAndOrder(t *testing.T) {
	src := newFakePages()
	_, errs, raw := run(t, src, Request{
		Query: `query Texts($id: String!, $locale: String) {
			t: __typename
			english: page(id: $id, locale: "en_US") { translations key: id __typename }
			mongolian: page(id: $id, locale: $locale) { locale }
		}`,
		Variables: map[string]any{"id": "home", "locale": "mn_MN"},
	})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := `{"data":{"t":"Query","english":{"translations":{"title":"Buy and sell crypto","hero":{"cta":"Sign up"}},"key":"home","__typename":"Page"},"mongolian":{"locale":"mn-MN"}}}`
	if raw != want {
		t.Fatalf("response\n got %s\nwant %s", raw, want)
	}
	if strings.Join(src.calls, ",") != "home|en_US,home|mn_MN" {
		t.Fatalf("calls = %v", src.calls)
	}
}

func TestExecuteDefaultLocale(t *testing.T) {
	cases := []struct {
		query, defaultLocale string
		vars                 map[string]any
		wantCall, wantLocale string
	}{
		{`{ page(id: "home") { locale } }`, "mn-MN", nil, "home|mn-MN", "mn-MN"},
		{`{ page(id: "home") { locale } }`, "", nil, "home|", "en-US"},
		{`{ page(id: "home", locale: null) { locale } }`, "mn-MN", nil, "home|mn-MN", "mn-MN"},
		{`{ page(id: "home", locale: "") { locale } }`, "mn-MN", nil, "home|mn-MN", "mn-MN"},
		{`query($l: String) { page(id: "home", locale: $l) { locale } }`, "mn-MN", nil, "home|mn-MN", "mn-MN"},
		{`query($l: String = "en-US") { page(id: "home", locale: $l) { locale } }`, "mn-MN", nil, "home|en-US", "en-US"},
		{`query($l: String = "en-US") { page(id: "home", locale: $l) { locale } }`, "en-US", map[string]any{"l": nil}, "home|en-US", "en-US"},
		{`{ page(id: "corporateVerificationStep1", locale: "zh-CN") { locale } }`, "", nil, "corporateVerificationStep1|zh-CN", "en-US"},
		{`{ page(id: "home", locale: "zh-CN") { locale } }`, "", nil, "home|zh-CN", "mn-MN"},
	}
	for _, tc := range cases {
		src := newFakePages()
		data, errs, raw := run(t, src, Request{Query: tc.query, Variables: tc.vars, DefaultLocale: tc.defaultLocale})
		if len(errs) > 0 {
			t.Errorf("%s: errors %v", tc.query, errs)
			continue
		}
		if len(src.calls) != 1 || src.calls[0] != tc.wantCall {
			t.Errorf("%s (default %q): calls %v, want %s", tc.query, tc.defaultLocale, src.calls, tc.wantCall)
		}
		if got := data["page"].(map[string]any)["locale"]; got != tc.wantLocale {
			t.Errorf("%s: locale %v, want %s (%s)", tc.query, got, tc.wantLocale, raw)
		}
	}
}

func TestExecuteMergesRepeatedFields(t *testing.T) {
	src := newFakePages()
	_, errs, raw := run(t, src, Request{Query: `{ page(id: "home") { id } page(id: "home") { locale id } }`})
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if want := `{"data":{"page":{"id":"home","locale":"en-US"}}}`; raw != want {
		t.Fatalf("response\n got %s\nwant %s", raw, want)
	}
	if len(src.calls) != 1 {
		t.Fatalf("merged field resolved %d times", len(src.calls))
	}
}

func TestExecuteFieldErrors(t *testing.T) {
	src := newFakePages()
	src.fail = errors.New("dynamodb: throughput exceeded on table tenger-prod")
	cases := []struct {
		query   string
		vars    map[string]any
		message string
	}{
		{`{ page(id: "") { id } }`, nil, "page id must not be empty"},
		{`query($id: String!) { page(id: $id) { id } }`, map[string]any{"id": ""}, "page id must not be empty"},
		{`{ page(id: "nope") { id } }`, nil, "page not found: nope"},
		{`{ page(id: "broken") { id } }`, nil, `internal error while reading page "broken"`},
		{`query($id: String = "home") { page(id: $id) { id } }`, map[string]any{"id": nil}, `Argument "id" of non-null type "String!" must not be null.`},
	}
	for _, tc := range cases {
		_, errs, raw := run(t, src, Request{Query: tc.query, Variables: tc.vars})
		if len(errs) != 1 || errs[0].Message != tc.message {
			t.Errorf("%s: errors %v, want %q", tc.query, errs, tc.message)
			continue
		}
		if !strings.HasPrefix(raw, `{"data":null,"errors":[`) {
			t.Errorf("%s: data is not null: %s", tc.query, raw)
		}
		if len(errs[0].Path) != 1 || errs[0].Path[0] != "page" {
			t.Errorf("%s: path = %v", tc.query, errs[0].Path)
		}
	}
	// One failing field nulls the whole data, but the others still report.
	_, errs, _ := run(t, src, Request{Query: `{ a: page(id: "home") { id } b: page(id: "x") { id } c: page(id: "") { id } }`})
	if len(errs) != 2 || errs[0].Message != "page not found: x" || errs[1].Message != "page id must not be empty" ||
		errs[0].Path[0] != "b" || errs[1].Path[0] != "c" {
		t.Fatalf("errors = %+v", errs)
	}
}

func TestExecuteValidationErrors(t *testing.T) {
	cases := []struct {
		query, opName string
		vars          map[string]any
		messages      []string
	}{
		{`{ pages(id: "home") { id } }`, "", nil, []string{`Cannot query field "pages" on type "Query".`}},
		{`{ page(id: "home") { id title } }`, "", nil, []string{`Cannot query field "title" on type "Page".`}},
		{`{ page(id: "home") }`, "", nil, []string{`Field "page" of type "Page!" must have a selection of subfields. Did you mean "page { ... }"?`}},
		{`{ page(id: "home") { id { x } } }`, "", nil, []string{`Field "id" must not have a selection since type "String!" has no subfields.`}},
		{`{ page(id: "home") { translations(lang: "x") } }`, "", nil, []string{`Unknown argument "lang" on field "Page.translations".`}},
		{`{ __typename { x } }`, "", nil, []string{`Field "__typename" must not have a selection since type "String!" has no subfields.`}},
		{`{ page { id } }`, "", nil, []string{`Field "page" argument "id" of type "String!" is required, but it was not provided.`}},
		{`{ page(id: "a", id: "b") { id } }`, "", nil, []string{`There can be only one argument named "id".`}},
		{`{ page(id: "a", lang: "b") { id } }`, "", nil, []string{`Unknown argument "lang" on field "Query.page".`}},
		{`{ page(id: 5) { id } }`, "", nil, []string{`String cannot represent a non string value: 5`}},
		{`{ page(id: null) { id } }`, "", nil, []string{`Expected value of type "String!", found null.`}},
		{`{ page(id: "a", locale: [1]) { id } }`, "", nil, []string{`String cannot represent a non string value: [1]`}},
		{`{ page(id: $id) { id } }`, "", nil, []string{`Variable "$id" is not defined.`}},
		{`query Q { page(id: $id) { id } }`, "", nil, []string{`Variable "$id" is not defined by operation "Q".`}},
		{`query Q($id: String) { page(id: $id) { id } }`, "", nil, []string{`Variable "$id" of type "String" used in position expecting type "String!".`}},
		{`query Q($id: Int!) { page(id: $id) { id } }`, "", nil, []string{`Variable "$id" of type "Int!" used in position expecting type "String!".`}},
		{`query Q($id: String!, $x: Int) { page(id: $id) { id } }`, "", map[string]any{"id": "home"}, []string{`Variable "$x" is never used in operation "Q".`}},
		{`query Q($id: String!, $id: String!) { page(id: $id) { id } }`, "", map[string]any{"id": "home"}, []string{`There can be only one variable named "$id".`}},
		{`query Q($id: Page!) { page(id: $id) { id } }`, "", nil, []string{`Unknown type "Page".`, `Variable "$id" of type "Page!" used in position expecting type "String!".`}},
		{`query Q($id: String! = 5) { page(id: $id) { id } }`, "", nil, []string{`Variable "$id" has invalid default value: String cannot represent the value 5.`}},
		{`mutation { page(id: "a") { id } }`, "", nil, []string{`Schema is not configured to execute mutation operation.`}},
		{`subscription { page(id: "a") { id } }`, "", nil, []string{`Schema is not configured to execute subscription operation.`}},
		{`{ p: page(id: "a") { id } p: page(id: "b") { id } }`, "", nil, []string{`Fields "p" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.`}},
		{`{ page(id: "a") { x: id x: locale } }`, "", nil, []string{`Fields "x" conflict because "id" and "locale" are different fields. Use different aliases on the fields to fetch both if this was intentional.`}},
		{`{ __schema { types { name } } }`, "", nil, []string{`Cannot query field "__schema" on type "Query".`}},
		{`query A { page(id: "a") { id } } query B { page(id: "b") { id } }`, "", nil, []string{`Must provide operation name if query contains multiple operations.`}},
		{`query A { page(id: "a") { id } }`, "C", nil, []string{`Unknown operation named "C".`}},
		{`   `, "", nil, []string{`Must provide query string.`}},
		{`{ page(id: "a") { id }`, "", nil, []string{`Syntax Error: Expected Name, found <EOF>.`}},
		// Variable values.
		{`query Q($id: String!) { page(id: $id) { id } }`, "", nil, []string{`Variable "$id" of required type "String!" was not provided.`}},
		{`query Q($id: String!) { page(id: $id) { id } }`, "", map[string]any{"id": nil}, []string{`Variable "$id" of non-null type "String!" must not be null.`}},
		{`query Q($id: String!) { page(id: $id) { id } }`, "", map[string]any{"id": json.Number("5")}, []string{`Variable "$id" got invalid value 5; String cannot represent a non string value: 5`}},
		{`query Q($id: String!) { page(id: $id) { id } }`, "", map[string]any{"id": []any{"a"}}, []string{`Variable "$id" got invalid value ["a"]; String cannot represent a non string value: ["a"]`}},
	}
	for _, tc := range cases {
		src := newFakePages()
		_, errs, raw := run(t, src, Request{Query: tc.query, OperationName: tc.opName, Variables: tc.vars})
		var got []string
		for _, e := range errs {
			got = append(got, e.Message)
		}
		if strings.Join(got, "\n") != strings.Join(tc.messages, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.query, got, tc.messages)
		}
		if !strings.HasPrefix(raw, `{"data":null,"errors":[`) {
			t.Errorf("%s: response %s", tc.query, raw)
		}
		if len(src.calls) != 0 {
			t.Errorf("%s: invalid request reached the source: %v", tc.query, src.calls)
		}
	}
}

func TestExecuteOperationName(t *testing.T) {
	_, errs, raw := run(t, newFakePages(), Request{
		Query:         `query A { page(id: "nope") { id } } query B { page(id: "home") { id } }`,
		OperationName: "B",
	})
	if len(errs) > 0 || raw != `{"data":{"page":{"id":"home"}}}` {
		t.Fatalf("errors %v, response %s", errs, raw)
	}
}

func TestExecuteErrorLocations(t *testing.T) {
	_, errs, _ := run(t, newFakePages(), Request{Query: "{\n  page(id: \"home\") {\n    id\n    nope\n  }\n}"})
	if len(errs) != 1 || len(errs[0].Locations) != 1 || errs[0].Locations[0] != (Location{Line: 4, Column: 5}) {
		t.Fatalf("errors = %+v", errs)
	}
}

func TestCoerceInputScalars(t *testing.T) {
	str := &typeRef{name: "String"}
	cases := []struct {
		typ  *typeRef
		v    any
		fits bool
	}{
		{str, "x", true},
		{str, true, false},
		{&typeRef{name: "Int"}, json.Number("7"), true},
		{&typeRef{name: "Int"}, json.Number("7.5"), false},
		{&typeRef{name: "Int"}, json.Number("3000000000"), false},
		{&typeRef{name: "Float"}, float64(1.5), true},
		{&typeRef{name: "Float"}, "1.5", false},
		{&typeRef{name: "Boolean"}, false, true},
		{&typeRef{name: "Boolean"}, "false", false},
		{&typeRef{name: "ID"}, json.Number("12"), true},
		{&typeRef{name: "ID"}, "abc", true},
		{&typeRef{name: "ID"}, json.Number("1.5"), false},
		{&typeRef{elem: str}, []any{"a", "b"}, true},
		{&typeRef{elem: str}, "single", true}, // coerced to a one-element list
		{&typeRef{elem: &typeRef{name: "String", nonNull: true}}, []any{"a", nil}, false},
		{&typeRef{elem: str}, []any{"a", nil}, true},
	}
	for _, tc := range cases {
		msg := coerceInput(tc.typ, tc.v)
		if (msg == "") != tc.fits {
			t.Errorf("coerceInput(%s, %#v) = %q, fits want %v", tc.typ, tc.v, msg, tc.fits)
		}
	}
}
