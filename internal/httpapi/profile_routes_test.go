package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

type profClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *profClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *profClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type profOutbox struct {
	mu   sync.Mutex
	msgs []auth.Message
}

func (o *profOutbox) send(_ context.Context, m auth.Message) error {
	o.mu.Lock()
	o.msgs = append(o.msgs, m)
	o.mu.Unlock()
	return nil
}

func (o *profOutbox) last(to string, op int) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.msgs) - 1; i >= 0; i-- {
		if o.msgs[i].To == to && o.msgs[i].OperationType == op {
			return o.msgs[i].Code
		}
	}
	return ""
}

type profEnv struct {
	dir   string
	h     http.Handler
	svc   *auth.Service
	st    store.Store
	clock *profClock
	box   *profOutbox
	close func()
}

func newProfEnv(t *testing.T) *profEnv {
	t.Helper()
	p := &profEnv{dir: t.TempDir(), clock: &profClock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}, box: &profOutbox{}}
	p.open(t)
	t.Cleanup(func() { p.close() })
	return p
}

// open starts the service on the env's data directory (again, for a restart).
func (p *profEnv) open(t *testing.T) {
	t.Helper()
	st, err := embedded.Open(p.dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	svc := auth.New(auth.Options{Store: st, Notifier: auth.NotifierFunc(p.box.send), Now: p.clock.Now, Log: zerolog.Nop(),
		Password: &auth.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, SecretKey: []byte("k")})
	p.h, p.svc, p.st = NewProfileRouter(svc, Options{Log: zerolog.Nop(), Now: p.clock.Now}), svc, st
	p.close = func() { _ = st.Close() }
}

// authMode says how a request authenticates.
type authMode struct {
	header string // exchange-token header
	cookie string // token cookie
	xsrf   bool   // send the session's anti-forgery token as XSRF cookie and header
	forged string // send this XSRF cookie and header pair instead
	device string // trusted-device cookie
}

func hdr(token string) authMode { return authMode{header: token} }

func (p *profEnv) post(t *testing.T, path string, body any, a authMode) (*httptest.ResponseRecorder, Envelope) {
	t.Helper()
	var raw string
	switch b := body.(type) {
	case string:
		raw = b
	default:
		bs, _ := json.Marshal(b)
		raw = string(bs)
	}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderClient, "pc")
	req.Header.Set(HeaderDevice, "dev-1")
	if a.header != "" {
		req.Header.Set(HeaderToken, a.header)
	}
	if a.cookie != "" {
		req.AddCookie(&http.Cookie{Name: CookieToken, Value: a.cookie})
	}
	if a.device != "" {
		req.AddCookie(&http.Cookie{Name: CookieDevice, Value: a.device})
	}
	if a.xsrf || a.forged != "" {
		v := XSRFToken(a.cookie)
		if a.forged != "" {
			v = a.forged
		}
		req.AddCookie(&http.Cookie{Name: CookieXSRF, Value: v})
		req.Header.Set(HeaderXSRF, v)
	}
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatalf("%s: not an envelope: %q", path, rec.Body.String())
	}
	if rec.Code >= 500 {
		t.Fatalf("%s: HTTP %d %+v", path, rec.Code, env)
	}
	return rec, env
}

// ok posts and requires code "0"; it returns data as a map.
func (p *profEnv) ok(t *testing.T, path string, body any, a authMode) map[string]any {
	t.Helper()
	_, env := p.post(t, path, body, a)
	if env.Code != "0" {
		t.Fatalf("%s: code %s %q", path, env.Code, env.Msg)
	}
	m, _ := env.Data.(map[string]any)
	return m
}

// fails posts and requires the catalogue code.
func (p *profEnv) fails(t *testing.T, path string, body any, a authMode, code string) Envelope {
	t.Helper()
	_, env := p.post(t, path, body, a)
	if env.Code != code {
		t.Fatalf("%s: want code %s, got %s %q", path, code, env.Code, env.Msg)
	}
	if env.Msg == "" || env.Data != nil && code != apperr.CodeAccountLocked && code != apperr.CodeCodeResendWait && code != apperr.CodeTooManyRequests {
		t.Fatalf("%s: error envelope %+v", path, env)
	}
	return env
}

