package binance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/push/hub"
)

// WSAPI serves Binance's WebSocket API (wss://…/ws-api/v3) on the hub's
// connections: a request frame
//
//	{"id":"a1","method":"order.place","params":{"symbol":"BTCUSDT",...,"apiKey":"…","timestamp":…,"signature":"…"}}
//
// is answered by {"id":"a1","status":200,"result":{…},"rateLimits":[…]}
// or {"id":"a1","status":400,"error":{"code":-1013,"msg":"…"},"rateLimits":[…]}.
//
// Each method runs the REST endpoint it mirrors (apiMethods), with the
// same parameters, weight, security, errors and answer; the request's
// weight counts against the IP's REQUEST_WEIGHT as a REST call's does.
// Signed methods are signed over every parameter but signature, sorted by
// name, as key=value pairs joined by & (Binance's rule). A connection that
// logged on (session.logon, Ed25519 keys only, as on Binance) may leave
// apiKey and signature out of later requests. userDataStream.subscribe
// (after logon) and userDataStream.subscribe.signature (signed, any key
// type: what CCXT Pro's watchOrders and watchBalance call) send the
// account's user data events (UserData) on the connection as
// {"subscriptionId":0,"event":{…}}.
//
// Handle serves one request frame of a connection (WSConn: its address
// and what it remembers between frames). `tenger serve` keeps connections
// on the hub, in memory, and runs up to maxInFlight requests of one at
// once, answered as they finish (clients match answers by id); in AWS the
// wsapi function handles each frame as one invocation, the connection's
// state kept in the table (internal/binance/wsapiaws).
type WSAPI struct {
	s           *Server
	hub         *hub.Hub
	maxInFlight int
}

// WSConn is a WebSocket API connection as its requests need it.
type WSConn interface {
	// IP is the client's address.
	IP() string
	// Send sends a frame to the client, without waiting for a slow one.
	Send(ctx context.Context, frame []byte)
	// State reads what the connection remembers.
	State(ctx context.Context) (WSState, error)
	// LogOn remembers the key the connection logged on with (key "":
	// forgets it, and ends the subscription the logon made).
	LogOn(ctx context.Context, key apikey.Resolved, at time.Time) error
	// Subscribe starts a subscription to the key's account's user data
	// events and answers its id (the key's existing one when it has one;
	// logon marks the logged-on key's own). It refuses a connection that
	// holds maxUserDataSubs already.
	Subscribe(ctx context.Context, key apikey.Resolved, logon bool) (int64, error)
	// Unsubscribe ends the subscription id (all: every one); found is
	// false when id names none.
	Unsubscribe(ctx context.Context, id int64, all bool) (found bool, err error)
}

// WSState is what a connection remembers between requests.
type WSState struct {
	Connected time.Time
	// RateLimits is false when the connection asked for answers without
	// rateLimits (?returnRateLimits=false).
	RateLimits bool
	// LogonKey is the API key it logged on with ("" none), at LogonAt.
	LogonKey string
	LogonAt  time.Time
	// Subs are its user data subscriptions' ids, ascending.
	Subs []int64
}

// ErrTooManySubs refuses a subscription past maxUserDataSubs.
func ErrTooManySubs() *Error {
	return badRequest(CodeTooManyParameters, "Too many subscriptions: a connection holds at most %d.", maxUserDataSubs)
}

// WSAPIPath is where the WebSocket API is served.
const WSAPIPath = "/ws-api/v3"

// Limits of a WebSocket API connection.
const (
	// WSAPIConnectWeight is what opening a connection costs (Binance: 2).
	WSAPIConnectWeight = 2
	// wsAPIMaxInFlight requests of one connection run at once.
	wsAPIMaxInFlight = 32
	// maxUserDataSubs is how many user data subscriptions a connection
	// may hold.
	maxUserDataSubs = 20
	// MaxUserDataSubs is maxUserDataSubs, for connections kept elsewhere.
	MaxUserDataSubs = maxUserDataSubs
)

// apiMethod maps a WebSocket API method onto the REST endpoint it mirrors.
type apiMethod struct{ method, path string }

