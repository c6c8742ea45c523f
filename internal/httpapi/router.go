// Package httpapi is Tenger's HTTP platform: one Router per service maps the
// spec's paths onto domain calls. `tenger serve` mounts every router on one
// net/http server; each Lambda function wraps the router of its area. The
// conventions are spec §7's: POST JSON bodies carrying uaTime and
// securityInfo, the exchange-* headers, and {"code","msg","data"} answers
// whose non-zero codes come from the one catalogue in internal/apperr.
package httpapi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	"tenger/internal/auth"
)

// Cookie and header names of the browser path.
const (
	CookieToken = "token"
	// CookieDevice holds the trusted-device token of the browser's last
	// sign-in (HttpOnly; see internal/auth/device.go).
	CookieDevice   = "tenger_device"
	CookieLang     = "lan"
	CookieXSRF     = "XSRF-TOKEN"
	HeaderXSRF     = "X-XSRF-TOKEN"
	HeaderToken    = "exchange-token"
	HeaderClient   = "exchange-client"
	HeaderLanguage = "exchange-language"
	HeaderDevice   = "device"
	HeaderReqID    = "X-Request-Id"
)

// DefaultMaxBody is the largest request body a route accepts unless it says otherwise.
const DefaultMaxBody = 64 << 10

// Principal is the signed-in caller.
type Principal struct {
	UserID    string
	SessionID string
}

// SessionResolver turns a session token into a principal. It returns an
// apperr CodeNotSignedIn error for unknown, expired or revoked tokens.
type SessionResolver interface {
	ResolveSession(ctx context.Context, token string) (Principal, error)
}

// Auth says whether a route needs a session.
type Auth int

// Route access levels.
const (
	// Public routes work without a session (a session, when present and
	// valid, is still resolved, so handlers may use it).
	Public Auth = iota
	// Private routes answer CodeNotSignedIn without a valid session.
	Private
)

// RouteOpts describe a route for the router and the OpenAPI document.
type RouteOpts struct {
	Summary string
	Auth    Auth
	// MaxBody overrides DefaultMaxBody.
	MaxBody int64
	// Tag groups the route in the OpenAPI document (defaults to the router's service).
	Tag string
	// WSMethods are the request methods a WebSocket route serves
	// (documented under x-websocket-methods).
	WSMethods []WSMethod
}

// Options configure a Router.
type Options struct {
	// Service names the router in logs and the OpenAPI document ("profile").
	Service string
	Log     zerolog.Logger
	// Sessions resolves tokens; nil means every request is anonymous.
	Sessions SessionResolver
	// SecureCookies sets the Secure flag on cookies (true behind HTTPS).
	SecureCookies bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Router is one service's routes.
type Router struct {
	opts   Options
	mux    *http.ServeMux
	routes []RouteDoc
}

// RouteDoc describes one route for the OpenAPI document.
type RouteDoc struct {
	Method  string
	Path    string
	Summary string
	Tag     string
	Auth    Auth
	// Req and Resp are the Go types of the request body and of the
	// response's data; nil for raw routes that describe themselves.
	Req, Resp reflect.Type
	// Raw routes (GraphQL, dev tools, WebSocket) have a free-form description.
	RawRequest, RawResponse string
	// WSMethods are a WebSocket route's request methods.
	WSMethods []WSMethod
}

// NewRouter builds an empty router.
func NewRouter(opts Options) *Router {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Router{opts: opts, mux: http.NewServeMux()}
}

// Routes lists the registered routes.
func (r *Router) Routes() []RouteDoc { return append([]RouteDoc(nil), r.routes...) }

// Service is the router's service name.
func (r *Router) Service() string { return r.opts.Service }

// ServeHTTP serves the router's routes; unknown paths get CodeNotFound.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	h, pattern := r.mux.Handler(req)
	if pattern == "" {
		call := r.newCall(w, req, RouteOpts{})
		r.finish(call, nil, apperr.New(apperr.CodeNotFound))
		return
	}
	h.ServeHTTP(w, req)
}

// Call is the context of one API call.
type Call struct {
	Ctx       context.Context
	Req       *http.Request
	W         http.ResponseWriter
	Lang      string
	Principal Principal
	// Token is the session token the caller presented (may be invalid).
	Token     string
	IP        string
	Device    string
	Client    string
	RequestID string
	Now       time.Time
	Log       zerolog.Logger
	router    *Router
	start     time.Time
	code      string
	status    int
}