const (
	pEmailCode = "/fe-ex-api/v4/common/emailValidCode"
	pSMSCode   = "/fe-ex-api/v4/common/smsValidCode"
	pRegister  = "/fe-ex-api/user/register"
	pLogin     = "/fe-ex-api/user/login_in"
	pConfirm   = "/fe-ex-api/user/confirm_login"
	pLogout    = "/fe-ex-api/user/login_out"
	pUserInfo  = "/fe-ex-api/common/user_info"
	pReset1    = "/fe-ex-api/user/reset_password_step_one"
	pReset2    = "/fe-ex-api/user/reset_password_step_two"
	pReset3    = "/fe-ex-api/user/reset_password_step_three"
	pGoogleNew = "/fe-ex-api/user/toopen_google_authenticator"
	pGoogleOn  = "/fe-ex-api/user/google_verify"
	pGoogleOff = "/fe-ex-api/user/close_google_verify"
	pBindPhone = "/fe-ex-api/user/mobile_bind_save"
	pEmailUpd  = "/fe-ex-api/user/email_update"
	pMobileUpd = "/fe-ex-api/user/mobile_update"
	pMobileOn  = "/fe-ex-api/user/open_mobile_verify"
	pMobileOff = "/fe-ex-api/user/close_mobile_verify"
	pPassword  = "/fe-ex-api/user/password_update"
	pNickname  = "/fe-ex-api/user/nickname_update"
	pLoginHist = "/fe-ex-api/security/login_history"
	pSetHist   = "/fe-ex-api/security/setting_history"
	pResetSend = "/fe-ex-api/user/authenticator_reset/send_codes"
	pResetAuth = "/fe-ex-api/user/authenticator_reset/confirm"
)

// envelope fields every call carries (spec §7).
func withEnv(m map[string]any) map[string]any {
	m["uaTime"] = "2026-11-21 10:00:00"
	m["securityInfo"] = `{"timestamp":1}`
	return m
}

func (p *profEnv) signUp(t *testing.T, email, pw string) string {
	t.Helper()
	p.ok(t, pEmailCode, withEnv(map[string]any{"email": email, "operationType": 1}), authMode{})
	d := p.ok(t, pRegister, withEnv(map[string]any{"email": email, "loginPword": pw, "code": p.box.last(email, 1)}), authMode{})
	return d["uid"].(string)
}

func (p *profEnv) signIn(t *testing.T, email, pw string) string {
	t.Helper()
	rec, env := p.post(t, pLogin, withEnv(map[string]any{"email": email, "loginPword": pw}), authMode{})
	if env.Code != "0" {
		t.Fatalf("login: %+v", env)
	}
	tok := env.Data.(map[string]any)["token"].(string)
	var ck *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == CookieToken {
			ck = c
		}
	}
	if ck == nil || ck.Value != tok || ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.MaxAge != 7*24*3600 || ck.Path != "/" {
		t.Fatalf("session cookie %+v", ck)
	}
	return tok
}