// apiMethods are the WebSocket API's request methods that run a REST
// endpoint (the session and user data methods are the session's own).
var apiMethods = map[string]apiMethod{
	"ping":                 {http.MethodGet, "/api/v3/ping"},
	"time":                 {http.MethodGet, "/api/v3/time"},
	"exchangeInfo":         {http.MethodGet, "/api/v3/exchangeInfo"},
	"depth":                {http.MethodGet, "/api/v3/depth"},
	"trades.recent":        {http.MethodGet, "/api/v3/trades"},
	"trades.historical":    {http.MethodGet, "/api/v3/historicalTrades"},
	"trades.aggregate":     {http.MethodGet, "/api/v3/aggTrades"},
	"klines":               {http.MethodGet, "/api/v3/klines"},
	"uiKlines":             {http.MethodGet, "/api/v3/uiKlines"},
	"avgPrice":             {http.MethodGet, "/api/v3/avgPrice"},
	"ticker.24hr":          {http.MethodGet, "/api/v3/ticker/24hr"},
	"ticker.price":         {http.MethodGet, "/api/v3/ticker/price"},
	"ticker.book":          {http.MethodGet, "/api/v3/ticker/bookTicker"},
	"ticker":               {http.MethodGet, "/api/v3/ticker"},
	"order.place":          {http.MethodPost, "/api/v3/order"},
	"order.test":           {http.MethodPost, "/api/v3/order/test"},
	"order.status":         {http.MethodGet, "/api/v3/order"},
	"order.cancel":         {http.MethodDelete, "/api/v3/order"},
	"openOrders.status":    {http.MethodGet, "/api/v3/openOrders"},
	"openOrders.cancelAll": {http.MethodDelete, "/api/v3/openOrders"},
	"allOrders":            {http.MethodGet, "/api/v3/allOrders"},
	"myTrades":             {http.MethodGet, "/api/v3/myTrades"},
	"account.status":       {http.MethodGet, "/api/v3/account"},
	"account.commission":   {http.MethodGet, "/api/v3/account/commission"},
}

// Session and user data methods.
const (
	mLogon          = "session.logon"
	mStatus         = "session.status"
	mLogout         = "session.logout"
	mSubscriptions  = "session.subscriptions"
	mSubscribe      = "userDataStream.subscribe"
	mSubscribeSig   = "userDataStream.subscribe.signature"
	mUnsubscribe    = "userDataStream.unsubscribe"
	sessionWeight   = 2
	sessionSecurity = SecUserData
)

// apiRequest is a parsed request frame.
type apiRequest struct {
	id     json.RawMessage
	method string
	params *Params
	// apiKey is the apiKey parameter (taken out of params); payload the
	// signed text, sig the signature ("" none).
	apiKey, payload, sig string
	// rateLimits is false when the request asked returnRateLimits=false.
	rateLimits bool
}

// apiAnswer is a response frame.
type apiAnswer struct {
	ID         json.RawMessage `json:"id"`
	Status     int             `json:"status"`
	Result     any             `json:"result,omitempty"`
	Error      *apiError       `json:"error,omitempty"`
	RateLimits []rateLimitUse  `json:"rateLimits,omitempty"`
}

type apiError struct {
	Code int            `json:"code"`
	Msg  string         `json:"msg"`
	Data *apiErrorRetry `json:"data,omitempty"`
}

type apiErrorRetry struct {
	ServerTime int64 `json:"serverTime"`
	RetryAfter int64 `json:"retryAfter"`
}

// rateLimitUse is an entry of an answer's rateLimits.
type rateLimitUse struct {
	RateLimit
	Count int `json:"count"`
}

// UserEvent wraps a user data event on the WebSocket API.
func UserEvent(subscriptionID int64, event []byte) []byte {
	b, _ := json.Marshal(struct {
		SubscriptionID int64           `json:"subscriptionId"`
		Event          json.RawMessage `json:"event"`
	}{subscriptionID, event})
	return b
}

// apiCall is one request being served on its connection.
type apiCall struct {
	a    *WSAPI
	conn WSConn
	req  apiRequest
	now  time.Time
	// state is the connection's, read once when first needed.
	state  *WSState
	header http.Header
}

// Handle serves one request frame of conn and sends its answer.
func (a *WSAPI) Handle(ctx context.Context, conn WSConn, frame []byte) {
	call := &apiCall{a: a, conn: conn, now: a.s.now(), header: http.Header{}}
	req, err := parseAPIRequest(frame)
	call.req = req
	if err != nil {
		call.answer(ctx, nil, err)
		return
	}
	res, err := call.serve(ctx)
	call.answer(ctx, res, err)
}

// connState reads the connection's state once.
func (c *apiCall) connState(ctx context.Context) (WSState, error) {
	if c.state != nil {
		return *c.state, nil
	}
	st, err := c.conn.State(ctx)
	if err != nil {
		return WSState{}, err
	}
	c.state = &st
	return st, nil
}

