package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
)

type fakeSessions map[string]string

func (f fakeSessions) ResolveSession(_ context.Context, token string) (Principal, error) {
	if uid, ok := f[token]; ok {
		return Principal{UserID: uid, SessionID: "s-" + token}, nil
	}
	return Principal{}, apperr.New(apperr.CodeNotSignedIn)
}

type echoReq struct {
	Email string     `json:"email" v:"required"`
	Count FlexInt    `json:"count"`
	Code  FlexString `json:"code"`
	Tags  []string   `json:"tags"`
}

func (r *echoReq) Validate() error {
	if !strings.Contains(r.Email, "@") {
		return apperr.Param("email: must be an e-mail address")
	}
	return nil
}

type echoResp struct {
	Email string `json:"email"`
	Count int64  `json:"count"`
	Code  string `json:"code"`
	UID   string `json:"uid"`
}

func testRouter() *Router {
	r := NewRouter(Options{Service: "test", Log: zerolog.Nop(), Sessions: fakeSessions{"good": "u1"}})
	Handle(r, "/fe-ex-api/echo", RouteOpts{Summary: "echo"}, func(c *Call, req *echoReq) (echoResp, error) {
		return echoResp{Email: req.Email, Count: req.Count.V, Code: req.Code.String(), UID: c.Principal.UserID}, nil
	})
	Handle(r, "/fe-ex-api/private", RouteOpts{Auth: Private}, func(c *Call, _ *Empty) (map[string]string, error) {
		return map[string]string{"uid": c.Principal.UserID}, nil
	})
	Handle(r, "/fe-ex-api/panic", RouteOpts{}, func(c *Call, _ *Empty) (Empty, error) {
		panic("boom")
	})
	return r
}

func do(t *testing.T, h http.Handler, body string, mod func(*http.Request)) (*httptest.ResponseRecorder, Envelope) {
	t.Helper()
	return doPath(t, h, "/fe-ex-api/echo", body, mod)
}

func doPath(t *testing.T, h http.Handler, path, body string, mod func(*http.Request)) (*httptest.ResponseRecorder, Envelope) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if mod != nil {
		mod(req)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("response is not an envelope: %q", rec.Body.String())
	}
	return rec, env
}

func TestDecodeAndValidate(t *testing.T) {
	r := testRouter()
	cases := []struct {
		name, body, code, msgPart string
	}{
		{"ok with numbers as strings", `{"email":"a@b.c","count":"17","code":123456,"uaTime":"2026-01-01 00:00:00","securityInfo":"{}"}`, "0", "success"},
		{"malformed", `{"email":`, "410", "malformed JSON"},
		{"not an object", `[1,2]`, "410", "body must be a JSON object"},
		{"trailing data", `{"email":"a@b.c"} {}`, "410", "data after the object"},
		{"wrong type", `{"email":5}`, "410", "email: must be a string"},
		{"wrong flexint", `{"email":"a@b.c","count":"x"}`, "410", "count: must be an integer"},
		{"wrong flexstring", `{"email":"a@b.c","code":true}`, "410", "code: must be a string or a number"},
		{"wrong array", `{"email":"a@b.c","tags":"x"}`, "410", "tags: must be an array"},
		{"missing required", `{}`, "410", "email: required"},
		{"empty body", ``, "410", "email: required"},
		{"blank required", `{"email":"   "}`, "410", "email: required"},
		{"validate method", `{"email":"nope"}`, "410", "must be an e-mail"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, env := do(t, r, tc.body, nil)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d, want 200", rec.Code)
			}
			if env.Code != tc.code || !strings.Contains(env.Msg, tc.msgPart) {
				t.Fatalf("got code %s msg %q, want %s containing %q", env.Code, env.Msg, tc.code, tc.msgPart)
			}
		})
	}
	_, env := do(t, r, `{"email":"a@b.c","count":17,"code":"654321"}`, nil)
	data := env.Data.(map[string]any)
	if data["count"].(float64) != 17 || data["code"] != "654321" || data["email"] != "a@b.c" {
		t.Fatalf("unexpected data %v", data)
	}
}

