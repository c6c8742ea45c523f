package webapp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSPAFallback(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>app</html>"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "assets", "app-1.js"), []byte("js"), 0o644))
	h := Handler(dir)
	cases := []struct {
		path   string
		status int
		body   string
		cache  string
	}{
		{"/", 200, "<html>app</html>", "no-cache"},
		{"/auth/login", 200, "<html>app</html>", "no-cache"},
		{"/mn_MN/newAssets/addressMent", 200, "<html>app</html>", "no-cache"},
		{"/assets/app-1.js", 200, "js", "public, max-age=31536000, immutable"},
		{"/assets/missing.js", 404, "", ""},
		{"/../../etc/passwd", 400, "", ""}, // traversal is refused
	}
	for _, tc := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.path, rec.Code, tc.status)
			continue
		}
		if tc.body != "" && rec.Body.String() != tc.body {
			t.Errorf("%s: body %q", tc.path, rec.Body.String())
		}
		if tc.cache != "" && rec.Header().Get("Cache-Control") != tc.cache {
			t.Errorf("%s: cache %q", tc.path, rec.Header().Get("Cache-Control"))
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

func TestMissingBuild(t *testing.T) {
	rec := httptest.NewRecorder()
	Handler(t.TempDir()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "make run") {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
}

func TestLocalConfig(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "http://localhost:8080/config.json", nil)
	c := LocalConfig(r, []string{"/fe-ex-api", "/fe-co-api"}, Flags{})
	b, _ := json.Marshal(c)
	want := `{"region":"local","api":{"/fe-co-api":"http://localhost:8080","/fe-ex-api":"http://localhost:8080"},"ws":"ws://localhost:8080/ws","content":"http://localhost:8080/graphql","flags":{"futuresLive":false,"walletLive":false}}`
	if string(b) != want {
		t.Fatalf("got %s", b)
	}
	r.Header.Set("X-Forwarded-Proto", "https")
	if c := LocalConfig(r, nil, Flags{}); c.WS != "wss://localhost:8080/ws" {
		t.Fatalf("ws %s", c.WS)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