// serve runs the request's method.
func (c *apiCall) serve(ctx context.Context) (any, error) {
	s := c.a.s
	if m, ok := apiMethods[c.req.method]; ok {
		rt := s.routes[m.method+" "+m.path]
		if rt == nil {
			return nil, ErrUnsupported()
		}
		weight := rt.weight
		if rt.weightFn != nil {
			weight = rt.weightFn(c.req.params)
		}
		return c.run(ctx, rt.path, rt.sec, weight, func(call *Call) (any, error) {
			if err := c.req.params.unread(rt.allowed); err != nil {
				return nil, err
			}
			return s.run(call, rt)
		})
	}
	switch c.req.method {
	case mLogon:
		return c.run(ctx, mLogon, sessionSecurity, sessionWeight, c.logon)
	case mStatus, mLogout:
		return c.run(ctx, c.req.method, SecNone, sessionWeight, func(call *Call) (any, error) {
			if err := call.Params.unread(nil); err != nil {
				return nil, err
			}
			if c.req.method == mLogout {
				if err := c.conn.LogOn(ctx, apikey.Resolved{}, time.Time{}); err != nil {
					return nil, err
				}
				c.state = nil
			}
			return c.status(ctx)
		})
	case mSubscriptions:
		return c.run(ctx, c.req.method, SecNone, sessionWeight, func(call *Call) (any, error) {
			if err := call.Params.unread(nil); err != nil {
				return nil, err
			}
			st, err := c.connState(ctx)
			if err != nil {
				return nil, err
			}
			out := make([]subscriptionInfo, 0, len(st.Subs))
			for _, id := range st.Subs {
				out = append(out, subscriptionInfo{SubscriptionID: id})
			}
			return out, nil
		})
	case mSubscribe:
		return c.run(ctx, c.req.method, SecNone, sessionWeight, c.subscribeLogon)
	case mSubscribeSig:
		return c.run(ctx, c.req.method, sessionSecurity, sessionWeight, c.subscribeSigned)
	case mUnsubscribe:
		return c.run(ctx, c.req.method, SecNone, sessionWeight, c.unsubscribe)
	}
	return nil, badRequest(CodeUnsupportedOperation, "Unknown method '%s'.", c.req.method)
}

// run charges a request's weight to the IP, authenticates it as sec says
// (the logged-on key standing in for apiKey and signature), charges the
// key too, and runs h.
func (c *apiCall) run(ctx context.Context, path string, sec Security, weight int, h handlerFunc) (any, error) {
	s := c.a.s
	ip := c.conn.IP()
	if v := s.limits.charge(ip, weight, c.now); v.err != nil {
		return nil, v.err
	}
	req := c.req
	call := &Call{Ctx: ctx, Params: req.params, Now: c.now, IP: ip, Log: s.log, header: c.header, Path: path, APIKey: req.apiKey}
	call.signing = func() (string, string, bool) { return req.payload, req.sig, req.sig != "" }
	if sec != SecNone {
		if req.apiKey == "" {
			st, err := c.connState(ctx)
			if err != nil {
				return nil, err
			}
			call.SessionKey = st.LogonKey
		}
		if s.opts.Authenticate == nil {
			return nil, ErrUnauthorized()
		}
		if err := s.opts.Authenticate(call, sec); err != nil {
			return nil, asError(err, s.log)
		}
		if err := s.chargeKey(call, weight); err != nil {
			return nil, err
		}
	}
	res, err := h(call)
	if err != nil {
		return nil, asError(err, s.log.With().Str("method", req.method).Logger())
	}
	return res, nil
}

// answer sends the request's answer (err nil: status 200 and res).
func (c *apiCall) answer(ctx context.Context, res any, err error) {
	a := apiAnswer{ID: c.req.id, Status: http.StatusOK, Result: res}
	if a.ID == nil {
		a.ID = json.RawMessage("null")
	}
	if err != nil {
		e := asError(err, c.a.s.log)
		a.Status, a.Result = e.Status, nil
		a.Error = &apiError{Code: e.Code, Msg: e.Msg}
		if e.RetryAfter > 0 {
			a.Error.Data = &apiErrorRetry{ServerTime: c.now.UnixMilli(), RetryAfter: c.now.Add(time.Duration(e.RetryAfter) * time.Second).UnixMilli()}
		}
	} else if a.Result == nil {
		a.Result = struct{}{}
	}
	if c.req.rateLimits {
		if st, serr := c.connState(ctx); serr == nil && st.RateLimits {
			a.RateLimits = c.a.s.rateLimitUse(c.conn.IP(), c.header, c.now)
		}
	}
	b, merr := json.Marshal(a)
	if merr != nil {
		b, _ = json.Marshal(apiAnswer{ID: a.ID, Status: http.StatusInternalServerError, Error: &apiError{Code: CodeUnknown, Msg: ErrUnknown().Msg}})
	}
	c.conn.Send(ctx, b)
}

