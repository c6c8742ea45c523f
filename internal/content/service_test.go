package content

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

func openStore(t *testing.T) store.Store {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

// fixtureTexts is a small text tree with the cases Load must handle.
func fixtureTexts() fstest.MapFS {
	return fstest.MapFS{
		"README.md":                             file("texts are JSON"),
		"en-US/.gitkeep":                        file(""),
		"en-US/notes.txt":                       file("not a page"),
		"en-US/home.json":                       file(`{"title": "Buy <crypto> & more", "hero": {"cta": "Sign up", "count": 3}}`),
		"mn-MN/home.json":                       file(`{"title": "Крипто худалдах", "hero": {"cta": "Бүртгүүлэх", "count": 3}}`),
		"en-US/corporateVerificationStep1.json": file(`{"title": "Company details"}`),
		"mn-MN/corporateVerificationStep1.json": file(`{"title": "Байгууллагын мэдээлэл"}`),
		"en-US/onlyEnglish.json":                file(`{"title": "Not translated yet"}`),
		"mn-MN/.hidden.json":                    file(`not even JSON`),
		"mn-MN/drafts/ignored.json":             file(`not JSON either`),
	}
}

// readFeed returns every change after checkpoint and the new checkpoint.
func readFeed(t *testing.T, st store.Store, checkpoint string) ([]store.Change, string) {
	t.Helper()
	var all []store.Change
	for {
		batch, next, err := st.Changes().Read(context.Background(), checkpoint, 1000)
		if err != nil {
			t.Fatalf("read feed: %v", err)
		}
		checkpoint = next
		if len(batch) == 0 {
			return all, checkpoint
		}
		all = append(all, batch...)
	}
}

func TestLoadWritesItems(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	n, err := Load(ctx, st, fixtureTexts())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if n != 3 {
		t.Fatalf("pages = %d, want 3", n)
	}
	it, err := st.Get(ctx, store.Key{PK: "CONTENT#home", SK: "en-US"})
	if err != nil {
		t.Fatalf("get home: %v", err)
	}
	// Keys sorted, whitespace dropped, HTML characters kept as written.
	if got, want := it.Str("translations"), `{"hero":{"count":3,"cta":"Sign up"},"title":"Buy <crypto> & more"}`; got != want {
		t.Fatalf("translations = %s, want %s", got, want)
	}
	if len(it.Str("hash")) != 64 || it.Str("pageId") != "home" || it.Str("locale") != "en-US" {
		t.Fatalf("item = %v", it)
	}
	if _, err := st.Get(ctx, store.Key{PK: "CONTENT#onlyEnglish", SK: "mn-MN"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("onlyEnglish mn-MN: err = %v, want not found", err)
	}
	if _, err := st.Get(ctx, store.Key{PK: "CONTENT#ignored", SK: "mn-MN"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("file in a sub-directory was loaded: %v", err)
	}
}

func TestServicePage(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatalf("load: %v", err)
	}
	svc := New(st, Options{})
	cases := []struct {
		id, locale, wantLocale, wantTitle string
	}{
		{"home", "en-US", "en-US", "Buy <crypto> & more"},
		{"home", "", "en-US", "Buy <crypto> & more"},
		{"home", "mn-MN", "mn-MN", "Крипто худалдах"},
		{"home", "mn_MN", "mn-MN", "Крипто худалдах"},
		{"home", "zh-CN", "mn-MN", "Крипто худалдах"},
		{"corporateVerificationStep1", "zh-CN", "en-US", "Company details"},
		{"corporateVerificationStep1", "zh_CN", "en-US", "Company details"},
		{"corporateVerificationStep1", "mn-MN", "mn-MN", "Байгууллагын мэдээлэл"},
		{"corporateVerificationStep1", "fr-FR", "mn-MN", "Байгууллагын мэдээлэл"},
		{"onlyEnglish", "mn-MN", "en-US", "Not translated yet"}, // English fallback
	}
	for _, tc := range cases {
		pg, err := svc.Page(ctx, tc.id, tc.locale)
		if err != nil {
			t.Errorf("Page(%q, %q): %v", tc.id, tc.locale, err)
			continue
		}
		var tr map[string]any
		if err := json.Unmarshal(pg.Translations, &tr); err != nil {
			t.Fatalf("translations %s: %v", pg.Translations, err)
		}
		if pg.ID != tc.id || pg.Locale != tc.wantLocale || tr["title"] != tc.wantTitle {
			t.Errorf("Page(%q, %q) = %s %s %v; want %s %q", tc.id, tc.locale, pg.ID, pg.Locale, tr["title"], tc.wantLocale, tc.wantTitle)
		}
	}

	if _, err := svc.Page(ctx, "", "en-US"); !errors.Is(err, ErrEmptyID) || err.Error() != "page id must not be empty" {
		t.Fatalf("empty id: %v", err)
	}
	for _, id := range []string{"wallet", "../home", "home/en-US", strings.Repeat("a", 200), "CONTENT"} {
		_, err := svc.Page(ctx, id, "mn-MN")
		if !errors.Is(err, ErrPageNotFound) || err.Error() != "page not found: "+id {
			t.Errorf("Page(%q): err = %v", id, err)
		}
	}
}

func TestLoadIdempotent(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	texts := fixtureTexts()
	if _, err := Load(ctx, st, texts); err != nil {
		t.Fatalf("load: %v", err)
	}
	first, cp := readFeed(t, st, "")
	// 5 page items and the manifest.
	if len(first) != 6 {
		t.Fatalf("first load wrote %d items, want 6", len(first))
	}

	// Same texts, and the same texts formatted differently: no writes.
	reformatted := fixtureTexts()
	reformatted["en-US/home.json"] = file("{\n  \"hero\": {\"count\": 3, \"cta\": \"Sign up\"},\n  \"title\": \"Buy <crypto> & more\"\n}\n")
	for _, fsys := range []fstest.MapFS{texts, reformatted} {
		n, err := Load(ctx, st, fsys)
		if err != nil || n != 3 {
			t.Fatalf("reload: n=%d err=%v", n, err)
		}
		var again []store.Change
		again, cp = readFeed(t, st, cp)
		if len(again) != 0 {
			t.Fatalf("reloading unchanged texts wrote %d items: %+v", len(again), again)
		}
	}

	// One changed page, one removed page, one new page.
	changed := fixtureTexts()
	changed["mn-MN/home.json"] = file(`{"title": "Криптог хялбар арилжаал", "hero": {"cta": "Бүртгүүлэх", "count": 3}}`)
	delete(changed, "en-US/onlyEnglish.json")
	changed["en-US/footer.json"] = file(`{"about": "About us"}`)
	changed["mn-MN/footer.json"] = file(`{"about": "Бидний тухай"}`)
	n, err := Load(ctx, st, changed)
	if err != nil || n != 3 { // home, corporateVerificationStep1, footer
		t.Fatalf("load changed: n=%d err=%v", n, err)
	}
	diff, _ := readFeed(t, st, cp)
	got := map[string]store.ChangeKind{}
	for _, c := range diff {
		got[c.Key.String()] = c.Kind
	}
	want := map[string]store.ChangeKind{
		"CONTENT#home|mn-MN":        store.ChangeModify,
		"CONTENT#onlyEnglish|en-US": store.ChangeRemove,
		"CONTENT#footer|en-US":      store.ChangeInsert,
		"CONTENT#footer|mn-MN":      store.ChangeInsert,
		"CONTENT|MANIFEST":          store.ChangeModify,
	}
	if len(got) != len(want) || len(diff) != len(want) {
		t.Fatalf("changes = %v, want %v", got, want)
	}
	for k, kind := range want {
		if got[k] != kind {
			t.Fatalf("change of %s = %q, want %q (all: %v)", k, got[k], kind, got)
		}
	}

	svc := New(st, Options{})
	if _, err := svc.Page(ctx, "onlyEnglish", "en-US"); !errors.Is(err, ErrPageNotFound) {
		t.Fatalf("removed page: %v", err)
	}
	pg, err := svc.Page(ctx, "home", "mn-MN")
	if err != nil || !strings.Contains(string(pg.Translations), "Криптог хялбар арилжаал") {
		t.Fatalf("changed page: %s %v", pg.Translations, err)
	}
}

func TestLoadSkipsItemsAnotherLoaderWrote(t *testing.T) {
	// Two processes starting together both see an old manifest; the second
	// must not rewrite the pages the first already stored.
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(ctx, manifestKey, nil); err != nil {
		t.Fatal(err)
	}
	_, cp := readFeed(t, st, "")
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	changes, _ := readFeed(t, st, cp)
	if len(changes) != 1 || changes[0].Key != manifestKey {
		t.Fatalf("changes = %+v, want only the manifest", changes)
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name string
		fsys fstest.MapFS
		msg  string
	}{
		{"invalid JSON", fstest.MapFS{"en-US/home.json": file(`{"title": }`)}, "en-US/home.json: invalid JSON"},
		{"trailing data", fstest.MapFS{"en-US/home.json": file(`{"a": "b"} {"c": "d"}`)}, "en-US/home.json: invalid JSON: data after"},
		{"array", fstest.MapFS{"en-US/home.json": file(`["a"]`)}, "en-US/home.json: the top level must be a JSON object"},
		{"string", fstest.MapFS{"en-US/home.json": file(`"a"`)}, "the top level must be a JSON object"},
		{"bad locale", fstest.MapFS{"english/home.json": file(`{}`)}, `directory "english" is not a locale`},
		{"bad page id", fstest.MapFS{"en-US/my page.json": file(`{}`)}, `en-US/my page.json: page id "my page"`},
		{"too large", fstest.MapFS{"en-US/big.json": file(`{"a": "` + strings.Repeat("x", maxPageBytes) + `"}`)}, "more than the"},
	}
	for _, tc := range cases {
		st := openStore(t)
		tc.fsys["en-US/fine.json"] = file(`{"ok": "yes"}`)
		_, err := Load(context.Background(), st, tc.fsys)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.msg)
			continue
		}
		if changes, _ := readFeed(t, st, ""); len(changes) != 0 {
			t.Errorf("%s: a failed load wrote %d items", tc.name, len(changes))
		}
	}
}

