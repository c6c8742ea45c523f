package awslambda

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"

	"tenger/internal/webapp"
)

// securityHeaders are the headers CloudFront adds to the site and `tenger
// serve` to every answer (webapp.SetSecurityHeaders), for the API's answers
// here: API Gateway's HTTP API passes them through unchanged.
var securityHeaders = func() http.Header {
	h := http.Header{}
	webapp.SetSecurityHeaders(h, webapp.ContentSecurityPolicy, true)
	return h
}()

// addSecurityHeaders adds securityHeaders the handler did not set itself,
// after it ran, so a panic's answer carries them too.
func (w *ResponseRecorder) addSecurityHeaders() {
	for k, v := range securityHeaders {
		if _, ok := w.header[k]; !ok {
			w.header[k] = append([]string(nil), v...)
		}
	}
}

// HTTPFunc is the Lambda handler signature for API Gateway HTTP API payload v2.
type HTTPFunc func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// HTTP adapts h (the same router `tenger serve` mounts) to API Gateway HTTP
// API payload v2 events. Cookies, headers and bodies reach h exactly as the
// browser sent them, and Set-Cookie headers leave through the v2 response's
// cookies list, so cookie sessions and the anti-forgery cookie work as they
// do behind the local server.
func (r *Runtime) HTTP(h http.Handler) HTTPFunc {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		inv := r.start(ctx)
		cid := headerValue(ev.Headers, HeaderCorrelationID)
		if cid == "" {
			cid = ev.RequestContext.RequestID
		}
		ctx, log := inv.scope(ctx, cid)
		if !r.fromEdge(ev.Headers) {
			log.Warn().Str("path", ev.RawPath).Msg("request around the edge refused")
			return jsonResponse(http.StatusForbidden, `{"code":"403","msg":"forbidden","data":null}`), nil
		}
		req, err := RequestFromV2(ctx, ev)
		if err != nil {
			// A request API Gateway let through but we cannot rebuild is the
			// caller's fault (e.g. bad base64); answer in the API's envelope.
			log.Warn().Err(err).Msg("malformed http api event")
			return jsonResponse(http.StatusBadRequest, `{"code":"400","msg":"malformed request","data":null}`), nil
		}
		w := NewResponseRecorder()
		serve(h, w, req, log)
		w.addSecurityHeaders()
		resp := w.V2Response()
		outcome := Outcome(resp.StatusCode, w.body.Bytes())
		log.Info().
			Str("method", req.Method).
			Str("path", req.URL.Path).
			Int("status", resp.StatusCode).
			Str("outcome", outcome).
			Msg("http request")
		r.countRequest(outcome, log)
		return resp, nil
	}
}

