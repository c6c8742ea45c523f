package binance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/coins"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
)

// Security is an endpoint's security type, as Binance names them.
type Security int

const (
	// SecNone is public market data.
	SecNone Security = iota
	// SecMarketData needs an API key (X-MBX-APIKEY) but no signature
	// (Binance's MARKET_DATA, e.g. /sapi/v1/margin/allPairs).
	SecMarketData
	// SecUserStream needs an API key but no signature (listenKey calls).
	SecUserStream
	// SecUserData is SIGNED: private account information.
	SecUserData
	// SecTrade is SIGNED: placing and cancelling orders.
	SecTrade
)

// Signed reports whether requests need timestamp and signature.
func (s Security) Signed() bool { return s == SecUserData || s == SecTrade }

func (s Security) String() string {
	switch s {
	case SecMarketData:
		return "MARKET_DATA"
	case SecUserStream:
		return "USER_STREAM"
	case SecUserData:
		return "USER_DATA"
	case SecTrade:
		return "TRADE"
	}
	return "NONE"
}

// signedParams are the parameters every SIGNED endpoint takes besides its
// own.
var signedParams = []string{"timestamp", "recvWindow", "signature"}

// RateLimit is an entry of exchangeInfo's rateLimits.
type RateLimit struct {
	RateLimitType string `json:"rateLimitType"`
	Interval      string `json:"interval"`
	IntervalNum   int    `json:"intervalNum"`
	Limit         int    `json:"limit"`
}

// Options configure a Server.
type Options struct {
	Markets *markets.Catalogue
	Coins   *coins.Catalogue
	Data    *marketdata.Service
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	Log zerolog.Logger
	// WeightLimit is the request weight an IP may use per minute
	// (REQUEST_WEIGHT); 0 means DefaultWeightLimit.
	WeightLimit int
	// BanAfter is how many 429 answers an IP gets in one minute before
	// the next request over the limit bans it (418); 0 means
	// DefaultBanAfter, negative never bans.
	BanAfter int
	// ClientIP names the client of a request (the platform's, behind a
	// proxy); nil means the host of RemoteAddr.
	ClientIP func(*http.Request) string
	// Authenticate checks a request to an endpoint whose security is not
	// SecNone (API key, and for signed ones timestamp, recvWindow and
	// signature, which Call.Params hold with the raw query and body). It
	// may set Call.Account. nil answers every such request -1002.
	Authenticate func(c *Call, sec Security) error
	// RateLimits are listed in exchangeInfo after REQUEST_WEIGHT (ORDERS
	// limits, once orders are served).
	RateLimits []RateLimit
	// Keys resolves API keys; with it and no Authenticate, KeyAuth checks
	// the signed requests.
	Keys Keys
	// Trading and Balances serve the signed spot endpoints (orders,
	// trades, account); without Trading they are not registered.
	Trading  Trading
	Balances Balances
	// Deposits and Withdrawals serve the /sapi/v1/capital calls; without
	// both they are not registered.
	Deposits    Deposits
	Withdrawals Withdrawals
	// ListenKeys serve the listen key calls (/api/v3/userDataStream) and
	// the streams they name; without them (or Trading) they are not
	// registered.
	ListenKeys ListenKeys
}

// Call is one request to a handler.
type Call struct {
	Ctx    context.Context
	Req    *http.Request
	Params *Params
	// Now is the server's time when the request arrived.
	Now time.Time
	IP  string
	// Account is what Options.Authenticate found (nil on public routes).
	Account any
	Log     zerolog.Logger
	// Path is the endpoint's path (/api/v3/order), whichever transport
	// carried the call (REST, or a WebSocket API method mapped onto it).
	Path string
	// APIKey is the API key the call names: the X-MBX-APIKEY header on
	// REST, the apiKey parameter on the WebSocket API ("" when none).
	APIKey string
	// SessionKey, on a WebSocket API connection that logged on, is the API
	// key it logged on with: its calls that name no key run for that key
	// without a signature.
	SessionKey string

	// signing returns what a signature covers and the signature (ok false
	// when none was sent); each transport has its own rule.
	signing func() (payload, sig string, ok bool)
	header  http.Header
}