// rateLimitUse is the rateLimits of an answer: the IP's request weight
// this minute, and the account's order counts when the call placed an
// order (its X-MBX-ORDER-COUNT-* headers).
func (s *Server) rateLimitUse(ip string, hdr http.Header, now time.Time) []rateLimitUse {
	out := []rateLimitUse{{RateLimit: RateLimit{RateLimitType: "REQUEST_WEIGHT", Interval: "MINUTE", IntervalNum: 1,
		Limit: s.opts.WeightLimit}, Count: s.limits.usedBy(ip, now)}}
	for _, rl := range s.rateLimits() {
		if rl.RateLimitType != "ORDERS" {
			continue
		}
		name := "X-Mbx-Order-Count-" + strconv.Itoa(rl.IntervalNum) + rl.Interval[:1]
		if v := hdr.Get(name); v != "" {
			n, _ := strconv.Atoi(v)
			out = append(out, rateLimitUse{RateLimit: rl, Count: n})
		}
	}
	return out
}

// ChargeConnect counts a new connection's weight against its address
// (WSAPIConnectWeight): over the limit it answers the 429 or 418 error.
func (s *Server) ChargeConnect(ip string) *Error {
	return s.limits.charge(ip, WSAPIConnectWeight, s.now()).err
}

// logon is session.logon: the key (Ed25519 only, as on Binance) serves
// the connection's later requests.
func (c *apiCall) logon(call *Call) (any, error) {
	if err := call.Params.unread(map[string]bool{"timestamp": true, "recvWindow": true}); err != nil {
		return nil, err
	}
	if call.APIKey == "" {
		return nil, ErrMandatory("apiKey")
	}
	key := account(call)
	if key.KeyType != apikey.TypeEd25519 {
		return nil, ErrRejectedKey()
	}
	if err := c.conn.LogOn(call.Ctx, key, call.Now); err != nil {
		return nil, err
	}
	c.state = nil
	return c.status(call.Ctx)
}

// sessionStatus is the answer of session.logon, .status and .logout.
type sessionStatus struct {
	APIKey           *string `json:"apiKey"`
	AuthorizedSince  *int64  `json:"authorizedSince"`
	ConnectedSince   int64   `json:"connectedSince"`
	ReturnRateLimits bool    `json:"returnRateLimits"`
	ServerTime       int64   `json:"serverTime"`
	UserDataStream   bool    `json:"userDataStream"`
}

func (c *apiCall) status(ctx context.Context) (sessionStatus, error) {
	st, err := c.connState(ctx)
	if err != nil {
		return sessionStatus{}, err
	}
	out := sessionStatus{ConnectedSince: st.Connected.UnixMilli(), ReturnRateLimits: st.RateLimits,
		ServerTime: c.now.UnixMilli(), UserDataStream: len(st.Subs) > 0}
	if st.LogonKey != "" {
		k, at := st.LogonKey, st.LogonAt.UnixMilli()
		out.APIKey, out.AuthorizedSince = &k, &at
	}
	return out, nil
}

// subscriptionInfo is an entry of session.subscriptions.
type subscriptionInfo struct {
	SubscriptionID int64 `json:"subscriptionId"`
}

// subscribed is the answer of the subscribe methods.
type subscribed struct {
	SubscriptionID int64 `json:"subscriptionId"`
}

// subscribeLogon is userDataStream.subscribe: the logged-on account's
// events (one subscription; asking again answers it).
func (c *apiCall) subscribeLogon(call *Call) (any, error) {
	if err := call.Params.unread(nil); err != nil {
		return nil, err
	}
	st, err := c.connState(call.Ctx)
	if err != nil {
		return nil, err
	}
	if st.LogonKey == "" {
		return nil, ErrUnauthorized()
	}
	key, err := c.a.s.resolveFor(call.Ctx, st.LogonKey, c.conn.IP())
	if err != nil {
		return nil, err
	}
	return c.subscribe(call.Ctx, key, true)
}