// Signed reports whether the call carries a valid session.
func (c *Call) Signed() bool { return c.Principal.UserID != "" }

// SetCookie sets a cookie on the response with the router's defaults
// (Path=/, SameSite=Lax, Secure when configured).
func (c *Call) SetCookie(name, value string, maxAge time.Duration, httpOnly bool) {
	ck := &http.Cookie{
		Name: name, Value: value, Path: "/", HttpOnly: httpOnly,
		SameSite: http.SameSiteLaxMode, Secure: c.router.opts.SecureCookies,
	}
	if maxAge < 0 {
		ck.MaxAge = -1
		ck.Expires = time.Unix(1, 0)
	} else if maxAge > 0 {
		ck.MaxAge = int(maxAge / time.Second)
		ck.Expires = c.Now.Add(maxAge)
	}
	http.SetCookie(c.W, ck)
}

// Validator is implemented by request types with rules beyond `v:"required"`.
type Validator interface {
	Validate() error
}

// Handle registers a POST JSON route. fn receives the decoded, validated
// request; its result becomes data, its error a catalogue answer.
func Handle[Req any, Resp any](r *Router, path string, opts RouteOpts, fn func(c *Call, req *Req) (Resp, error)) {
	if opts.Tag == "" {
		opts.Tag = r.opts.Service
	}
	r.routes = append(r.routes, RouteDoc{
		Method: http.MethodPost, Path: path, Summary: opts.Summary, Tag: opts.Tag, Auth: opts.Auth,
		Req: reflect.TypeFor[Req](), Resp: reflect.TypeFor[Resp](),
	})
	r.mux.HandleFunc(path, func(w http.ResponseWriter, hr *http.Request) {
		c := r.newCall(w, hr, opts)
		if hr.Method != http.MethodPost {
			r.finish(c, nil, apperr.New(apperr.CodeMethod))
			return
		}
		if err := r.authenticate(c, opts.Auth); err != nil {
			r.finish(c, nil, err)
			return
		}
		req := new(Req)
		max := opts.MaxBody
		if max == 0 {
			max = DefaultMaxBody
		}
		if err := decodeBody(w, hr, max, req); err != nil {
			r.finish(c, nil, err)
			return
		}
		if err := validate(req); err != nil {
			r.finish(c, nil, err)
			return
		}
		var (
			resp Resp
			err  error
		)
		func() {
			defer func() {
				if p := recover(); p != nil {
					c.Log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Msg("handler panic")
					err = apperr.New(apperr.CodeInternal)
				}
			}()
			resp, err = fn(c, req)
		}()
		r.finish(c, resp, err)
	})
}

