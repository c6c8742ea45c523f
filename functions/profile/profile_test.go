package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/platform"
)

// TestSignUpAndInFromSampleEvents drives the profile function exactly as API
// Gateway does, with the recorded events in events/samples, against the
// DynamoDB adapter on DynamoDB Local: send the e-mail code, register with
// it, sign in (base64 body), then read user_info with cookie auth
// (token + XSRF-TOKEN cookies and the X-XSRF-TOKEN header) and with header
// auth (exchange-token).
func TestSignUpAndInFromSampleEvents(t *testing.T) {
	st := fntest.Table(t, "profile-fn")

	box := &fntest.Recorder{}
	var logs bytes.Buffer
	rt := awslambda.NewRuntime("profile", &logs)
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	handler := newHandler(&platform.Deps{Store: st, Notify: box, Log: zerolog.New(&logs), Now: time.Now,
		Coins: cc, Markets: markets.Defaults(), Config: platform.Config{Stage: "test", SecureCookies: true}})
	h := rt.HTTP(handler)
	const email = "sample.user@tenger.example"

	_, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_email_code.json", nil))
	if env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	code := box.LastCode(email)
	if len(code) != 6 {
		t.Fatalf("no 6-digit code was sent to %s: %q", email, code)
	}

	_, env = fntest.Do(t, h, fntest.SampleEvent(t, "http_register.json", map[string]string{"code": code}))
	var reg struct{ UID string }
	if env.Code != "0" || json.Unmarshal(env.Data, &reg) != nil || reg.UID == "" {
		t.Fatalf("register: %+v", env)
	}

	resp, env := fntest.Do(t, h, fntest.SampleEvent(t, "http_login.json", nil))
	var login struct{ Token, Type string }
	if env.Code != "0" || json.Unmarshal(env.Data, &login) != nil || login.Token == "" || login.Type != "" {
		t.Fatalf("login: %+v", env)
	}
	// The session cookie leaves through the v2 response's cookies list.
	var cookie, xsrf *http.Cookie
	for _, c := range resp.Cookies {
		if ck, err := http.ParseSetCookie(c); err == nil && ck.Name == "token" {
			cookie = ck
		} else if err == nil && ck.Name == "XSRF-TOKEN" {
			xsrf = ck
		}
	}
	if cookie == nil || cookie.Value != login.Token || !cookie.Secure {
		t.Fatalf("session cookie = %+v (cookies %q)", cookie, resp.Cookies)
	}
	// The anti-forgery token is bound to the session: the recorded event's
	// value is replaced by the one sign-in handed out, as the browser would.
	if xsrf == nil || xsrf.Value == "" {
		t.Fatalf("no anti-forgery cookie at sign-in (cookies %q)", resp.Cookies)
	}
	withXSRF := func(ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPRequest {
		if _, ok := ev.Headers["x-xsrf-token"]; ok {
			ev.Headers["x-xsrf-token"] = xsrf.Value
		}
		for i, c := range ev.Cookies {
			if strings.HasPrefix(c, "XSRF-TOKEN=") {
				ev.Cookies[i] = "XSRF-TOKEN=" + xsrf.Value
			}
		}
		return ev
	}

	for _, sample := range []string{"http_user_info_cookie_auth.json", "http_user_info_header_auth.json"} {
		_, env = fntest.Do(t, h, withXSRF(fntest.SampleEvent(t, sample, map[string]string{"token": login.Token})))
		var info map[string]any
		if env.Code != "0" || json.Unmarshal(env.Data, &info) != nil {
			t.Fatalf("%s: %+v", sample, env)
		}
		if !strings.Contains(string(env.Data), email) {
			t.Errorf("%s: user_info does not name the new user: %s", sample, env.Data)
		}
	}

	// The anti-forgery rule holds behind API Gateway too: the token cookie
	// without the matching header is not a session.
	ev := withXSRF(fntest.SampleEvent(t, "http_user_info_cookie_auth.json", map[string]string{"token": login.Token}))
	delete(ev.Headers, "x-xsrf-token")
	if _, env = fntest.Do(t, h, ev); env.Code == "0" {
		t.Errorf("cookie auth without X-XSRF-TOKEN accepted: %+v", env)
	}
	// Nor with the recorded event's own agreeing pair, which is no session's.
	ev = fntest.SampleEvent(t, "http_user_info_cookie_auth.json", map[string]string{"token": login.Token})
	ev.Headers["x-xsrf-token"] = "3f9c1d2e7a8b4c5d6e7f8091a2b3c4d5"
	for i, c := range ev.Cookies {
		if strings.HasPrefix(c, "XSRF-TOKEN=") {
			ev.Cookies[i] = "XSRF-TOKEN=3f9c1d2e7a8b4c5d6e7f8091a2b3c4d5"
		}
	}
	if _, env = fntest.Do(t, h, ev); env.Code == "0" {
		t.Errorf("cookie auth with an unbound X-XSRF-TOKEN accepted: %+v", env)
	}
	// A wrong token is refused.
	if _, env = fntest.Do(t, h, fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": "not-a-session"})); env.Code == "0" {
		t.Errorf("bad exchange-token accepted: %+v", env)
	}

	// The rest of the profile area answers through the same function: the
	// web app's page views and the public market lists.
	ev = fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": login.Token})
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/common/page_view", "/fe-ex-api/common/page_view"
	ev.Body, ev.IsBase64Encoded = `{"path":"/auth/login","title":"Log in"}`, false
	if _, env = fntest.Do(t, h, ev); env.Code != "0" {
		t.Errorf("page_view: %+v", env)
	}
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/public_info_v5", "/fe-ex-api/public_info_v5"
	ev.Body = `{}`
	if _, env = fntest.Do(t, h, ev); env.Code != "0" || !strings.Contains(string(env.Data), `"BTC/USDT"`) {
		t.Errorf("public_info_v5: %+v", env)
	}
	// Favourite pairs are kept per user (on DynamoDB here, with its
	// conditional writes) and come back in the market document.
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/optional/update_symbol", "/fe-ex-api/optional/update_symbol"
	ev.RouteKey, ev.RequestContext.RouteKey = "POST /fe-ex-api/optional/{proxy+}", "POST /fe-ex-api/optional/{proxy+}"
	for _, body := range []string{`{"symbols":"ethusdt","operationType":1}`, `{"symbols":"BTC/USDT,ethusdt","operationType":"0"}`} {
		ev.Body = body
		if _, env = fntest.Do(t, h, ev); env.Code != "0" {
			t.Errorf("update_symbol %s: %+v", body, env)
		}
	}
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/public_info_v5", "/fe-ex-api/public_info_v5"
	ev.Body = `{}`
	if _, env = fntest.Do(t, h, ev); env.Code != "0" || !strings.Contains(string(env.Data), `"followCoinList":["ethusdt","btcusdt"]`) {
		t.Errorf("public_info_v5 after starring two pairs: %+v", env)
	}

	for _, secret := range []string{code, login.Token, "Passw0rd2026"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("a secret reached the logs")
		}
	}
}