// subscribeSigned is userDataStream.subscribe.signature: the signing
// key's account's events (one subscription a key).
func (c *apiCall) subscribeSigned(call *Call) (any, error) {
	if err := call.Params.unread(map[string]bool{"timestamp": true, "recvWindow": true}); err != nil {
		return nil, err
	}
	return c.subscribe(call.Ctx, account(call), false)
}

func (c *apiCall) subscribe(ctx context.Context, key apikey.Resolved, logon bool) (any, error) {
	if c.a.s.users == nil {
		return nil, ErrUnsupported()
	}
	id, err := c.conn.Subscribe(ctx, key, logon)
	if err != nil {
		return nil, err
	}
	return subscribed{id}, nil
}

// unsubscribe is userDataStream.unsubscribe: one subscription
// (subscriptionId) or all.
func (c *apiCall) unsubscribe(call *Call) (any, error) {
	if err := call.Params.unread(map[string]bool{"subscriptionId": true}); err != nil {
		return nil, err
	}
	id, sent, err := call.Params.Long("subscriptionId", false)
	if err != nil {
		return nil, err
	}
	found, err := c.conn.Unsubscribe(call.Ctx, id, !sent)
	if err != nil {
		return nil, err
	}
	if sent && !found {
		return nil, badRequest(CodeInvalidParameter, "Invalid subscriptionId.")
	}
	return struct{}{}, nil
}

// resolveFor reads an API key for a request from ip (deleted, or not
// allowed from ip: -2015).
func (s *Server) resolveFor(ctx context.Context, raw, ip string) (apikey.Resolved, error) {
	if s.opts.Keys == nil {
		return apikey.Resolved{}, ErrUnauthorized()
	}
	k, err := s.opts.Keys.Resolve(ctx, raw)
	if err != nil || !k.AllowsIP(ip) {
		return apikey.Resolved{}, ErrRejectedKey()
	}
	return k, nil
}

// ErrBadFrame answers a frame that is not a request: not a JSON object,
// without a method, or with an id that is not an integer, a short string
// or null.
func ErrBadFrame(msg string) *Error { return badRequest(CodeIllegalChars, "Invalid request: %s", msg) }

// parseAPIRequest reads a request frame. The parameters become Params
// (strings as sent, numbers and booleans as written, arrays as their JSON
// text, null as absent); the signature payload is every parameter but
// signature, sorted by name, as key=value joined by &.
func parseAPIRequest(b []byte) (apiRequest, error) {
	req := apiRequest{rateLimits: true}
	var f struct {
		ID     json.RawMessage            `json:"id"`
		Method *string                    `json:"method"`
		Params map[string]json.RawMessage `json:"params"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&f); err != nil {
		return req, ErrBadFrame(jsonMsg(err))
	}
	id, ok := wsRequestID(f.ID)
	if !ok {
		return req, ErrBadFrame("'id' must be an integer, a string of up to 36 letters, digits and dashes, or null")
	}
	req.id = id
	if f.Method == nil || *f.Method == "" {
		return req, ErrBadFrame("'method' is missing")
	}
	req.method = strings.TrimPrefix(*f.Method, "v3/")
	p := &Params{vals: map[string]string{}}
	names := make([]string, 0, len(f.Params))
	for k := range f.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	var payload strings.Builder
	for _, k := range names {
		raw := bytes.TrimSpace(f.Params[k])
		if bytes.Equal(raw, []byte("null")) || k == "" {
			continue
		}
		var v string
		if len(raw) > 0 && raw[0] == '"' {
			if err := json.Unmarshal(raw, &v); err != nil {
				return req, ErrIllegalCharsAny()
			}
		} else {
			var c bytes.Buffer
			if err := json.Compact(&c, raw); err != nil {
				return req, ErrIllegalCharsAny()
			}
			v = c.String()
		}
		if k == "signature" {
			req.sig = v
			continue
		}
		if payload.Len() > 0 {
			payload.WriteByte('&')
		}
		payload.WriteString(k + "=" + v)
		switch k {
		case "apiKey":
			req.apiKey = v
			continue
		case "returnRateLimits":
			req.rateLimits = !strings.EqualFold(v, "false")
			continue
		}
		p.vals[k] = v
		p.names = append(p.names, k)
	}
	req.payload = payload.String()
	req.params = p
	return req, nil
}
