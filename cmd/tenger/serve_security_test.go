package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/httpapi"
	"tenger/internal/platform"
	"tenger/internal/webapp"
)

// TestServeSecurityHeaders: every answer of `tenger serve` (the app's
// files, its SPA fallback, the APIs, the documents, the /dev routes and
// errors) carries the Content-Security-Policy CloudFront serves in AWS,
// plus the local WebSocket origin, and the other security headers.
func TestServeSecurityHeaders(t *testing.T) {
	web := t.TempDir()
	if err := os.MkdirAll(filepath.Join(web, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"index.html": "<!doctype html><div id=root></div>", "assets/app-1.js": "console.log(1)"} {
		if err := os.WriteFile(filepath.Join(web, filepath.FromSlash(name)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := platform.OpenLocal(t.TempDir(), platform.Config{Dev: true}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := buildHandler(ctx, d, web)
	if err != nil {
		t.Fatal(err)
	}

	wantCSP := webapp.LocalContentSecurityPolicy("localhost:8080")
	if !strings.Contains(wantCSP, webapp.ContentSecurityPolicy[:strings.Index(webapp.ContentSecurityPolicy, ";")]) ||
		!strings.Contains(wantCSP, "connect-src 'self' https://*.execute-api.amazonaws.com wss://*.execute-api.amazonaws.com ws://localhost:8080 wss://localhost:8080;") ||
		!strings.HasSuffix(wantCSP, "frame-ancestors 'none'; form-action 'self'") {
		t.Fatalf("local policy is not the AWS policy plus the local socket: %s", wantCSP)
	}
	cases := []struct {
		method, path, body string
		status             int
	}{
		{http.MethodGet, "/", "", http.StatusOK},
		{http.MethodGet, "/en_US/trade/btc_usdt", "", http.StatusOK}, // SPA fallback
		{http.MethodGet, "/assets/app-1.js", "", http.StatusOK},
		{http.MethodGet, "/assets/missing.js", "", http.StatusNotFound},
		{http.MethodPost, "/", "", http.StatusMethodNotAllowed},
		{http.MethodPost, "/fe-ex-api/common/public_info_market", `{}`, http.StatusOK},
		{http.MethodPost, "/fe-ex-api/common/user_info", `{}`, http.StatusOK}, // 10002 in the envelope
		{http.MethodPost, "/fe-ex-api/no/such/route", `{}`, http.StatusNotFound},
		{http.MethodGet, "/fe-ex-api/common/page_view", "", http.StatusMethodNotAllowed},
		{http.MethodPost, "/fe-ex-api/common/page_view", `{`, http.StatusOK}, // 410 in the envelope
		{http.MethodGet, "/openapi.json", "", http.StatusOK},
		{http.MethodGet, "/config.json", "", http.StatusOK},
		{http.MethodGet, "/healthz", "", http.StatusOK},
		{http.MethodGet, "/dev/outbox", "", http.StatusOK},
		{http.MethodPost, "/graphql", `{"query":"{"}`, 0},
	}
	for _, tc := range cases {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
		req.Host = "localhost:8080"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if tc.status != 0 && rec.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, rec.Code, tc.status)
		}
		for name, want := range map[string]string{
			"Content-Security-Policy": wantCSP,
			"X-Content-Type-Options":  "nosniff",
			"X-Frame-Options":         "DENY",
			"Referrer-Policy":         "strict-origin-when-cross-origin",
		} {
			if got := rec.Header().Get(name); got != want {
				t.Errorf("%s %s (%d): %s = %q, want %q", tc.method, tc.path, rec.Code, name, got, want)
			}
		}
	}

	// The config.json endpoints are the policy's: the same origin ('self')
	// and the socket it names.
	req := httptest.NewRequest(http.MethodGet, "/config.json", nil)
	req.Host = "localhost:8080"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"ws":"ws://localhost:8080/ws"`) || !strings.Contains(rec.Body.String(), `"content":"http://localhost:8080/graphql"`) {
		t.Errorf("config.json endpoints changed; check the policy's connect-src: %s", rec.Body.String())
	}
}

// A Host header that is not a plain host[:port] cannot add sources or
// directives to the policy.
func TestLocalPolicyIgnoresOddHosts(t *testing.T) {
	for _, host := range []string{"", "a;script-src *", "a b", "evil'", strings.Repeat("a", 300)} {
		if got := webapp.LocalContentSecurityPolicy(host); got != webapp.ContentSecurityPolicy {
			t.Errorf("host %q: policy %q", host, got)
		}
	}
	if got := webapp.LocalContentSecurityPolicy("[::1]:8080"); !strings.Contains(got, " ws://[::1]:8080 wss://[::1]:8080;") {
		t.Errorf("IPv6 host: %q", got)
	}
}

// TestEveryRouteDecodesStrictly sends every JSON route of the assembled
// server (signed in, so private routes reach their decoding) a body with a
// field given twice, a field in another letter case and a field that is not
// UTF-8: each must be refused with 410 naming the field, so no route decodes
// by another path.
func TestEveryRouteDecodesStrictly(t *testing.T) {
	_, h := testServer(t)
	const email = "strict@example.com"
	hdr := map[string]string{}
	if _, env := post(t, h, "/fe-ex-api/v4/common/emailValidCode", `{"email":"`+email+`","operationType":1}`, hdr); env.Code != "0" {
		t.Fatalf("email code: %+v", env)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/dev/outbox?to="+email, nil))
	var sent []struct{ Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &sent); err != nil || len(sent) == 0 {
		t.Fatalf("outbox: %s", rec.Body.String())
	}
	if _, env := post(t, h, "/fe-ex-api/user/register", `{"email":"`+email+`","loginPword":"Passw0rd1","code":"`+sent[len(sent)-1].Code+`"}`, hdr); env.Code != "0" {
		t.Fatalf("register: %+v", env)
	}
	_, env := post(t, h, "/fe-ex-api/user/login_in", `{"email":"`+email+`","loginPword":"Passw0rd1"}`, hdr)
	var login struct{ Token string }
	if env.Code != "0" || json.Unmarshal(env.Data, &login) != nil || login.Token == "" {
		t.Fatalf("login: %+v", env)
	}
	hdr[httpapi.HeaderToken] = login.Token

	routes := apiRoutes(t, h)
	checked := 0
	for path, op := range routes {
		var names []string
		for name := range requestProps(op) {
			if name != "uaTime" && name != "securityInfo" && strings.ToUpper(name) != name {
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			continue
		}
		sort.Strings(names)
		f := names[0]
		for body, want := range map[string]string{
			`{"` + f + `":"1","` + f + `":"2"}`:     f + ": duplicate key",
			`{"` + strings.ToUpper(f) + `":"1"}`:    strings.ToUpper(f) + ": unknown field: names are case-sensitive",
			"{\"" + f + "\":\"a\xffb\",\"x\":1}":    f + ": must be valid UTF-8 text",
			`{"` + f + `":"\udc00","uaTime":"now"}`: f + ": must be valid UTF-8 text",
		} {
			_, env := post(t, h, path, body, hdr)
			if env.Code != apperr.CodeParam || !strings.Contains(env.Msg, want) {
				t.Errorf("%s %q: %s %q, want 410 with %q", path, body, env.Code, env.Msg, want)
			}
		}
		checked++
	}
	t.Logf("%d of %d JSON routes checked", checked, len(routes))
	if checked < 20 {
		t.Fatalf("only %d routes checked", checked)
	}
}
