package fntest

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"tenger/internal/awslambda"
)

// sampleEmail is the address the recorded sign-up events carry.
const sampleEmail = "sample.user@tenger.example"

// SignUp registers email through a profile function's handler with the
// recorded events (send code, sign up with the code box received, sign
// in) and answers the user id and the session token.
func SignUp(t testing.TB, profile awslambda.HTTPFunc, box *Recorder, email string) (uid, token string) {
	t.Helper()
	as := func(name string, fill map[string]string) events.APIGatewayV2HTTPRequest {
		ev := SampleEvent(t, name, fill)
		ev.Body = strings.ReplaceAll(ev.Body, sampleEmail, email)
		return ev
	}
	if _, env := Do(t, profile, as("http_email_code.json", nil)); env.Code != "0" {
		t.Fatalf("email code: %+v", env)
	}
	var reg struct{ UID string }
	Call(t, profile, as("http_register.json", map[string]string{"code": box.LastCode(email)}), &reg)
	var login struct{ Token string }
	Call(t, profile, Login(t, email), &login)
	return reg.UID, login.Token
}

// Login is the recorded sign-in event (its body base64-encoded, as API
// Gateway sends it) of email.
func Login(t testing.TB, email string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	ev := SampleEvent(t, "http_login.json", nil)
	raw, _ := base64.StdEncoding.DecodeString(ev.Body)
	ev.Body = base64.StdEncoding.EncodeToString([]byte(strings.ReplaceAll(string(raw), sampleEmail, email)))
	return ev
}

// At is the recorded signed-in event (header auth) moved to path, with body.
func At(t testing.TB, token, path, body string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	ev := SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": token})
	ev.RawPath, ev.RequestContext.HTTP.Path, ev.Body = path, path, body
	return ev
}