// Header is the response's header, for handlers that add their own
// (X-MBX-ORDER-COUNT-...).
func (c *Call) Header() http.Header { return c.header }

// handlerFunc answers a call with a value written as JSON, or an error
// (an *Error is sent as is; any other error is logged and sent as -1001).
type handlerFunc func(c *Call) (any, error)

// route is one endpoint.
type route struct {
	method, path string
	weight       int
	weightFn     func(p *Params) int
	sec          Security
	allowed      map[string]bool
	h            handlerFunc
}

// params lists the parameters the endpoint takes; any other one sent is
// -1104. Every endpoint that is not SecNone also takes timestamp,
// recvWindow and signature.
func (r *route) params(names ...string) *route {
	for _, n := range names {
		r.allowed[n] = true
	}
	return r
}

// weigh makes the weight depend on the parameters (depth's limit, the
// number of symbols); f must cope with malformed values, which the handler
// refuses afterwards.
func (r *route) weigh(f func(p *Params) int) *route {
	r.weightFn = f
	return r
}

// Server serves Binance's spot REST API (and the futures exchangeInfo
// calls clients make while loading markets) on Tenger's market data.
type Server struct {
	opts   Options
	mk     *markets.Catalogue
	coins  *coins.Catalogue
	md     *marketdata.Service
	now    func() time.Time
	log    zerolog.Logger
	limits *limiter
	routes map[string]*route // method + " " + path
	// users are the user data events (with order entry only).
	users *UserData
}

// prefixes are the path prefixes the server answers.
var prefixes = []string{"/api/v3/", "/sapi/", "/fapi/", "/dapi/"}

// New builds the server with the public endpoints (without Options.Data
// only the general ones: ping, time, exchangeInfo...).
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.WeightLimit <= 0 {
		o.WeightLimit = DefaultWeightLimit
	}
	if o.BanAfter == 0 {
		o.BanAfter = DefaultBanAfter
	}
	if o.ClientIP == nil {
		o.ClientIP = remoteHost
	}
	s := &Server{opts: o, mk: o.Markets, coins: o.Coins, md: o.Data, now: o.Now, log: o.Log,
		limits: newLimiter(o.WeightLimit, o.BanAfter), routes: map[string]*route{}}
	if o.Authenticate == nil && o.Keys != nil {
		s.opts.Authenticate = KeyAuth(o.Keys)
	}
	s.addGeneralRoutes()
	if s.md != nil {
		s.addMarketRoutes()
		s.addTickerRoutes()
	}
	if o.Trading != nil && o.Balances != nil {
		s.addTradeRoutes()
		s.addSapiRoutes()
		s.users = newUserData(s)
		if o.ListenKeys != nil {
			s.addListenKeyRoutes()
		}
	}
	if o.Deposits != nil && o.Withdrawals != nil && o.Keys != nil {
		s.addCapitalRoutes()
	}
	return s
}

// Prefixes lists the path prefixes the server answers (/api/v3/, /sapi/,
// /fapi/, /dapi/); the platform mounts it on each.
func (s *Server) Prefixes() []string { return append([]string(nil), prefixes...) }

// route registers an endpoint of exact method and path with its weight
// and security; chain .params(...) to list the parameters it takes.
// Routes are registered in New, before the server serves (the table is
// read without a lock).
func (s *Server) route(method, path string, weight int, sec Security, h handlerFunc) *route {
	key := method + " " + path
	if _, dup := s.routes[key]; dup {
		panic("binance: route registered twice: " + key)
	}
	r := &route{method: method, path: path, weight: weight, sec: sec, allowed: map[string]bool{}, h: h}
	if sec != SecNone {
		// Signed routes need them; API-key routes tolerate them, as
		// Binance does: CCXT signs every /sapi/ call.
		r.params(signedParams...)
	}
	s.routes[key] = r
	return r
}