// HandleRaw registers a handler that writes its own response (GraphQL, dev
// tools, WebSocket upgrades, static documents), documented in OpenAPI by
// the given request and response descriptions.
func (r *Router) HandleRaw(method, path string, opts RouteOpts, rawReq, rawResp string, h http.HandlerFunc) {
	if opts.Tag == "" {
		opts.Tag = r.opts.Service
	}
	r.routes = append(r.routes, RouteDoc{
		Method: method, Path: path, Summary: opts.Summary, Tag: opts.Tag, Auth: opts.Auth,
		RawRequest: rawReq, RawResponse: rawResp, WSMethods: opts.WSMethods,
	})
	r.mux.HandleFunc(path, func(w http.ResponseWriter, hr *http.Request) {
		if method != "" && hr.Method != method && !(method == http.MethodGet && hr.Method == http.MethodHead) {
			c := r.newCall(w, hr, opts)
			r.finish(c, nil, apperr.New(apperr.CodeMethod))
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h(sw, hr)
		r.opts.Log.Info().Str("method", hr.Method).Str("path", hr.URL.Path).Int("status", sw.status).
			Dur("dur", time.Since(start)).Str("request_id", requestID(hr)).Msg("request")
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the underlying writer (needed by
// WebSocket upgrades and flushing).
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func requestID(hr *http.Request) string {
	if id := hr.Header.Get(HeaderReqID); id != "" && len(id) <= 128 {
		return id
	}
	return ""
}

func (r *Router) newCall(w http.ResponseWriter, hr *http.Request, opts RouteOpts) *Call {
	id := requestID(hr)
	if id == "" {
		id = randomHex(12)
	}
	w.Header().Set(HeaderReqID, id)
	c := &Call{
		Ctx: hr.Context(), Req: hr, W: w, RequestID: id, router: r,
		Lang: language(hr), IP: clientIP(hr), Device: hr.Header.Get(HeaderDevice),
		Client: hr.Header.Get(HeaderClient), Now: r.opts.Now(), start: time.Now(),
	}
	c.Log = r.opts.Log.With().Str("service", r.opts.Service).Str("request_id", id).Logger()
	return c
}

// XSRFToken is the anti-forgery token of the session whose token is given:
// an HMAC-SHA256 keyed by the session's secret token. Another site can
// neither read it (the browser keeps the cookie from other origins) nor
// compute it (that takes the session token, which also never leaves the
// browser and the server, the server keeping only its hash), and it changes
// with every session, so a value planted in a browser (a cookie set by a
// sibling sub-domain) is worth nothing: the old rule, cookie equal to
// header, accepted any pair. It is keyed by the session rather than by a
// server secret so that every function in AWS derives the same token
// without reading one (the trade function has no access to the auth key,
// by design): a server key would add nothing, since whoever knows the
// session token can use it in the exchange-token header directly. It
// reveals nothing of the token, so a readable cookie may hold it.
func XSRFToken(sessionToken string) string {
	mac := hmac.New(sha256.New, []byte(sessionToken))
	mac.Write([]byte("tenger anti-forgery token v1"))
	return hex.EncodeToString(mac.Sum(nil))
}

// setXSRF gives the browser the anti-forgery token of its session, in the
// readable cookie the web app copies into the X-XSRF-TOKEN header. It lives
// as long as a session can.
func (c *Call) setXSRF(sessionToken string) {
	c.SetCookie(CookieXSRF, XSRFToken(sessionToken), auth.SessionTTL, false)
}

// authenticate resolves the session token (header first, then cookie) and
// enforces the anti-forgery rule for cookie-authenticated requests: the
// X-XSRF-TOKEN header must equal the token derived from the session the
// cookie names. The XSRF-TOKEN cookie only carries that value to the web
// app; its own value proves nothing and is not compared.
func (r *Router) authenticate(c *Call, need Auth) error {
	token := strings.TrimSpace(c.Req.Header.Get(HeaderToken))
	fromCookie := false
	if token == "" {
		if ck, err := c.Req.Cookie(CookieToken); err == nil && ck.Value != "" {
			token, fromCookie = ck.Value, true
		}
	}
	c.Token = token
	if token == "" || r.opts.Sessions == nil {
		if need == Private {
			return apperr.New(apperr.CodeNotSignedIn)
		}
		return nil
	}
	if fromCookie {
		want := XSRFToken(token)
		// A browser whose cookie is missing or stale (signed in before
		// tokens were bound to sessions, or the cookie was cleared) gets
		// its session's token again, so the web app's next call carries
		// it. Setting it answers only the browser that sent the session
		// cookie; a forging site cannot read it.
		if ck, err := c.Req.Cookie(CookieXSRF); err != nil || ck.Value != want {
			c.setXSRF(token)
		}
		hdr := c.Req.Header.Get(HeaderXSRF)
		if subtle.ConstantTimeCompare([]byte(hdr), []byte(want)) != 1 {
			if need == Private {
				return apperr.New(apperr.CodeForbidden)
			}
			// A public call with a cookie but no anti-forgery header runs
			// anonymously: the cookie is not trusted without the header.
			return nil
		}
	}
	p, err := r.opts.Sessions.ResolveSession(c.Ctx, token)
	if err != nil {
		if need == Private {
			return err
		}
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return nil // invalid session on a public route: anonymous
		}
		return err
	}
	c.Principal = p
	c.Log = c.Log.With().Str("uid", p.UserID).Logger()
	return nil
}

func language(hr *http.Request) string {
	l := hr.Header.Get(HeaderLanguage)
	if l == "" {
		if ck, err := hr.Cookie(CookieLang); err == nil {
			l = ck.Value
		}
	}
	if l == apperr.LangMN {
		return apperr.LangMN
	}
	return apperr.LangEN
}

func clientIP(hr *http.Request) string {
	host, _, err := net.SplitHostPort(hr.RemoteAddr)
	if err != nil {
		return hr.RemoteAddr
	}
	return host
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
