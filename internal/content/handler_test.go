package content

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

type httpResult struct {
	status int
	header http.Header
	body   string
	data   map[string]any
	errs   []GraphQLError
}

func do(t *testing.T, h http.Handler, r *http.Request) httpResult {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	res := w.Result()
	b, _ := io.ReadAll(res.Body)
	out := httpResult{status: res.StatusCode, header: res.Header, body: string(b)}
	if res.StatusCode == http.StatusNoContent {
		return out
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	var env struct {
		Data   map[string]any `json:"data"`
		Errors []GraphQLError `json:"errors"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("body %s is not JSON: %v", b, err)
	}
	if !strings.Contains(out.body, `"data":`) {
		t.Fatalf("body %s has no data key", b)
	}
	out.data, out.errs = env.Data, env.Errors
	return out
}

func postJSON(body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

func testHandler(src pageSource, opts Options) http.Handler {
	return newHandler(src, opts, zerolog.Nop())
}

func TestHandlerPostJSON(t *testing.T) {
	h := testHandler(newFakePages(), Options{})
	body := `{"query":"query Page($id: String!, $locale: String!) { page(id: $id, locale: $locale) { id locale translations } }",
		"variables":{"id":"home","locale":"mn-MN"},"operationName":"Page"}`
	res := do(t, h, postJSON(body))
	if res.status != http.StatusOK || len(res.errs) > 0 {
		t.Fatalf("status %d body %s", res.status, res.body)
	}
	page := res.data["page"].(map[string]any)
	tr := page["translations"].(map[string]any)
	if page["id"] != "home" || page["locale"] != "mn-MN" || tr["title"] != "Крипто худалдах, авах" {
		t.Fatalf("page = %v", page)
	}
	if res.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("cache-control %q", res.header.Get("Cache-Control"))
	}
}

func TestHandlerNullFieldsAndGraphQLBody(t *testing.T) {
	h := testHandler(newFakePages(), Options{})
	res := do(t, h, postJSON(`{"query":"{ page(id: \"home\") { id } }","variables":null,"operationName":null}`))
	if res.status != http.StatusOK || res.data["page"].(map[string]any)["id"] != "home" {
		t.Fatalf("status %d body %s", res.status, res.body)
	}
	r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(`{ page(id: "home") { locale } }`))
	r.Header.Set("Content-Type", "application/graphql; charset=utf-8")
	res = do(t, h, r)
	if res.status != http.StatusOK || res.data["page"].(map[string]any)["locale"] != "en-US" {
		t.Fatalf("application/graphql: status %d body %s", res.status, res.body)
	}
}

func TestHandlerGet(t *testing.T) {
	h := testHandler(newFakePages(), Options{})
	q := url.Values{
		"query":     {`query($id: String!) { p: page(id: $id) { id locale } }`},
		"variables": {`{"id":"home"}`},
	}
	r := httptest.NewRequest(http.MethodGet, "/graphql?"+q.Encode(), nil)
	r.AddCookie(&http.Cookie{Name: "lan", Value: "mn_MN"})
	res := do(t, h, r)
	if res.status != http.StatusOK || len(res.errs) > 0 {
		t.Fatalf("status %d body %s", res.status, res.body)
	}
	if p := res.data["p"].(map[string]any); p["id"] != "home" || p["locale"] != "mn-MN" {
		t.Fatalf("p = %v", p)
	}

	r = httptest.NewRequest(http.MethodGet, "/graphql?variables=%7B", nil)
	if res := do(t, h, r); res.status != http.StatusBadRequest || len(res.errs) != 1 {
		t.Fatalf("bad variables: status %d body %s", res.status, res.body)
	}
	r = httptest.NewRequest(http.MethodGet, "/graphql", nil)
	if res := do(t, h, r); res.status != http.StatusBadRequest || res.errs[0].Message != "Must provide query string." {
		t.Fatalf("no query: status %d body %s", res.status, res.body)
	}
}

func TestHandlerCookieDefaultLocale(t *testing.T) {
	src := newFakePages()
	h := testHandler(src, Options{})
	cases := []struct{ cookie, want string }{
		{"", "en-US"},
		{"en_US", "en-US"},
		{"mn_MN", "mn-MN"},
		{"zh_CN", "mn-MN"},
	}
	for _, tc := range cases {
		r := postJSON(`{"query":"{ page(id: \"home\") { locale translations } }"}`)
		if tc.cookie != "" {
			r.AddCookie(&http.Cookie{Name: "lan", Value: tc.cookie})
		}
		res := do(t, h, r)
		if res.status != http.StatusOK || len(res.errs) > 0 {
			t.Fatalf("cookie %q: status %d body %s", tc.cookie, res.status, res.body)
		}
		if got := res.data["page"].(map[string]any)["locale"]; got != tc.want {
			t.Errorf("cookie %q: locale %v, want %s", tc.cookie, got, tc.want)
		}
	}
	// An explicit argument beats the cookie.
	r := postJSON(`{"query":"{ page(id: \"home\", locale: \"en-US\") { locale } }"}`)
	r.AddCookie(&http.Cookie{Name: "lan", Value: "mn_MN"})
	if res := do(t, h, r); res.data["page"].(map[string]any)["locale"] != "en-US" {
		t.Fatalf("explicit locale: %s", res.body)
	}
}

func TestHandlerReadToken(t *testing.T) {
	src := newFakePages()
	h := testHandler(src, Options{ReadToken: "s3cret-read-token"})
	query := `{"query":"{ page(id: \"home\") { id } }"}`
	for _, auth := range []string{"", "Bearer wrong", "Basic s3cret-read-token", "s3cret-read-token", "Bearer", "Bearer s3cret-read-token-longer"} {
		r := postJSON(query)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		res := do(t, h, r)
		if res.status != http.StatusUnauthorized || len(res.errs) != 1 || res.data != nil ||
			res.errs[0].Message != "Unauthorized: a valid read token is required." {
			t.Errorf("auth %q: status %d body %s", auth, res.status, res.body)
		}
		if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("auth %q: WWW-Authenticate %q", auth, res.header.Get("WWW-Authenticate"))
		}
	}
	if len(src.calls) != 0 {
		t.Fatalf("unauthorized requests reached the source: %v", src.calls)
	}
	for _, auth := range []string{"Bearer s3cret-read-token", "bearer s3cret-read-token"} {
		r := postJSON(query)
		r.Header.Set("Authorization", auth)
		if res := do(t, h, r); res.status != http.StatusOK || res.data["page"] == nil {
			t.Errorf("auth %q: status %d body %s", auth, res.status, res.body)
		}
	}
	// Without a configured token the service is open.
	if res := do(t, testHandler(src, Options{}), postJSON(query)); res.status != http.StatusOK {
		t.Fatalf("open service: status %d", res.status)
	}
}

func TestHandlerErrorShapes(t *testing.T) {
	h := testHandler(newFakePages(), Options{})
	cases := []struct {
		name   string
		req    *http.Request
		status int
		msg    string
	}{
		{"not JSON", postJSON(`query { page }`), http.StatusBadRequest, `POST body must be a JSON object such as {"query": "...", "variables": {...}}.`},
		{"JSON array", postJSON(`[1]`), http.StatusBadRequest, `POST body must be a JSON object such as {"query": "...", "variables": {...}}.`},
		{"JSON null", postJSON(`null`), http.StatusBadRequest, `POST body must be a JSON object such as {"query": "...", "variables": {...}}.`},
		{"trailing data", postJSON(`{"query":"{ x }"} {}`), http.StatusBadRequest, `POST body must be a JSON object such as {"query": "...", "variables": {...}}.`},
		{"empty body", postJSON(``), http.StatusBadRequest, `POST body must be a JSON object such as {"query": "...", "variables": {...}}.`},
		{"no query", postJSON(`{"variables":{}}`), http.StatusBadRequest, "Must provide query string."},
		{"query not a string", postJSON(`{"query":5}`), http.StatusBadRequest, `The "query" field must be a string.`},
		{"variables not an object", postJSON(`{"query":"{ x }","variables":[1]}`), http.StatusBadRequest, `The "variables" field must be a JSON object.`},
		{"operationName not a string", postJSON(`{"query":"{ x }","operationName":1}`), http.StatusBadRequest, `The "operationName" field must be a string.`},
		{"too large", postJSON(`{"query":"` + strings.Repeat(" ", maxRequestBytes) + `"}`), http.StatusBadRequest, "Request body is larger than 65536 bytes."},
		{"syntax error", postJSON(`{"query":"{ page(id: \"home\") { id }"}`), http.StatusOK, "Syntax Error: Expected Name, found <EOF>."},
		{"unknown field", postJSON(`{"query":"{ page(id: \"home\") { title } }"}`), http.StatusOK, `Cannot query field "title" on type "Page".`},
		{"empty id", postJSON(`{"query":"{ page(id: \"\") { id } }"}`), http.StatusOK, "page id must not be empty"},
		{"unknown id", postJSON(`{"query":"{ page(id: \"wallet\") { id } }"}`), http.StatusOK, "page not found: wallet"},
		{"method", httptest.NewRequest(http.MethodPut, "/graphql", nil), http.StatusMethodNotAllowed, "GraphQL only supports GET and POST requests."},
	}
	for _, tc := range cases {
		res := do(t, h, tc.req)
		if res.status != tc.status || len(res.errs) != 1 || res.errs[0].Message != tc.msg {
			t.Errorf("%s: status %d body %s; want %d %q", tc.name, res.status, res.body, tc.status, tc.msg)
			continue
		}
		if res.data != nil || !strings.Contains(res.body, `"data":null`) {
			t.Errorf("%s: data not null: %s", tc.name, res.body)
		}
	}
}

func TestHandlerCORS(t *testing.T) {
	h := testHandler(newFakePages(), Options{AllowedOrigins: []string{"https://app.tenger.mn"}})
	r := httptest.NewRequest(http.MethodOptions, "/graphql", nil)
	r.Header.Set("Origin", "https://app.tenger.mn")
	res := do(t, h, r)
	if res.status != http.StatusNoContent || res.header.Get("Access-Control-Allow-Origin") != "https://app.tenger.mn" ||
		!strings.Contains(res.header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight: status %d headers %v", res.status, res.header)
	}
	r = postJSON(`{"query":"{ page(id: \"home\") { id } }"}`)
	r.Header.Set("Origin", "https://evil.example")
	res = do(t, h, r)
	if res.header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("foreign origin allowed: %v", res.header)
	}
}