func code6(t *testing.T, secret string, at time.Time) string {
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestProfileJourney is the judged journey: sign up by e-mail with the
// outbox code, sign in, user_info, turn on Google, sign out, sign in with
// the TOTP step, restart, and find everything as it was.
func TestProfileJourney(t *testing.T) {
	p := newProfEnv(t)
	uid := p.signUp(t, "new@example.com", "passw0rd")
	tok := p.signIn(t, "new@example.com", "passw0rd")
	info := p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok))
	if info["id"] != uid || info["email"] != "new@example.com" || info["googleStatus"] != float64(0) ||
		info["isOpenMobileCheck"] != float64(0) || info["kycStatus"] != float64(0) || info["accountType"] != "regular" {
		t.Fatalf("user_info %+v", info)
	}
	for _, f := range []string{"realName", "firstName", "lastName", "nickName", "mobileNumber", "countryCode", "country", "ctime"} {
		if _, ok := info[f]; !ok {
			t.Fatalf("user_info lacks %s", f)
		}
	}
	g := p.ok(t, pGoogleNew, withEnv(map[string]any{}), hdr(tok))
	secret := g["secret"].(string)
	if !strings.HasPrefix(g["qrCode"].(string), "data:image/png;base64,") || !strings.HasPrefix(g["otpauthUri"].(string), "otpauth://totp/") {
		t.Fatalf("google set-up %+v", g)
	}
	p.fails(t, pGoogleOn, withEnv(map[string]any{"googleCode": code6(t, secret, p.clock.Now()), "loginPwd": "wrong0000"}), hdr(tok), apperr.CodeWrongPassword)
	p.ok(t, pGoogleOn, withEnv(map[string]any{"googleCode": code6(t, secret, p.clock.Now()), "loginPwd": "passw0rd"}), hdr(tok))
	rec, _ := p.post(t, pLogout, withEnv(map[string]any{}), hdr(tok))
	cleared := false
	for _, c := range rec.Result().Cookies() {
		cleared = cleared || c.Name == CookieToken && c.MaxAge < 0
	}
	if !cleared {
		t.Fatal("logout did not clear the cookie")
	}
	p.fails(t, pUserInfo, withEnv(map[string]any{}), hdr(tok), apperr.CodeNotSignedIn)

	p.clock.Add(30 * time.Second)
	d := p.ok(t, pLogin, withEnv(map[string]any{"email": "new@example.com", "loginPword": "passw0rd"}), authMode{})
	if d["type"] != "google" || d["token"] == "" {
		t.Fatalf("want google challenge, got %+v", d)
	}
	ch := d["token"].(string)
	p.fails(t, pUserInfo, withEnv(map[string]any{}), hdr(ch), apperr.CodeNotSignedIn)
	p.fails(t, pConfirm, withEnv(map[string]any{"token": ch, "authCode": "000000"}), authMode{}, apperr.CodeGoogleCodeWrong)
	d = p.ok(t, pConfirm, withEnv(map[string]any{"token": ch, "authCode": code6(t, secret, p.clock.Now())}), authMode{})
	tok = d["token"].(string)
	p.fails(t, pConfirm, withEnv(map[string]any{"token": ch, "authCode": code6(t, secret, p.clock.Now())}), authMode{}, apperr.CodeChallengeExpired)

	// Restart: the same data directory, a new service.
	p.close()
	p.open(t)
	info = p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok))
	if info["id"] != uid || info["googleStatus"] != float64(1) {
		t.Fatalf("after restart %+v", info)
	}
	h := p.ok(t, pLoginHist, withEnv(map[string]any{"page": 1, "pageSize": 10}), hdr(tok))
	if h["count"] != float64(4) || len(h["list"].([]any)) != 4 {
		t.Fatalf("login history %+v", h)
	}
	entry := h["list"].([]any)[0].(map[string]any)
	if entry["ip"] != "192.0.2.1" || entry["device"] != "dev-1" || entry["action"] != "Signed in" || entry["time"].(float64) <= 0 {
		t.Fatalf("history entry %+v", entry)
	}
	s := p.ok(t, pSetHist, withEnv(map[string]any{"page": "1", "pageSize": "5"}), hdr(tok))
	if s["count"] != float64(2) {
		t.Fatalf("setting history %+v", s)
	}
}

func TestProfileCookieAuthNeedsXSRF(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "x@example.com", "passw0rd")
	tok := p.signIn(t, "x@example.com", "passw0rd")
	p.fails(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tok}, apperr.CodeForbidden)
	p.ok(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tok, xsrf: true})
	p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok))
	p.fails(t, pUserInfo, withEnv(map[string]any{}), hdr("forged"), apperr.CodeNotSignedIn)
	// A cookie without the header does not act as the user on public routes.
	p.ok(t, pLogout, withEnv(map[string]any{}), authMode{cookie: tok})
	p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tok))
	p.ok(t, pLogout, withEnv(map[string]any{}), authMode{cookie: tok, xsrf: true})
	p.fails(t, pUserInfo, withEnv(map[string]any{}), hdr(tok), apperr.CodeNotSignedIn)
}