func TestServiceCache(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	svc := New(st, Options{CacheTTL: time.Minute})
	svc.now = func() time.Time { return now }
	if _, err := svc.Page(ctx, "home", "en-US"); err != nil {
		t.Fatal(err)
	}
	// Another process rewrites the page.
	err := st.Put(ctx, store.Item{"pk": "CONTENT#home", "sk": "en-US", "translations": `{"title":"New"}`, "hash": "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pg, _ := svc.Page(ctx, "home", "en-US")
	if strings.Contains(string(pg.Translations), "New") {
		t.Fatal("cached page was read again before the TTL")
	}
	now = now.Add(61 * time.Second)
	pg, _ = svc.Page(ctx, "home", "en-US")
	if string(pg.Translations) != `{"title":"New"}` {
		t.Fatalf("after the TTL: %s", pg.Translations)
	}

	uncached := New(st, Options{CacheTTL: -1})
	if _, err := uncached.Page(ctx, "home", "en-US"); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(ctx, store.Item{"pk": "CONTENT#home", "sk": "en-US", "translations": `{"title":"Newer"}`, "hash": "y"}, nil); err != nil {
		t.Fatal(err)
	}
	if pg, _ := uncached.Page(ctx, "home", "en-US"); string(pg.Translations) != `{"title":"Newer"}` {
		t.Fatalf("uncached service served %s", pg.Translations)
	}
	if len(uncached.cache) != 0 {
		t.Fatalf("disabled cache holds %d pages", len(uncached.cache))
	}
}

// failingStore fails every read, as a store outage would.
type failingStore struct{ store.Store }

func (failingStore) Get(context.Context, store.Key) (store.Item, error) {
	return nil, errors.New("dynamodb: ProvisionedThroughputExceededException on table tenger-prod")
}

func TestServiceStoreFailure(t *testing.T) {
	svc := New(failingStore{}, Options{})
	_, err := svc.Page(context.Background(), "home", "en-US")
	if err == nil || errors.Is(err, ErrPageNotFound) {
		t.Fatalf("err = %v, want the store error", err)
	}
	res := do(t, svc.Handler(), postJSON(`{"query":"{ page(id: \"home\") { id } }"}`))
	if res.status != http.StatusOK || len(res.errs) != 1 || res.errs[0].Message != `internal error while reading page "home"` {
		t.Fatalf("status %d body %s", res.status, res.body)
	}
	if strings.Contains(res.body, "tenger-prod") {
		t.Fatal("internal error detail leaked to the client")
	}
}

// TestEndToEnd loads fixture texts into a real store and queries them over
// HTTP as the web app does.
func TestEndToEnd(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(st, Options{ReadToken: "read-token"}).Handler())
	defer srv.Close()

	post := func(body, cookie, token string) httpResult {
		r, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if cookie != "" {
			r.AddCookie(&http.Cookie{Name: "lan", Value: cookie})
		}
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env struct {
			Data   map[string]any `json:"data"`
			Errors []GraphQLError `json:"errors"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
			t.Fatal(err)
		}
		return httpResult{status: resp.StatusCode, data: env.Data, errs: env.Errors}
	}
	query := `{"query":"query Page($id: String!) { page(id: $id) { id locale translations } }","variables":{"id":"home"}}`

	res := post(query, "mn_MN", "read-token")
	if res.status != http.StatusOK || len(res.errs) > 0 {
		t.Fatalf("status %d errors %v", res.status, res.errs)
	}
	page := res.data["page"].(map[string]any)
	hero := page["translations"].(map[string]any)["hero"].(map[string]any)
	if page["locale"] != "mn-MN" || hero["cta"] != "Бүртгүүлэх" || hero["count"] != float64(3) {
		t.Fatalf("page = %v", page)
	}
	if res := post(query, "", "read-token"); res.data["page"].(map[string]any)["locale"] != "en-US" {
		t.Fatalf("default locale: %v", res.data)
	}
	if res := post(query, "mn_MN", ""); res.status != http.StatusUnauthorized || res.data != nil || len(res.errs) != 1 {
		t.Fatalf("no token: status %d %v", res.status, res.errs)
	}
	res = post(`{"query":"{ page(id: \"corporateVerificationStep1\", locale: \"zh-CN\") { locale } }"}`, "", "read-token")
	if res.data["page"].(map[string]any)["locale"] != "en-US" {
		t.Fatalf("zh-CN corporate verification: %v %v", res.data, res.errs)
	}
	res = post(`{"query":"{ page(id: \"nope\") { id } }"}`, "", "read-token")
	if res.data != nil || len(res.errs) != 1 || res.errs[0].Message != "page not found: nope" {
		t.Fatalf("unknown page: %v %v", res.data, res.errs)
	}
}

// TestExecuteWithoutHTTP is the path a Lambda function takes: check the
// token, then run the request with the locale it read from the cookie.
func TestExecuteWithoutHTTP(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	svc := New(st, Options{ReadToken: "tok"})
	if svc.Authorized("") || svc.Authorized("Bearer nope") || !svc.Authorized("Bearer tok") {
		t.Fatal("Authorized does not apply the read token")
	}
	if !New(st, Options{}).Authorized("") {
		t.Fatal("a service without a token must be open")
	}
	resp := svc.Execute(ctx, Request{
		Query:         `query P($id: String!) { page(id: $id) { locale translations } }`,
		Variables:     map[string]any{"id": "home"},
		DefaultLocale: NormalizeLocale("mn_MN"),
	})
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"page":{"locale":"mn-MN","translations":{"hero":{"count":3,"cta":"Бүртгүүлэх"},"title":"Крипто худалдах"}}}}`
	if string(b) != want {
		t.Fatalf("response\n got %s\nwant %s", b, want)
	}
}

func TestHandlerKeepsHTMLCharacters(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if _, err := Load(ctx, st, fixtureTexts()); err != nil {
		t.Fatal(err)
	}
	res := do(t, New(st, Options{}).Handler(), postJSON(`{"query":"{ page(id: \"home\") { translations } }"}`))
	if !strings.Contains(res.body, `"title":"Buy <crypto> & more"`) {
		t.Fatalf("body %s", res.body)
	}
}

func BenchmarkHandlerCachedPage(b *testing.B) {
	st, err := embedded.Open(b.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := Load(context.Background(), st, fixtureTexts()); err != nil {
		b.Fatal(err)
	}
	h := New(st, Options{ReadToken: "tok"}).Handler()
	body := `{"query":"query Page($id: String!, $locale: String!) { page(id: $id, locale: $locale) { id locale translations } }","variables":{"id":"home","locale":"mn-MN"}}`
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer tok")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
