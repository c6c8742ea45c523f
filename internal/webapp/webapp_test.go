package webapp

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
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

// Scripts and the app document go gzipped to a client that accepts it,
// compressed once per file version; small files, images and clients that
// do not accept gzip get the bytes as they are.
func TestGzip(t *testing.T) {
	dir := t.TempDir()
	js := strings.Repeat("console.log('tenger');\n", 200)
	page := "<html>" + strings.Repeat("<p>app</p>", 200) + "</html>"
	must(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "assets", "app-1.js"), []byte(js), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "assets", "tiny-1.js"), []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "assets", "logo-1.png"), []byte(js), 0o644))
	h := Handler(dir)
	get := func(p, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, p, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, tc := range []struct{ path, body, ctype, cache string }{
		{"/assets/app-1.js", js, "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"},
		{"/wallet", page, "text/html; charset=utf-8", "no-cache"},
	} {
		for i := 0; i < 2; i++ { // the second answer comes from the cache
			rec := get(tc.path, "br;q=1.0, gzip;q=0.8")
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Type") != tc.ctype ||
				rec.Header().Get("Cache-Control") != tc.cache || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
				t.Fatalf("%s: %d %v", tc.path, rec.Code, rec.Header())
			}
			if rec.Body.Len() >= len(tc.body)/4 {
				t.Fatalf("%s: %d gzipped bytes for %d", tc.path, rec.Body.Len(), len(tc.body))
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(zr)
			if err != nil || string(b) != tc.body {
				t.Fatalf("%s: unzipped %d bytes, %v", tc.path, len(b), err)
			}
		}
		if rec := get(tc.path, ""); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != tc.body {
			t.Fatalf("%s without Accept-Encoding: %v", tc.path, rec.Header())
		}
		if rec := get(tc.path, "gzip;q=0, identity"); rec.Header().Get("Content-Encoding") != "" {
			t.Fatalf("%s with gzip refused: %v", tc.path, rec.Header())
		}
	}
	for _, p := range []string{"/assets/tiny-1.js", "/assets/logo-1.png"} {
		if rec := get(p, "gzip"); rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" {
			t.Fatalf("%s: %v", p, rec.Header())
		}
	}
	// A new build of the same file name is compressed again.
	js2 := strings.Repeat("console.log('build 2');\n", 200)
	must(t, os.WriteFile(filepath.Join(dir, "assets", "app-1.js"), []byte(js2), 0o644))
	future := time.Now().Add(time.Minute)
	must(t, os.Chtimes(filepath.Join(dir, "assets", "app-1.js"), future, future))
	zr, err := gzip.NewReader(get("/assets/app-1.js", "gzip").Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(zr); string(b) != js2 {
		t.Fatal("the cache served the old build")
	}
}

// The policy allows exactly the inline script index.html has.
func TestBootScriptHash(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "frontend", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllSubmatch(b, -1)
	if len(m) != 1 {
		t.Fatalf("index.html has %d inline scripts, the policy allows one", len(m))
	}
	sum := sha256.Sum256(m[0][1])
	if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; want != BootScriptHash {
		t.Fatalf("BootScriptHash is %s; index.html's inline script hashes to %s", BootScriptHash, want)
	}
	if !strings.Contains(ContentSecurityPolicy, "script-src 'self' "+BootScriptHash+";") {
		t.Fatalf("the policy does not allow the boot script: %s", ContentSecurityPolicy)
	}
}

// TestCloudContentSecurityPolicy: the policy served in AWS names the
// regional API hosts (which a *.execute-api.amazonaws.com source would not
// match) and the extra origins, and keeps the rest of the site's policy.
func TestCloudContentSecurityPolicy(t *testing.T) {
	got := CloudContentSecurityPolicy("ap-northeast-2", "wss://exchange.example.mn")
	for _, want := range []string{
		"connect-src 'self' https://*.execute-api.ap-northeast-2.amazonaws.com wss://*.execute-api.ap-northeast-2.amazonaws.com wss://exchange.example.mn;",
		"script-src 'self' " + BootScriptHash + ";", "frame-ancestors 'none'", "frame-src 'self' https://*.sumsub.com;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("policy %q lacks %q", got, want)
		}
	}
}