// TestProfileXSRFBoundToSession: the anti-forgery token is the one derived
// from the session the cookie names, handed out at sign-in. A cookie and
// header that merely agree (a value planted by another site), or the token
// of another session, are refused.
func TestProfileXSRFBoundToSession(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "a@example.com", "passw0rd")
	p.signUp(t, "b@example.com", "passw0rd")
	rec, env := p.post(t, pLogin, withEnv(map[string]any{"email": "a@example.com", "loginPword": "passw0rd"}), authMode{})
	if env.Code != "0" {
		t.Fatalf("login: %+v", env)
	}
	tokA := env.Data.(map[string]any)["token"].(string)
	// Any agreeing pair used to pass.
	p.fails(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tokA, forged: "xsrf-1"}, apperr.CodeForbidden)
	xsrfA := cookieNamed(rec, CookieXSRF)
	if xsrfA == nil || xsrfA.HttpOnly || xsrfA.Value == "" || xsrfA.Path != "/" || xsrfA.MaxAge != int(auth.SessionTTL/time.Second) {
		t.Fatalf("sign-in set no readable anti-forgery cookie: %+v", xsrfA)
	}
	tokB := p.signIn(t, "b@example.com", "passw0rd")

	// The browser's own pair works, exactly as the web app sends it.
	req := httptest.NewRequest(http.MethodPost, pUserInfo, strings.NewReader(`{}`))
	req.AddCookie(&http.Cookie{Name: CookieToken, Value: tokA})
	req.AddCookie(&http.Cookie{Name: CookieXSRF, Value: xsrfA.Value})
	req.Header.Set(HeaderXSRF, xsrfA.Value)
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, req)
	if !strings.Contains(w.Body.String(), `"code":"0"`) || !strings.Contains(w.Body.String(), "a@example.com") {
		t.Fatalf("cookie session with its own token: %s", w.Body.String())
	}
	if cookieNamed(w, CookieXSRF) != nil {
		t.Error("anti-forgery cookie reissued although it was current")
	}

	p.fails(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tokA, forged: xsrfA.Value + "0"}, apperr.CodeForbidden)
	// Another session's token does not carry over.
	p.fails(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tokA, forged: XSRFToken(tokB)}, apperr.CodeForbidden)
	// On a public route the forged pair leaves the call anonymous: sign-out
	// does not end the session.
	p.ok(t, pLogout, withEnv(map[string]any{}), authMode{cookie: tokA, forged: "xsrf-1"})
	p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(tokA))

	// A browser whose anti-forgery cookie is stale gets its session's token
	// back (even on a refused call), so the web app recovers by itself.
	rec, _ = p.post(t, pUserInfo, withEnv(map[string]any{}), authMode{cookie: tokA, forged: "stale"})
	if ck := cookieNamed(rec, CookieXSRF); ck == nil || ck.Value != xsrfA.Value {
		t.Fatalf("stale anti-forgery cookie not refreshed: %+v", ck)
	}
	// Sign-out clears it with the session cookie.
	rec, _ = p.post(t, pLogout, withEnv(map[string]any{}), authMode{cookie: tokA, xsrf: true})
	if ck := cookieNamed(rec, CookieXSRF); ck == nil || ck.MaxAge >= 0 {
		t.Fatalf("sign-out kept the anti-forgery cookie: %+v", ck)
	}
}

// cookieNamed is the last cookie of that name the answer sets.
func cookieNamed(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	var out *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == name {
			out = c
		}
	}
	return out
}

