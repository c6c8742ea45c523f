package binance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
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
// Requests are served concurrently, up to maxInFlight on a connection
// (the next frame is read when one ends), and answered as they finish:
// clients match answers by id.
type WSAPI struct {
	s           *Server
	hub         *hub.Hub
	maxInFlight int
}

// WSAPIPath is where the WebSocket API is served.
const WSAPIPath = "/ws-api/v3"

// Limits of a WebSocket API connection.
const (
	// wsAPIConnectWeight is what opening a connection costs (Binance: 2).
	wsAPIConnectWeight = 2
	// wsAPIMaxInFlight requests of one connection run at once.
	wsAPIMaxInFlight = 32
	// maxUserDataSubs is how many user data subscriptions a connection
	// may hold.
	maxUserDataSubs = 20
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

// WSAPI builds the WebSocket API on h's connections; mount it on
// WSAPIPath.
func (s *Server) WSAPI(h *hub.Hub) *WSAPI {
	return &WSAPI{s: s, hub: h, maxInFlight: wsAPIMaxInFlight}
}

// ServeHTTP upgrades a request to a WebSocket API connection (it costs
// the IP 2 weight; over the limit it is answered 429 or 418 as REST is).
// ?returnRateLimits=false leaves rateLimits out of the answers.
func (a *WSAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.hub == nil {
		http.Error(w, "the WebSocket API is not served", http.StatusServiceUnavailable)
		return
	}
	now := a.s.now()
	ip := a.s.opts.ClientIP(r)
	v := a.s.limits.charge(ip, wsAPIConnectWeight, now)
	setWeight(w, v.used)
	if v.err != nil {
		writeError(w, v.err)
		return
	}
	limits := !strings.EqualFold(r.URL.Query().Get("returnRateLimits"), "false")
	a.hub.ServeSession(w, r, func(send func([]byte) bool) hub.Session {
		return &apiSession{a: a, send: send, ip: ip, connected: now, rateLimits: limits,
			sem: make(chan struct{}, a.maxInFlight), subs: map[int64]func(){}, logonSub: -1}
	})
}

// apiSession is one WebSocket API connection.
type apiSession struct {
	a          *WSAPI
	send       func([]byte) bool
	ip         string
	connected  time.Time
	rateLimits bool
	sem        chan struct{}
	wg         sync.WaitGroup

	mu        sync.Mutex
	logonKey  string // the API key logged on with ("" none)
	logonAt   time.Time
	logonUser string
	subs      map[int64]func() // user data subscriptions: id → stop
	sigSubs   map[string]int64 // subscriptions by signature: API key → id
	logonSub  int64            // the logged-on key's subscription (-1 none)
	nextSub   int64
	closed    bool
}

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

// userEvent wraps a user data event on the WebSocket API.
type userEvent struct {
	SubscriptionID int64           `json:"subscriptionId"`
	Event          json.RawMessage `json:"event"`
}

// Frame implements hub.Session: each request runs on its own goroutine
// once one of the connection's maxInFlight slots is free.
func (ss *apiSession) Frame(ctx context.Context, frame []byte) {
	req, err := parseAPIRequest(frame)
	if err != nil {
		ss.answer(req, nil, err, ss.a.s.now())
		return
	}
	select {
	case ss.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	ss.wg.Add(1)
	go func() {
		defer func() { <-ss.sem; ss.wg.Done() }()
		ss.serve(ctx, req)
	}()
}

// Close implements hub.Session: the connection ended; its subscriptions
// stop.
func (ss *apiSession) Close() {
	ss.mu.Lock()
	ss.closed = true
	subs := ss.subs
	ss.subs = map[int64]func(){}
	ss.mu.Unlock()
	for _, stop := range subs {
		stop()
	}
}

// serve answers one request.
func (ss *apiSession) serve(ctx context.Context, req apiRequest) {
	s := ss.a.s
	now := s.now()
	if m, ok := apiMethods[req.method]; ok {
		rt := s.routes[m.method+" "+m.path]
		if rt == nil {
			ss.answer(req, nil, ErrUnsupported(), now)
			return
		}
		weight := rt.weight
		if rt.weightFn != nil {
			weight = rt.weightFn(req.params)
		}
		res, hdr, err := ss.run(ctx, req, rt.path, rt.sec, weight, now, func(c *Call) (any, error) {
			if err := req.params.unread(rt.allowed); err != nil {
				return nil, err
			}
			return s.run(c, rt)
		})
		ss.answerWith(req, hdr, res, err, now)
		return
	}
	var (
		res any
		err error
	)
	switch req.method {
	case mLogon:
		res, _, err = ss.run(ctx, req, mLogon, sessionSecurity, sessionWeight, now, ss.logon)
	case mStatus, mLogout:
		res, _, err = ss.run(ctx, req, req.method, SecNone, sessionWeight, now, func(c *Call) (any, error) {
			if err := c.Params.unread(nil); err != nil {
				return nil, err
			}
			if req.method == mLogout {
				ss.logout()
			}
			return ss.status(c.Now), nil
		})
	case mSubscriptions:
		res, _, err = ss.run(ctx, req, req.method, SecNone, sessionWeight, now, func(c *Call) (any, error) {
			if err := c.Params.unread(nil); err != nil {
				return nil, err
			}
			return ss.subscriptions(), nil
		})
	case mSubscribe:
		res, _, err = ss.run(ctx, req, req.method, SecNone, sessionWeight, now, ss.subscribeLogon)
	case mSubscribeSig:
		res, _, err = ss.run(ctx, req, req.method, sessionSecurity, sessionWeight, now, ss.subscribeSigned)
	case mUnsubscribe:
		res, _, err = ss.run(ctx, req, req.method, SecNone, sessionWeight, now, ss.unsubscribe)
	default:
		err = badRequest(CodeUnsupportedOperation, "Unknown method '%s'.", req.method)
	}
	ss.answer(req, res, err, now)
}

// run charges a request's weight, authenticates it as sec says (the
// session's key standing in for apiKey and signature after logon), and
// runs h. hdr is the headers h set (the order counts).
func (ss *apiSession) run(ctx context.Context, req apiRequest, path string, sec Security, weight int, now time.Time,
	h handlerFunc) (res any, hdr http.Header, err error) {
	s := ss.a.s
	hdr = http.Header{}
	v := s.limits.charge(ss.ip, weight, now)
	if v.err != nil {
		return nil, hdr, v.err
	}
	c := &Call{Ctx: ctx, Params: req.params, Now: now, IP: ss.ip, Log: s.log, header: hdr, Path: path, APIKey: req.apiKey}
	c.signing = func() (string, string, bool) { return req.payload, req.sig, req.sig != "" }
	if sec != SecNone {
		if req.apiKey == "" {
			ss.mu.Lock()
			c.SessionKey = ss.logonKey
			ss.mu.Unlock()
		}
		if s.opts.Authenticate == nil {
			return nil, hdr, ErrUnauthorized()
		}
		if err := s.opts.Authenticate(c, sec); err != nil {
			return nil, hdr, asError(err, s.log)
		}
		if err := s.chargeKey(c, weight); err != nil {
			return nil, hdr, err
		}
	}
	res, err = h(c)
	if err != nil {
		return nil, hdr, asError(err, s.log.With().Str("method", req.method).Logger())
	}
	return res, hdr, nil
}

// answer sends a request's answer (err nil: status 200 and res).
func (ss *apiSession) answer(req apiRequest, res any, err error, now time.Time) {
	ss.answerWith(req, nil, res, err, now)
}

// answerWith is answer for a call that set headers (hdr: its order counts).
func (ss *apiSession) answerWith(req apiRequest, hdr http.Header, res any, err error, now time.Time) {
	a := apiAnswer{ID: req.id, Status: http.StatusOK, Result: res}
	if a.ID == nil {
		a.ID = json.RawMessage("null")
	}
	if err != nil {
		e := asError(err, ss.a.s.log)
		a.Status, a.Result = e.Status, nil
		a.Error = &apiError{Code: e.Code, Msg: e.Msg}
		if e.RetryAfter > 0 {
			a.Error.Data = &apiErrorRetry{ServerTime: now.UnixMilli(), RetryAfter: now.Add(time.Duration(e.RetryAfter) * time.Second).UnixMilli()}
		}
	} else if a.Result == nil {
		a.Result = struct{}{}
	}
	if ss.rateLimits && req.rateLimits {
		a.RateLimits = ss.a.s.rateLimitUse(ss.ip, hdr, now)
	}
	b, merr := json.Marshal(a)
	if merr != nil {
		b, _ = json.Marshal(apiAnswer{ID: a.ID, Status: http.StatusInternalServerError, Error: &apiError{Code: CodeUnknown, Msg: ErrUnknown().Msg}})
	}
	ss.send(b)
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

// logon is session.logon: the key (Ed25519 only, as on Binance) serves
// the connection's later requests.
func (ss *apiSession) logon(c *Call) (any, error) {
	if err := c.Params.unread(map[string]bool{"timestamp": true, "recvWindow": true}); err != nil {
		return nil, err
	}
	if c.APIKey == "" {
		return nil, ErrMandatory("apiKey")
	}
	key := account(c)
	if key.KeyType != apikey.TypeEd25519 {
		return nil, ErrRejectedKey()
	}
	ss.mu.Lock()
	if ss.logonUser != "" && ss.logonUser != key.UserID {
		ss.stopLogonSubLocked()
	}
	ss.logonKey, ss.logonAt, ss.logonUser = key.APIKey, c.Now, key.UserID
	ss.mu.Unlock()
	return ss.status(c.Now), nil
}

// logout forgets the logged-on key and ends its user data subscription.
func (ss *apiSession) logout() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.stopLogonSubLocked()
	ss.logonKey, ss.logonAt, ss.logonUser = "", time.Time{}, ""
}

func (ss *apiSession) stopLogonSubLocked() {
	if ss.logonSub < 0 {
		return
	}
	if stop, ok := ss.subs[ss.logonSub]; ok {
		stop()
		delete(ss.subs, ss.logonSub)
	}
	ss.logonSub = -1
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

func (ss *apiSession) status(now time.Time) sessionStatus {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	st := sessionStatus{ConnectedSince: ss.connected.UnixMilli(), ReturnRateLimits: ss.rateLimits,
		ServerTime: now.UnixMilli(), UserDataStream: len(ss.subs) > 0}
	if ss.logonKey != "" {
		k, at := ss.logonKey, ss.logonAt.UnixMilli()
		st.APIKey, st.AuthorizedSince = &k, &at
	}
	return st
}

// subscriptionInfo is an entry of session.subscriptions.
type subscriptionInfo struct {
	SubscriptionID int64 `json:"subscriptionId"`
}

func (ss *apiSession) subscriptions() []subscriptionInfo {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := []subscriptionInfo{}
	for id := range ss.subs {
		out = append(out, subscriptionInfo{SubscriptionID: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SubscriptionID < out[j].SubscriptionID })
	return out
}

// subscribed is the answer of the subscribe methods.
type subscribed struct {
	SubscriptionID int64 `json:"subscriptionId"`
}

// subscribeLogon is userDataStream.subscribe: the logged-on account's
// events (one subscription; asking again answers it).
func (ss *apiSession) subscribeLogon(c *Call) (any, error) {
	if err := c.Params.unread(nil); err != nil {
		return nil, err
	}
	ss.mu.Lock()
	raw := ss.logonKey
	ss.mu.Unlock()
	if raw == "" {
		return nil, ErrUnauthorized()
	}
	key, err := ss.resolve(c.Ctx, raw)
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.logonKey != raw {
		return nil, ErrUnauthorized() // logged out meanwhile
	}
	if ss.logonSub >= 0 {
		return subscribed{ss.logonSub}, nil
	}
	id, err := ss.listenLocked(key)
	if err != nil {
		return nil, err
	}
	ss.logonSub = id
	return subscribed{id}, nil
}

// subscribeSigned is userDataStream.subscribe.signature: the signing
// key's account's events (one subscription a key).
func (ss *apiSession) subscribeSigned(c *Call) (any, error) {
	if err := c.Params.unread(map[string]bool{"timestamp": true, "recvWindow": true}); err != nil {
		return nil, err
	}
	key := account(c)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.sigSubs == nil {
		ss.sigSubs = map[string]int64{}
	}
	if id, ok := ss.sigSubs[key.APIKey]; ok {
		if _, live := ss.subs[id]; live {
			return subscribed{id}, nil
		}
	}
	id, err := ss.listenLocked(key)
	if err != nil {
		return nil, err
	}
	ss.sigSubs[key.APIKey] = id
	return subscribed{id}, nil
}

// listenLocked starts a subscription to the key's account's events; each
// event checks first that the key still exists (a deleted key's
// subscription ends with eventStreamTerminated).
func (ss *apiSession) listenLocked(key apikey.Resolved) (int64, error) {
	ud := ss.a.s.users
	if ud == nil {
		return 0, ErrUnsupported()
	}
	if ss.closed {
		return 0, ErrDisconnected()
	}
	if len(ss.subs) >= maxUserDataSubs {
		return 0, badRequest(CodeTooManyParameters, "Too many subscriptions: a connection holds at most %d.", maxUserDataSubs)
	}
	id := ss.nextSub
	ss.nextSub++
	wrap := func(ev []byte) []byte {
		b, _ := json.Marshal(userEvent{SubscriptionID: id, Event: ev})
		return b
	}
	raw := key.APIKey
	var stop func()
	stop = ud.listen(key.UserID, &userSub{
		deliver: func(ev []byte) bool { return ss.send(wrap(ev)) },
		valid: func(ctx context.Context) bool {
			k, err := ss.resolve(ctx, raw)
			return err == nil && k.UserID == key.UserID
		},
		ended: func() {
			ss.send(wrap(streamTerminated(ss.a.s.now())))
			ss.mu.Lock()
			delete(ss.subs, id)
			if ss.logonSub == id {
				ss.logonSub = -1
			}
			ss.mu.Unlock()
			stop()
		},
	})
	ss.subs[id] = stop
	return id, nil
}

// unsubscribe is userDataStream.unsubscribe: one subscription
// (subscriptionId) or all.
func (ss *apiSession) unsubscribe(c *Call) (any, error) {
	if err := c.Params.unread(map[string]bool{"subscriptionId": true}); err != nil {
		return nil, err
	}
	id, sent, err := c.Params.Long("subscriptionId", false)
	if err != nil {
		return nil, err
	}
	ss.mu.Lock()
	var stops []func()
	for sid, stop := range ss.subs {
		if !sent || sid == id {
			stops = append(stops, stop)
			delete(ss.subs, sid)
			if ss.logonSub == sid {
				ss.logonSub = -1
			}
		}
	}
	ss.mu.Unlock()
	if sent && len(stops) == 0 {
		return nil, badRequest(CodeInvalidParameter, "Invalid subscriptionId.")
	}
	for _, stop := range stops {
		stop()
	}
	return struct{}{}, nil
}

// resolve reads an API key (deleted: -2015).
func (ss *apiSession) resolve(ctx context.Context, raw string) (apikey.Resolved, error) {
	keys := ss.a.s.opts.Keys
	if keys == nil {
		return apikey.Resolved{}, ErrUnauthorized()
	}
	k, err := keys.Resolve(ctx, raw)
	if err != nil {
		return apikey.Resolved{}, ErrRejectedKey()
	}
	if !k.AllowsIP(ss.ip) {
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
