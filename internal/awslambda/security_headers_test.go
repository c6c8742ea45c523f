package awslambda

import (
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"tenger/internal/webapp"
)

// TestHTTPAdapterSecurityHeaders: the API's answers in AWS carry the same
// security headers as the site and `tenger serve` (API Gateway passes them
// through), on a normal answer, a panic's and a malformed event's, and a
// header the handler sets itself is kept.
func TestHTTPAdapterSecurityHeaders(t *testing.T) {
	rt := NewRuntime("profile", io.Discard)
	own := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'none'")
		_, _ = w.Write([]byte("{}"))
	})
	want := map[string]string{
		"Content-Security-Policy":   webapp.ContentSecurityPolicy,
		"X-Content-Type-Options":    "nosniff",
		"X-Frame-Options":           "DENY",
		"Referrer-Policy":           "strict-origin-when-cross-origin",
		"Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
	}
	check := func(what string, resp events.APIGatewayV2HTTPResponse, except string) {
		t.Helper()
		for k, v := range want {
			if k != except && resp.Headers[k] != v {
				t.Errorf("%s: %s = %q, want %q", what, k, resp.Headers[k], v)
			}
		}
	}
	var ev events.APIGatewayV2HTTPRequest
	loadSample(t, "http_user_info_cookie_auth.json", &ev)
	resp, _ := rt.HTTP(echo)(lambdaCtx("r1"), ev)
	check("answer", resp, "")
	ev.RawPath = "/panic"
	resp, _ = rt.HTTP(echo)(lambdaCtx("r2"), ev)
	check("panic", resp, "")
	resp, _ = rt.HTTP(own)(lambdaCtx("r3"), ev)
	check("own policy", resp, "Content-Security-Policy")
	if resp.Headers["Content-Security-Policy"] != "default-src 'none'" {
		t.Errorf("handler's own policy replaced: %q", resp.Headers["Content-Security-Policy"])
	}
	ev.Body, ev.IsBase64Encoded = "%%%", true
	resp, _ = rt.HTTP(echo)(lambdaCtx("r4"), ev)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("malformed event: %d", resp.StatusCode)
	}
	check("malformed event", resp, "")
}