// TestProfileEveryRouteSuccess walks every route's success path.
func TestProfileEveryRouteSuccess(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "all@example.com", "passw0rd")
	tok := p.signIn(t, "all@example.com", "passw0rd")
	a := hdr(tok)
	// Phone: bind (4), change (5), SMS check on/off (11).
	p.ok(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": 99110000, "smsType": "0", "operationType": "4"}), a)
	p.ok(t, pBindPhone, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99110000", "smsAuthCode": p.box.last("+97699110000", 4)}), a)
	p.ok(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99110001", "smsType": 0, "operationType": 5}), a)
	p.ok(t, pMobileUpd, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99110001", "smsAuthCode": p.box.last("+97699110001", 5)}), a)
	p.ok(t, pSMSCode, withEnv(map[string]any{"smsType": "0", "operationType": 11}), a)
	p.ok(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": p.box.last("+97699110001", 11)}), a)
	p.clock.Add(90 * time.Second)
	p.ok(t, pSMSCode, withEnv(map[string]any{"operationType": 11}), a)
	p.ok(t, pMobileOff, withEnv(map[string]any{"smsAuthCode": p.box.last("+97699110001", 11)}), a)
	// E-mail change (5).
	p.ok(t, pEmailCode, withEnv(map[string]any{"email": "all2@example.com", "operationType": 5}), a)
	p.ok(t, pEmailCode, withEnv(map[string]any{"operationType": 17}), a)
	p.ok(t, pEmailUpd, withEnv(map[string]any{"email": "all2@example.com", "emailCode": p.box.last("all2@example.com", 5),
		"oldEmailCode": p.box.last("all@example.com", 17)}), a)
	// Nickname, password.
	p.ok(t, pNickname, withEnv(map[string]any{"nickName": "Bataa"}), a)
	p.ok(t, pPassword, withEnv(map[string]any{"loginPword": "passw0rd", "newLoginPword": "passw0rd2"}), a)
	// Google on then off.
	g := p.ok(t, pGoogleNew, withEnv(map[string]any{}), a)
	p.ok(t, pGoogleOn, withEnv(map[string]any{"googleCode": code6(t, g["secret"].(string), p.clock.Now()), "loginPwd": "passw0rd2"}), a)
	p.clock.Add(30 * time.Second)
	p.ok(t, pGoogleOff, withEnv(map[string]any{"googleCode": code6(t, g["secret"].(string), p.clock.Now())}), a)
	info := p.ok(t, pUserInfo, withEnv(map[string]any{}), a)
	if info["email"] != "all2@example.com" || info["mobileNumber"] != "99110001" || info["nickName"] != "Bataa" ||
		info["googleStatus"] != float64(0) || info["isOpenMobileCheck"] != float64(0) {
		t.Fatalf("user_info %+v", info)
	}
	s := p.ok(t, pSetHist, withEnv(map[string]any{}), a)
	if s["count"] != float64(10) {
		t.Fatalf("setting history count %v, want 10: %+v", s["count"], s)
	}
	// Forgot password by phone, three steps.
	p.ok(t, pReset1, withEnv(map[string]any{"countryCode": "+976", "mobileNumber": "99110001"}), authMode{})
	d := p.ok(t, pReset2, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99110001", "code": p.box.last("+97699110001", 3)}), authMode{})
	p.ok(t, pReset3, withEnv(map[string]any{"token": d["token"], "loginPword": "passw0rd3"}), authMode{})
	p.fails(t, pUserInfo, withEnv(map[string]any{}), a, apperr.CodeNotSignedIn)
	p.signIn(t, "all2@example.com", "passw0rd3")
	// Register by phone.
	p.ok(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "88000000", "operationType": 1}), authMode{})
	d = p.ok(t, pRegister, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "88000000", "loginPword": "passw0rd", "code": p.box.last("+97688000000", 1), "invitedCode": "12345678"}), authMode{})
	if len(d["uid"].(string)) != 8 {
		t.Fatalf("register %+v", d)
	}
}

func TestProfileMobileChallenge(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "mc@example.com", "passw0rd")
	a := hdr(p.signIn(t, "mc@example.com", "passw0rd"))
	p.ok(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99001100", "operationType": 4}), a)
	p.ok(t, pBindPhone, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99001100", "smsAuthCode": p.box.last("+97699001100", 4)}), a)
	p.ok(t, pSMSCode, withEnv(map[string]any{"operationType": 11}), a)
	p.ok(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": p.box.last("+97699001100", 11)}), a)
	d := p.ok(t, pLogin, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99001100", "loginPword": "passw0rd"}), authMode{})
	if d["type"] != "mobile" {
		t.Fatalf("want mobile challenge: %+v", d)
	}
	code := p.box.last("+97699001100", 25)
	if code == "" {
		t.Fatal("no operationType 25 SMS sent")
	}
	p.fails(t, pConfirm, withEnv(map[string]any{"token": d["token"], "authCode": "12345"}), authMode{}, apperr.CodeVerifyCodeWrong)
	d = p.ok(t, pConfirm, withEnv(map[string]any{"token": d["token"], "authCode": code}), authMode{})
	p.ok(t, pUserInfo, withEnv(map[string]any{}), hdr(d["token"].(string)))
}

// TestProfileCodesWrongReusedExpired drives code failures through HTTP.
func TestProfileCodesWrongReusedExpired(t *testing.T) {
	p := newProfEnv(t)
	p.ok(t, pEmailCode, withEnv(map[string]any{"email": "c@example.com", "operationType": 1}), authMode{})
	env := p.fails(t, pEmailCode, withEnv(map[string]any{"email": "c@example.com", "operationType": 1}), authMode{}, apperr.CodeCodeResendWait)
	if env.Data.(map[string]any)["retryAfter"] != float64(90) || !strings.Contains(env.Msg, "90") {
		t.Fatalf("resend answer %+v", env)
	}
	code := p.box.last("c@example.com", 1)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	reg := withEnv(map[string]any{"email": "c@example.com", "loginPword": "passw0rd", "code": wrong})
	p.fails(t, pRegister, reg, authMode{}, apperr.CodeVerifyCodeWrong)
	reg["code"] = code
	p.ok(t, pRegister, reg, authMode{})
	// The code is spent: signing up again says so, not whether the
	// account exists (the code-sending step does, within its limits).
	reg["email"] = "c@example.com"
	p.fails(t, pRegister, reg, authMode{}, apperr.CodeCodeExpired)
	p.fails(t, pEmailCode, withEnv(map[string]any{"email": "c@example.com", "operationType": 1}), authMode{}, apperr.CodeAccountExists)

	// Reused: the forgot-password code works once.
	p.ok(t, pReset1, withEnv(map[string]any{"email": "c@example.com"}), authMode{})
	fc := p.box.last("c@example.com", 3)
	d := p.ok(t, pReset2, withEnv(map[string]any{"email": "c@example.com", "code": fc}), authMode{})
	p.fails(t, pReset2, withEnv(map[string]any{"email": "c@example.com", "code": fc}), authMode{}, apperr.CodeCodeExpired)
	p.ok(t, pReset3, withEnv(map[string]any{"token": d["token"], "loginPword": "passw0rd9"}), authMode{})
	p.fails(t, pReset3, withEnv(map[string]any{"token": d["token"], "loginPword": "passw0rd9"}), authMode{}, apperr.CodeResetTokenInvalid)
	p.fails(t, pReset3, withEnv(map[string]any{"token": "abc", "loginPword": "passw0rd9"}), authMode{}, apperr.CodeResetTokenInvalid)

	// Expired.
	p.ok(t, pEmailCode, withEnv(map[string]any{"email": "e@example.com", "operationType": 1}), authMode{})
	p.clock.Add(5*time.Minute + time.Second)
	p.fails(t, pRegister, withEnv(map[string]any{"email": "e@example.com", "loginPword": "passw0rd", "code": p.box.last("e@example.com", 1)}), authMode{}, apperr.CodeCodeExpired)
	// Lock-out answers say when.
	for i := 0; i < 4; i++ {
		p.fails(t, pLogin, withEnv(map[string]any{"email": "c@example.com", "loginPword": "nope12345"}), authMode{}, apperr.CodeBadCredentials)
	}
	env = p.fails(t, pLogin, withEnv(map[string]any{"email": "c@example.com", "loginPword": "nope12345"}), authMode{}, apperr.CodeAccountLocked)
	if env.Data.(map[string]any)["retryAfter"] != float64(900) || !strings.Contains(env.Msg, "900") {
		t.Fatalf("locked answer %+v", env)
	}
	// Other failures.
	p.fails(t, pEmailCode, withEnv(map[string]any{"email": "c@example.com", "operationType": 99}), authMode{}, apperr.CodeOperationNotAllowed)
	p.fails(t, pSMSCode, withEnv(map[string]any{"operationType": 11}), authMode{}, apperr.CodeParam)
	p.fails(t, pConfirm, withEnv(map[string]any{"token": strings.Repeat("a", 64), "authCode": "123456"}), authMode{}, apperr.CodeChallengeExpired)
	p.fails(t, pRegister, withEnv(map[string]any{"email": "w@example.com", "loginPword": "password", "code": "123456"}), authMode{}, apperr.CodeWeakPassword)
	// Mongolian messages.
	req := httptest.NewRequest(http.MethodPost, pLogin, strings.NewReader(`{"email":"nobody@example.com","loginPword":"x1234567"}`))
	req.Header.Set(HeaderLanguage, "mn_MN")
	rec := httptest.NewRecorder()
	p.h.ServeHTTP(rec, req)
	var e Envelope
	_ = json.Unmarshal(rec.Body.Bytes(), &e)
	if e.Code != apperr.CodeBadCredentials || e.Msg != "Бүртгэл эсвэл нууц үг буруу байна" {
		t.Fatalf("mn_MN answer %+v", e)
	}
}

// TestProfileEveryRouteRejectsBadInput sends malformed JSON, wrong types,
// missing fields and oversized bodies to every route, signed in for the
// private ones, and expects catalogue codes, never 5xx; and 10002 without
// a session on private routes.
func TestProfileEveryRouteRejectsBadInput(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "bad@example.com", "passw0rd")
	a := hdr(p.signIn(t, "bad@example.com", "passw0rd"))
	type route struct {
		path      string
		private   bool
		wrongType string // a body with a mistyped field ("" when the route has no fields)
		required  bool   // {} misses a required field
	}
	routes := []route{
		{pEmailCode, false, `{"email":"a@b.co","operationType":{"x":1}}`, true},
		{pSMSCode, false, `{"countryCode":"976","mobileNumber":true,"operationType":1}`, true},
		{pRegister, false, `{"email":["a"],"loginPword":"passw0rd","code":"123456"}`, true},
		{pLogin, false, `{"email":"a@b.co","loginPword":12345678}`, true},
		{pConfirm, false, `{"token":1,"authCode":"123456"}`, true},
		{pLogout, false, "", false},
		{pUserInfo, true, "", false},
		{pReset1, false, `{"email":{}}`, true},
		{pReset2, false, `{"email":"a@b.co","code":[1]}`, true},
		{pReset3, false, `{"token":"t","loginPword":false}`, true},
		{pGoogleNew, true, "", false},
		{pGoogleOn, true, `{"googleCode":"123456","loginPwd":1}`, true},
		{pGoogleOff, true, `{"googleCode":{}}`, true},
		{pBindPhone, true, `{"countryCode":"976","mobileNumber":"99","smsAuthCode":null,"googleCode":[]}`, true},
		{pEmailUpd, true, `{"email":5,"emailCode":"123456"}`, true},
		{pMobileUpd, true, `{"countryCode":[],"mobileNumber":"99","smsAuthCode":"1"}`, true},
		{pMobileOn, true, `{"smsAuthCode":{}}`, true},
		{pMobileOff, true, `{"smsAuthCode":"123456","googleCode":true}`, true},
		{pPassword, true, `{"loginPword":1,"newLoginPword":"x"}`, true},
		{pNickname, true, `{"nickName":7}`, true},
		{pLoginHist, true, `{"page":"one"}`, false},
		{pSetHist, true, `{"pageSize":1.5}`, false},
		{pResetSend, false, `{"token":7}`, true},
		{pResetAuth, false, `{"token":"t","emailCode":{},"smsAuthCode":"123456"}`, true},
	}
	big := `{"email":"` + strings.Repeat("a", DefaultMaxBody) + `"}`
	for _, r := range routes {
		t.Run(strings.TrimPrefix(r.path, "/fe-ex-api/"), func(t *testing.T) {
			if r.private {
				p.fails(t, r.path, `{}`, authMode{}, apperr.CodeNotSignedIn)
				p.fails(t, r.path, `{}`, authMode{cookie: strings.Repeat("a", 64)}, apperr.CodeForbidden)
			}
			p.fails(t, r.path, `{"email": "x@y.co",`, a, apperr.CodeParam)
			p.fails(t, r.path, `[1,2]`, a, apperr.CodeParam)
			p.fails(t, r.path, `{"a":1} trailing`, a, apperr.CodeParam)
			if r.wrongType != "" {
				p.fails(t, r.path, r.wrongType, a, apperr.CodeParam)
			}
			if r.required {
				env := p.fails(t, r.path, `{"uaTime":"2026-11-21 10:00:00"}`, a, apperr.CodeParam)
				if !strings.Contains(env.Msg, "required") {
					t.Fatalf("missing-field message %q", env.Msg)
				}
			}
			rec, env := p.post(t, r.path, big, a)
			if env.Code != apperr.CodeBodyTooLarge || rec.Code != http.StatusRequestEntityTooLarge {
				t.Fatalf("oversized body: HTTP %d %+v", rec.Code, env)
			}
			// GET is not allowed.
			req := httptest.NewRequest(http.MethodGet, r.path, nil)
			rr := httptest.NewRecorder()
			p.h.ServeHTTP(rr, req)
			if rr.Code >= 500 || !strings.Contains(rr.Body.String(), apperr.CodeMethod) {
				t.Fatalf("GET: %d %s", rr.Code, rr.Body.String())
			}
		})
	}
	// Paging bounds.
	p.fails(t, pLoginHist, `{"page":0}`, a, apperr.CodeParam)
	p.fails(t, pSetHist, `{"pageSize":1000}`, a, apperr.CodeParam)
	// Every route is documented.
	doc := OpenAPI("t", "1", NewProfileRouter(nil, Options{}).Routes())
	paths := doc["paths"].(map[string]any)
	for _, r := range routes {
		if paths[r.path] == nil {
			t.Fatalf("%s missing from OpenAPI", r.path)
		}
	}
	if len(paths) != len(routes) {
		t.Fatalf("%d routes documented, %d tested", len(paths), len(routes))
	}
}

// TestProfileSettingsCodeFailures: wrong, reused and expired codes and
// out-of-order calls on the settings routes.
func TestProfileSettingsCodeFailures(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "set@example.com", "passw0rd")
	a := hdr(p.signIn(t, "set@example.com", "passw0rd"))
	bind := withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99112200", "smsAuthCode": "123456"})
	p.fails(t, pBindPhone, bind, a, apperr.CodeCodeExpired) // never requested
	p.ok(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99112200", "operationType": 4}), a)
	good := p.box.last("+97699112200", 4)
	if good == "123456" {
		bind["smsAuthCode"] = "654321"
	}
	p.fails(t, pBindPhone, bind, a, apperr.CodeVerifyCodeWrong)
	bind["smsAuthCode"] = "12a456"
	p.fails(t, pBindPhone, bind, a, apperr.CodeVerifyCodeWrong)
	bind["smsAuthCode"] = good
	p.ok(t, pBindPhone, bind, a)
	p.fails(t, pBindPhone, bind, a, apperr.CodePhoneAlreadyBound)
	// The bind code cannot change the phone (other operation) and is used up anyway.
	p.fails(t, pMobileUpd, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99112201", "smsAuthCode": good}), a, apperr.CodeCodeExpired)
	p.fails(t, pMobileUpd, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99112200", "smsAuthCode": good}), a, apperr.CodeSameTarget)

	p.fails(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": "123456"}), a, apperr.CodeCodeExpired)
	p.ok(t, pSMSCode, withEnv(map[string]any{"operationType": 11}), a)
	sec := p.box.last("+97699112200", 11)
	p.clock.Add(5*time.Minute + time.Second)
	p.fails(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": sec}), a, apperr.CodeCodeExpired) // expired
	p.ok(t, pSMSCode, withEnv(map[string]any{"operationType": 11}), a)
	sec = p.box.last("+97699112200", 11)
	p.ok(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": sec}), a)
	p.fails(t, pMobileOff, withEnv(map[string]any{"smsAuthCode": sec}), a, apperr.CodeCodeExpired) // reused
	p.fails(t, pMobileOn, withEnv(map[string]any{"smsAuthCode": sec}), a, apperr.CodeMobileCheckAlreadyOn)

	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "other@example.com", "emailCode": "123456"}), a, apperr.CodeEmailCodeRequired)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "other@example.com", "emailCode": "123456", "oldEmailCode": "123456",
		"smsAuthCode": "123456"}), a, apperr.CodeCodeExpired)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "set@example.com", "emailCode": "123456"}), a, apperr.CodeSameTarget)
	p.fails(t, pEmailUpd, withEnv(map[string]any{"email": "bad", "emailCode": "123456"}), a, apperr.CodeParam)
	p.fails(t, pGoogleOn, withEnv(map[string]any{"googleCode": "123456", "loginPwd": "passw0rd"}), a, apperr.CodeGoogleNotSetUp)
	p.fails(t, pGoogleOff, withEnv(map[string]any{"googleCode": "123456"}), a, apperr.CodeGoogleNotSetUp)
	p.fails(t, pPassword, withEnv(map[string]any{"loginPword": "wrong1234", "newLoginPword": "passw0rd5"}), a, apperr.CodeWrongPassword)
	p.fails(t, pPassword, withEnv(map[string]any{"loginPword": "passw0rd", "newLoginPword": "weak"}), a, apperr.CodeWeakPassword)
	p.fails(t, pNickname, withEnv(map[string]any{"nickName": "<script>"}), a, apperr.CodeNicknameInvalid)
	p.fails(t, pSMSCode, withEnv(map[string]any{"countryCode": "976", "mobileNumber": "99112200", "operationType": 4}), a, apperr.CodeSameTarget)

	// With the mobile check on, closing Google needs the SMS code too.
	g := p.ok(t, pGoogleNew, withEnv(map[string]any{}), a)
	p.ok(t, pGoogleOn, withEnv(map[string]any{"googleCode": code6(t, g["secret"].(string), p.clock.Now()), "loginPwd": "passw0rd"}), a)
	p.clock.Add(30 * time.Second)
	p.fails(t, pGoogleOff, withEnv(map[string]any{"googleCode": code6(t, g["secret"].(string), p.clock.Now())}), a, apperr.CodeSMSCodeRequired)
	p.fails(t, pNickname, withEnv(map[string]any{"nickName": "ok"}), authMode{}, apperr.CodeNotSignedIn)
}