func TestBodyTooLarge(t *testing.T) {
	r := testRouter()
	big := `{"email":"a@b.c","code":"` + strings.Repeat("x", DefaultMaxBody) + `"}`
	rec, env := do(t, r, big, nil)
	if rec.Code != http.StatusRequestEntityTooLarge || env.Code != apperr.CodeBodyTooLarge {
		t.Fatalf("got %d %s", rec.Code, env.Code)
	}
}

func TestLanguage(t *testing.T) {
	r := testRouter()
	_, env := do(t, r, `{`, func(req *http.Request) { req.Header.Set(HeaderLanguage, "mn_MN") })
	if !strings.HasPrefix(env.Msg, "Параметрийн алдаа") {
		t.Fatalf("want Mongolian message, got %q", env.Msg)
	}
	_, env = do(t, r, `{`, func(req *http.Request) { req.AddCookie(&http.Cookie{Name: CookieLang, Value: "mn_MN"}) })
	if !strings.HasPrefix(env.Msg, "Параметрийн алдаа") {
		t.Fatalf("want Mongolian message from cookie, got %q", env.Msg)
	}
}

func TestAuthAndAntiForgery(t *testing.T) {
	r := testRouter()
	private := func(mod func(*http.Request)) (int, Envelope) {
		rec, env := doPath(t, r, "/fe-ex-api/private", `{}`, mod)
		return rec.Code, env
	}
	if _, env := private(nil); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous: got %s", env.Code)
	}
	if _, env := private(func(q *http.Request) { q.Header.Set(HeaderToken, "bad") }); env.Code != apperr.CodeNotSignedIn {
		t.Fatalf("bad token: got %s", env.Code)
	}
	if _, env := private(func(q *http.Request) { q.Header.Set(HeaderToken, "good") }); env.Code != "0" || env.Data.(map[string]any)["uid"] != "u1" {
		t.Fatalf("header auth: got %s %v", env.Code, env.Data)
	}
	// The cookie alone is not enough: the anti-forgery header must match.
	status, env := private(func(q *http.Request) { q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"}) })
	if status != http.StatusForbidden || env.Code != apperr.CodeForbidden {
		t.Fatalf("cookie without xsrf: got %d %s", status, env.Code)
	}
	status, env = private(func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.AddCookie(&http.Cookie{Name: CookieXSRF, Value: "abc"})
		q.Header.Set(HeaderXSRF, "abd")
	})
	if status != http.StatusForbidden || env.Code != apperr.CodeForbidden {
		t.Fatalf("cookie with wrong xsrf: got %d %s", status, env.Code)
	}
	// A cookie and header that merely agree are not enough either: the
	// header must carry the token derived from the session.
	status, env = private(func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.AddCookie(&http.Cookie{Name: CookieXSRF, Value: "abc"})
		q.Header.Set(HeaderXSRF, "abc")
	})
	if status != http.StatusForbidden || env.Code != apperr.CodeForbidden {
		t.Fatalf("cookie with an agreeing but unbound xsrf pair: got %d %s", status, env.Code)
	}
	_, env = private(func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.AddCookie(&http.Cookie{Name: CookieXSRF, Value: XSRFToken("good")})
		q.Header.Set(HeaderXSRF, XSRFToken("good"))
	})
	if env.Code != "0" {
		t.Fatalf("cookie with xsrf: got %s", env.Code)
	}
	// The header alone decides: a stale cookie does not matter.
	_, env = private(func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.Header.Set(HeaderXSRF, XSRFToken("good"))
	})
	if env.Code != "0" {
		t.Fatalf("cookie with xsrf header and no xsrf cookie: got %s", env.Code)
	}
	// A public route with an untrusted cookie runs anonymously.
	_, env = do(t, r, `{"email":"a@b.c"}`, func(q *http.Request) { q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"}) })
	if env.Code != "0" || env.Data.(map[string]any)["uid"] != "" {
		t.Fatalf("public with cookie and no xsrf: %s %v", env.Code, env.Data)
	}
}

// TestXSRFCookieIssued: a browser with a session cookie gets its session's
// anti-forgery token when its cookie is missing or stale; one without a
// session gets none (there is nothing to protect), and a current cookie is
// left alone.
func TestXSRFCookieIssued(t *testing.T) {
	r := testRouter()
	xsrfOf := func(rec *httptest.ResponseRecorder) *http.Cookie {
		for _, c := range rec.Result().Cookies() {
			if c.Name == CookieXSRF {
				return c
			}
		}
		return nil
	}
	rec, _ := do(t, r, `{"email":"a@b.c"}`, nil)
	if ck := xsrfOf(rec); ck != nil {
		t.Fatalf("anti-forgery cookie issued without a session: %+v", ck)
	}
	rec, _ = do(t, r, `{"email":"a@b.c"}`, func(q *http.Request) { q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"}) })
	if ck := xsrfOf(rec); ck == nil || ck.Value != XSRFToken("good") || len(ck.Value) != 64 || ck.HttpOnly {
		t.Fatalf("no readable anti-forgery cookie for the session: %+v", ck)
	}
	rec, _ = do(t, r, `{"email":"a@b.c"}`, func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.AddCookie(&http.Cookie{Name: CookieXSRF, Value: "stale"})
	})
	if ck := xsrfOf(rec); ck == nil || ck.Value != XSRFToken("good") {
		t.Fatalf("stale anti-forgery cookie not replaced: %+v", ck)
	}
	rec, _ = do(t, r, `{"email":"a@b.c"}`, func(q *http.Request) {
		q.AddCookie(&http.Cookie{Name: CookieToken, Value: "good"})
		q.AddCookie(&http.Cookie{Name: CookieXSRF, Value: XSRFToken("good")})
	})
	if ck := xsrfOf(rec); ck != nil {
		t.Fatal("XSRF-TOKEN reissued although current")
	}
	// One session, one token, whichever router (or AWS function) derives
	// it; another session's differs, and neither shows the session token.
	if XSRFToken("t") != XSRFToken("t") || XSRFToken("t") == XSRFToken("u") || strings.Contains(XSRFToken("good"), "good") {
		t.Fatal("anti-forgery token is not a function of the session")
	}
}

func TestNotFoundMethodPanic(t *testing.T) {
	r := testRouter()
	rec, env := doPath(t, r, "/fe-ex-api/nope", `{}`, nil)
	if rec.Code != http.StatusNotFound || env.Code != apperr.CodeNotFound {
		t.Fatalf("unknown path: %d %s", rec.Code, env.Code)
	}
	req := httptest.NewRequest(http.MethodGet, "/fe-ex-api/echo", nil)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed || !strings.Contains(w.Body.String(), apperr.CodeMethod) {
		t.Fatalf("GET: %d %s", w.Code, w.Body.String())
	}
	rec, env = doPath(t, r, "/fe-ex-api/panic", `{}`, nil)
	if rec.Code != http.StatusServiceUnavailable || env.Code != apperr.CodeInternal {
		t.Fatalf("panic: %d %s", rec.Code, env.Code)
	}
}

func TestOpenAPIListsRoutes(t *testing.T) {
	r := testRouter()
	doc := OpenAPI("Tenger", "test", r.Routes())
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	paths := doc["paths"].(map[string]any)
	echo := paths["/fe-ex-api/echo"].(map[string]any)["post"].(map[string]any)
	schema := echo["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)
	props := schema["properties"].(map[string]any)
	for _, f := range []string{"email", "count", "code", "tags", "uaTime", "securityInfo"} {
		if _, ok := props[f]; !ok {
			t.Errorf("request field %s missing from the OpenAPI document", f)
		}
	}
	if req := schema["required"].([]string); len(req) != 1 || req[0] != "email" {
		t.Errorf("required = %v", req)
	}
	if _, ok := paths["/fe-ex-api/private"].(map[string]any)["post"].(map[string]any)["security"]; !ok {
		t.Error("private route has no security requirement")
	}
	if !strings.Contains(string(b), `"10002"`) {
		t.Error("error catalogue missing from the document")
	}
}

// A mistyped field of an embedded request struct is named as the client
// wrote it, without the Go type's name.
func TestDecodeErrorNamesJSONPath(t *testing.T) {
	type Base struct {
		Amount string `json:"amount"`
	}
	var req struct {
		Base
		Coin string `json:"coinSymbol"`
	}
	err := decodeError(json.Unmarshal([]byte(`{"amount":5,"coinSymbol":"USDT"}`), &req))
	if ae := apperr.As(err); ae.Entry.Code != apperr.CodeParam || !strings.HasSuffix(ae.Entry.EN, ": amount: must be a string") {
		t.Fatalf("%v", err)
	}
}
