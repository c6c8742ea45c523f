package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/notify"
	"tenger/internal/platform"
	"tenger/internal/store/dynamo"
	"tenger/localstack/ddblocal"
)

// recorder is the notify fake: it keeps every message instead of sending it,
// so the test reads the verification code the way a user reads an e-mail.
type recorder struct {
	mu   sync.Mutex
	sent []notify.Message
}

func (r *recorder) Send(_ context.Context, m notify.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m)
	return nil
}

func (r *recorder) lastCode(to string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.sent) - 1; i >= 0; i-- {
		if r.sent[i].To == to {
			return r.sent[i].Code
		}
	}
	return ""
}

// sampleEvent reads a recorded HTTP API event, filling its placeholders.
func sampleEvent(t *testing.T, name string, fill map[string]string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	for k, v := range fill {
		ph := "{{" + k + "}}"
		ev.Body = strings.ReplaceAll(ev.Body, ph, v)
		for i, c := range ev.Cookies {
			ev.Cookies[i] = strings.ReplaceAll(c, ph, v)
		}
		for h, val := range ev.Headers {
			ev.Headers[h] = strings.ReplaceAll(val, ph, v)
		}
	}
	return ev
}

type envelope struct {
	Code string          `json:"code"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

func call(t *testing.T, h awslambda.HTTPFunc, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, envelope) {
	t.Helper()
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "test-" + ev.RequestContext.RequestID})
	resp, err := h(ctx, ev)
	if err != nil {
		t.Fatalf("%s: %v", ev.RawPath, err)
	}
	var env envelope
	if err := json.Unmarshal([]byte(resp.Body), &env); err != nil {
		t.Fatalf("%s: body %q: %v", ev.RawPath, resp.Body, err)
	}
	return resp, env
}

// TestSignUpAndInFromSampleEvents drives the profile function exactly as API
// Gateway does, with the recorded events in events/samples, against the
// DynamoDB adapter on DynamoDB Local: send the e-mail code, register with
// it, sign in (base64 body), then read user_info with cookie auth
// (token + XSRF-TOKEN cookies and the X-XSRF-TOKEN header) and with header
// auth (exchange-token).
func TestSignUpAndInFromSampleEvents(t *testing.T) {
	ep := ddblocal.Endpoint(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := ddblocal.NewClient(ctx, ep)
	table := fmt.Sprintf("tenger-profile-fn-%d", time.Now().UnixNano())
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	st := dynamo.New(client, ddblocal.NewStreamsClient(ctx, ep), table)
	t.Cleanup(func() {
		_ = st.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = dynamo.DeleteTable(ctx, client, table)
	})

	box := &recorder{}
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

	_, env := call(t, h, sampleEvent(t, "http_email_code.json", nil))
	if env.Code != "0" {
		t.Fatalf("emailValidCode: %+v", env)
	}
	code := box.lastCode(email)
	if len(code) != 6 {
		t.Fatalf("no 6-digit code was sent to %s: %q", email, code)
	}

	_, env = call(t, h, sampleEvent(t, "http_register.json", map[string]string{"code": code}))
	var reg struct{ UID string }
	if env.Code != "0" || json.Unmarshal(env.Data, &reg) != nil || reg.UID == "" {
		t.Fatalf("register: %+v", env)
	}

	resp, env := call(t, h, sampleEvent(t, "http_login.json", nil))
	var login struct{ Token, Type string }
	if env.Code != "0" || json.Unmarshal(env.Data, &login) != nil || login.Token == "" || login.Type != "" {
		t.Fatalf("login: %+v", env)
	}
	// The session cookie leaves through the v2 response's cookies list.
	var cookie *http.Cookie
	for _, c := range resp.Cookies {
		if ck, err := http.ParseSetCookie(c); err == nil && ck.Name == "token" {
			cookie = ck
		}
	}
	if cookie == nil || cookie.Value != login.Token || !cookie.Secure {
		t.Fatalf("session cookie = %+v (cookies %q)", cookie, resp.Cookies)
	}

	for _, sample := range []string{"http_user_info_cookie_auth.json", "http_user_info_header_auth.json"} {
		_, env = call(t, h, sampleEvent(t, sample, map[string]string{"token": login.Token}))
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
	ev := sampleEvent(t, "http_user_info_cookie_auth.json", map[string]string{"token": login.Token})
	delete(ev.Headers, "x-xsrf-token")
	if _, env = call(t, h, ev); env.Code == "0" {
		t.Errorf("cookie auth without X-XSRF-TOKEN accepted: %+v", env)
	}
	// A wrong token is refused.
	if _, env = call(t, h, sampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": "not-a-session"})); env.Code == "0" {
		t.Errorf("bad exchange-token accepted: %+v", env)
	}

	// The rest of the profile area answers through the same function: the
	// web app's page views and the public market lists.
	ev = sampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": login.Token})
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/common/page_view", "/fe-ex-api/common/page_view"
	ev.Body, ev.IsBase64Encoded = `{"path":"/auth/login","title":"Log in"}`, false
	if _, env = call(t, h, ev); env.Code != "0" {
		t.Errorf("page_view: %+v", env)
	}
	ev.RawPath, ev.RequestContext.HTTP.Path = "/fe-ex-api/public_info_v5", "/fe-ex-api/public_info_v5"
	ev.Body = `{}`
	if _, env = call(t, h, ev); env.Code != "0" || !strings.Contains(string(env.Data), `"BTC/USDT"`) {
		t.Errorf("public_info_v5: %+v", env)
	}

	for _, secret := range []string{code, login.Token, "Passw0rd2026"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("a secret reached the logs")
		}
	}
}