// The sign-in sets the trusted-device cookie, HttpOnly, and a sign-in that
// presents it passes while others have locked the account.
func TestLoginTrustedDeviceCookie(t *testing.T) {
	p := newProfEnv(t)
	p.signUp(t, "dev@example.com", "secret123")
	rec, env := p.post(t, pLogin, withEnv(map[string]any{"email": "dev@example.com", "loginPword": "secret123"}), authMode{})
	if env.Code != "0" {
		t.Fatalf("login: %+v", env)
	}
	var dev *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == CookieDevice {
			dev = c
		}
	}
	if dev == nil || len(dev.Value) != 64 || !dev.HttpOnly || dev.SameSite != http.SameSiteLaxMode || dev.MaxAge != 180*24*3600 {
		t.Fatalf("device cookie %+v", dev)
	}
	for i := 0; i < 5; i++ {
		p.post(t, pLogin, withEnv(map[string]any{"email": "dev@example.com", "loginPword": "guess-1234"}), authMode{})
	}
	login := withEnv(map[string]any{"email": "dev@example.com", "loginPword": "secret123"})
	if _, env := p.post(t, pLogin, login, authMode{}); env.Code != apperr.CodeAccountLocked {
		t.Fatalf("without the device cookie: %+v", env)
	}
	rec, env = p.post(t, pLogin, login, authMode{device: dev.Value})
	if env.Code != "0" {
		t.Fatalf("with the device cookie: %+v", env)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == CookieDevice {
			t.Fatalf("a trusted device got a new cookie %+v", c)
		}
	}
}