func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func hasPrefix(path string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// ServeHTTP routes by exact method and path. Every answer carries the
// IP's used weight (X-MBX-USED-WEIGHT-1M and X-MBX-USED-WEIGHT).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if allowCrossOrigin(w, r) {
		return
	}
	now := s.now()
	ip := s.opts.ClientIP(r)
	rt := s.routes[r.Method+" "+r.URL.Path]
	if rt == nil || !hasPrefix(r.URL.Path) {
		// Unknown endpoints cost 1, so that probing them is limited too.
		v := s.limits.charge(ip, 1, now)
		setWeight(w, v.used)
		if v.err != nil {
			writeError(w, v.err)
			return
		}
		notFound(w)
		return
	}
	p, perr := parseParams(r)
	weight := rt.weight
	if perr == nil && rt.weightFn != nil {
		weight = rt.weightFn(p)
	}
	v := s.limits.charge(ip, weight, now)
	setWeight(w, v.used)
	if v.err != nil {
		writeError(w, v.err)
		return
	}
	if perr != nil {
		writeError(w, asError(perr, s.log))
		return
	}
	c := &Call{Ctx: r.Context(), Req: r, Params: p, Now: now, IP: ip, Log: s.log, header: w.Header(),
		Path: rt.path, APIKey: r.Header.Get(HeaderAPIKey), signing: func() (string, string, bool) {
			return signingPayload(p.RawQuery, p.RawBody)
		}}
	if err := p.unread(rt.allowed); err != nil {
		writeError(w, asError(err, s.log))
		return
	}
	if rt.sec != SecNone {
		if s.opts.Authenticate == nil {
			writeError(w, ErrUnauthorized())
			return
		}
		if err := s.opts.Authenticate(c, rt.sec); err != nil {
			writeError(w, asError(err, s.log))
			return
		}
		if err := s.chargeKey(c, weight); err != nil {
			writeError(w, err)
			return
		}
	}
	resp, err := s.run(c, rt)
	if err != nil {
		writeError(w, asError(err, c.Log.With().Str("path", rt.path).Logger()))
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// allowCrossOrigin lets programs in web pages of any origin call the API,
// as Binance's does: the key travels in X-MBX-APIKEY and the signature in
// the parameters, never in cookies, so another site's page can do nothing
// with it that its own code could not. A preflight (OPTIONS with
// Access-Control-Request-Method) is answered 204 here (true: done); other
// requests from a page get Access-Control-Allow-Origin: * and go on.
func allowCrossOrigin(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Origin") == "" {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", "X-MBX-USED-WEIGHT, X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-10S, X-MBX-ORDER-COUNT-1D, Retry-After")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
	h.Set("Access-Control-Allow-Headers", "X-MBX-APIKEY, Content-Type")
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// chargeKey counts an authenticated call's weight against its API key too:
// a key gets the same weight a minute as an IP, whichever addresses it is
// used from (a key spread over many addresses cannot escape the limit).
func (s *Server) chargeKey(c *Call, weight int) *Error {
	key := account(c)
	if key.APIKey == "" {
		return nil
	}
	return s.limits.charge(keyBucket+key.APIKey, weight, c.Now).err
}

// keyBucket prefixes an API key's counter in the limiter (IP addresses
// never start with it).
const keyBucket = "key:"

func (s *Server) run(c *Call, rt *route) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.Log.Error().Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Str("path", rt.path).
				Msg("binance: handler panic")
			resp, err = nil, ErrUnknown()
		}
	}()
	return rt.h(c)
}

// asError turns a handler's error into an answer; an error that is not an
// *Error is logged and answered -1001.
func asError(err error, log zerolog.Logger) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	log.Error().Err(err).Msg("binance: request failed")
	return ErrDisconnected()
}

func setWeight(w http.ResponseWriter, used int) {
	v := strconv.Itoa(used)
	w.Header().Set("X-MBX-USED-WEIGHT", v)
	w.Header().Set("X-MBX-USED-WEIGHT-1M", v)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(ErrUnknown())
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, e *Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, e.Status, e)
}

// notFound answers an unknown endpoint as Binance does: 404 with an HTML
// page, not a JSON error.
func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html;charset=UTF-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte("<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>\n"))
}