// serve runs h, turning a panic into a JSON 500: without it the panic would
// crash the execution environment (losing the warm process) and API Gateway
// would answer a bare 502.
func serve(h http.Handler, w *ResponseRecorder, req *http.Request, log zerolog.Logger) {
	defer func() {
		if p := recover(); p != nil {
			log.Error().Str("panic", fmt.Sprint(p)).Msg("handler panicked")
			w.reset()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"code":"500","msg":"internal error","data":null}`))
		}
	}()
	h.ServeHTTP(w, req)
}

// RequestFromV2 rebuilds the *http.Request API Gateway received.
func RequestFromV2(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	method := ev.RequestContext.HTTP.Method
	if method == "" {
		method = http.MethodGet
	}
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	if path == "" {
		path = "/"
	}
	// A named stage (not $default) prefixes the path with /<stage>; the
	// routers know only the service paths.
	if st := ev.RequestContext.Stage; st != "" && st != "$default" {
		if p := strings.TrimPrefix(path, "/"+st); p != path && (p == "" || p[0] == '/') {
			path = p
			if path == "" {
				path = "/"
			}
		}
	}
	u, err := url.ParseRequestURI(path)
	if err != nil {
		return nil, fmt.Errorf("awslambda: bad path %q: %w", path, err)
	}
	u.RawQuery = ev.RawQueryString

	var body []byte
	if ev.Body != "" {
		if ev.IsBase64Encoded {
			body, err = base64.StdEncoding.DecodeString(ev.Body)
			if err != nil {
				return nil, fmt.Errorf("awslambda: body is not base64: %w", err)
			}
		} else {
			body = []byte(ev.Body)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.RequestURI = u.RequestURI()
	req.Proto, req.ProtoMajor, req.ProtoMinor = "HTTP/1.1", 1, 1
	if p := ev.RequestContext.HTTP.Protocol; p != "" {
		if major, minor, ok := http.ParseHTTPVersion(p); ok {
			req.Proto, req.ProtoMajor, req.ProtoMinor = p, major, minor
		}
	}
	req.ContentLength = int64(len(body))
	// Payload v2 joins repeated headers with commas into one value; keep
	// them as one value, as splitting on commas would break dates and
	// quoted strings.
	for k, v := range ev.Headers {
		if strings.EqualFold(k, "cookie") {
			continue // cookies come from ev.Cookies below
		}
		req.Header.Set(k, v)
	}
	// Payload v2 moves the Cookie header into a list; rebuild the header the
	// browser sent so http.Request.Cookie works.
	cookies := ev.Cookies
	if len(cookies) == 0 {
		if c := headerValue(ev.Headers, "cookie"); c != "" {
			cookies = []string{c}
		}
	}
	if len(cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(cookies, "; "))
	}
	req.Host = headerValue(ev.Headers, "host")
	if req.Host == "" {
		req.Host = ev.RequestContext.DomainName
	}
	u.Host = req.Host
	if ip := ev.RequestContext.HTTP.SourceIP; ip != "" {
		req.RemoteAddr = net.JoinHostPort(ip, "0")
	}
	return req, nil
}

func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// ResponseRecorder is the http.ResponseWriter the adapter hands the router;
// it buffers the whole response, as Lambda returns it in one piece.
type ResponseRecorder struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

// NewResponseRecorder returns an empty recorder.
func NewResponseRecorder() *ResponseRecorder {
	return &ResponseRecorder{header: http.Header{}}
}

// Header implements http.ResponseWriter.
func (w *ResponseRecorder) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter.
func (w *ResponseRecorder) WriteHeader(code int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	w.status = code
}

// Write implements http.ResponseWriter.
func (w *ResponseRecorder) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.body.Write(p)
}

// Flush implements http.Flusher; the response is sent when the handler
// returns, so there is nothing to flush early.
func (w *ResponseRecorder) Flush() {}

func (w *ResponseRecorder) reset() {
	w.header = http.Header{}
	w.status = 0
	w.wroteHeader = false
	w.body.Reset()
}

// V2Response converts what the handler wrote into the payload v2 response:
// Set-Cookie headers become the cookies list (payload v2 cannot repeat a
// header), other repeated headers are joined with commas, and bodies that are
// not UTF-8 text are base64 encoded.
func (w *ResponseRecorder) V2Response() events.APIGatewayV2HTTPResponse {
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	body := w.body.Bytes()
	if w.header.Get("Content-Type") == "" && len(body) > 0 {
		// net/http sniffs a missing Content-Type; do the same so the
		// browser sees what it would see from `tenger serve`.
		w.header.Set("Content-Type", http.DetectContentType(body))
	}
	resp := events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: map[string]string{}}
	for k, vs := range w.header {
		if k == "Set-Cookie" {
			resp.Cookies = append(resp.Cookies, vs...)
			continue
		}
		resp.Headers[k] = strings.Join(vs, ",")
	}
	if isText(w.header.Get("Content-Type")) && utf8.Valid(body) {
		resp.Body = string(body)
	} else if len(body) > 0 {
		resp.Body = base64.StdEncoding.EncodeToString(body)
		resp.IsBase64Encoded = true
	}
	return resp
}

func isText(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	if strings.HasPrefix(mt, "text/") {
		return true
	}
	switch mt {
	case "application/json", "application/javascript", "application/xml",
		"application/graphql-response+json", "application/problem+json", "image/svg+xml":
		return true
	}
	return strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml")
}

func jsonResponse(status int, body string) events.APIGatewayV2HTTPResponse {
	headers := map[string]string{"Content-Type": "application/json"}
	for k, v := range securityHeaders {
		headers[k] = strings.Join(v, ",")
	}
	return events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: headers, Body: body}
}

// Outcomes of a request (the Requests metric's Outcome dimension).
const (
	OutcomeOK      = "ok"
	OutcomeRefused = "refused"
	OutcomeError   = "error"
)

// Outcome classifies an answer: a 5xx is an error; a 4xx, or an envelope
// whose code is not "0" (the spec's APIs answer refusals with 200 and a
// code), is a refusal (bad input, no balance, not signed in ...); anything
// else went through. It runs on every request, so it reads the envelope's
// code where httpapi.Envelope writes it, first, instead of decoding the
// body.
func Outcome(status int, body []byte) string {
	switch {
	case status >= 500:
		return OutcomeError
	case status >= 400:
		return OutcomeRefused
	}
	if rest, ok := bytes.CutPrefix(body, envelopeCode); ok {
		if code, _, closed := bytes.Cut(rest, []byte{'"'}); closed && len(code) > 0 && string(code) != "0" {
			return OutcomeRefused
		}
	}
	return OutcomeOK
}

// envelopeCode starts every envelope (httpapi.Envelope's first field).
var envelopeCode = []byte(`{"code":"`)
