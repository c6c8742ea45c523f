package binance

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"tenger/internal/apikey"
	"tenger/internal/push/hub"
)

// WSAPI builds the WebSocket API on h's connections; mount it on
// WSAPIPath.
func (s *Server) WSAPI(h *hub.Hub) *WSAPI {
	return &WSAPI{s: s, hub: h, maxInFlight: wsAPIMaxInFlight}
}

// ServeHTTP upgrades a request to a WebSocket API connection on the hub
// (it costs the IP WSAPIConnectWeight; over the limit it is answered 429
// or 418 as REST is). ?returnRateLimits=false leaves rateLimits out of the
// answers.
func (a *WSAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.hub == nil {
		http.Error(w, "the WebSocket API is not served", http.StatusServiceUnavailable)
		return
	}
	now := a.s.now()
	ip := a.s.opts.ClientIP(r)
	v := a.s.limits.charge(ip, WSAPIConnectWeight, now)
	setWeight(w, v.used)
	if v.err != nil {
		writeError(w, v.err)
		return
	}
	limits := !strings.EqualFold(r.URL.Query().Get("returnRateLimits"), "false")
	a.hub.ServeSession(w, r, func(send func([]byte) bool) hub.Session {
		return &apiSession{a: a, send: send, ip: ip, connected: now, rateLimits: limits,
			sem: make(chan struct{}, a.maxInFlight), subs: map[int64]*localSub{}, logonSub: -1}
	})
}

// apiSession is a WebSocket API connection of the hub: its state in
// memory, its user data subscriptions listeners of UserData.
type apiSession struct {
	a          *WSAPI
	send       func([]byte) bool
	ip         string
	connected  time.Time
	rateLimits bool
	sem        chan struct{}

	mu       sync.Mutex
	logonKey string // the API key logged on with ("" none)
	logonAt  time.Time
	logonSub int64 // the logged-on key's subscription (-1 none)
	subs     map[int64]*localSub
	nextSub  int64
	closed   bool
}

// localSub is one user data subscription of a session.
type localSub struct {
	apiKey string
	stop   func()
}

var _ WSConn = (*apiSession)(nil)

// Frame implements hub.Session: each request runs on its own goroutine
// once one of the connection's maxInFlight slots is free.
func (ss *apiSession) Frame(ctx context.Context, frame []byte) {
	select {
	case ss.sem <- struct{}{}:
	case <-ctx.Done():
		return
	}
	go func() {
		defer func() { <-ss.sem }()
		ss.a.Handle(ctx, ss, frame)
	}()
}

// Close implements hub.Session: the connection ended; its subscriptions
// stop.
func (ss *apiSession) Close() {
	ss.mu.Lock()
	ss.closed = true
	subs := ss.subs
	ss.subs = map[int64]*localSub{}
	ss.mu.Unlock()
	for _, sub := range subs {
		sub.stop()
	}
}

// IP implements WSConn.
func (ss *apiSession) IP() string { return ss.ip }

// Send implements WSConn.
func (ss *apiSession) Send(_ context.Context, frame []byte) { ss.send(frame) }

// State implements WSConn.
func (ss *apiSession) State(context.Context) (WSState, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	st := WSState{Connected: ss.connected, RateLimits: ss.rateLimits, LogonKey: ss.logonKey, LogonAt: ss.logonAt}
	for id := range ss.subs {
		st.Subs = append(st.Subs, id)
	}
	sort.Slice(st.Subs, func(i, j int) bool { return st.Subs[i] < st.Subs[j] })
	return st, nil
}

// LogOn implements WSConn: a new key (or none) ends the logon's
// subscription.
func (ss *apiSession) LogOn(_ context.Context, key apikey.Resolved, at time.Time) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if key.APIKey != ss.logonKey && ss.logonSub >= 0 {
		if sub, ok := ss.subs[ss.logonSub]; ok {
			sub.stop()
			delete(ss.subs, ss.logonSub)
		}
		ss.logonSub = -1
	}
	ss.logonKey, ss.logonAt = key.APIKey, at
	return nil
}

// Subscribe implements WSConn: the subscription is a listener of the
// server's UserData; each event checks first that the key still exists
// (a deleted key's subscription ends with eventStreamTerminated).
func (ss *apiSession) Subscribe(_ context.Context, key apikey.Resolved, logon bool) (int64, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return 0, ErrDisconnected()
	}
	if logon && ss.logonSub >= 0 {
		return ss.logonSub, nil
	}
	if !logon {
		for id, sub := range ss.subs {
			if sub.apiKey == key.APIKey && id != ss.logonSub {
				return id, nil
			}
		}
	}
	if len(ss.subs) >= maxUserDataSubs {
		return 0, ErrTooManySubs()
	}
	id := ss.nextSub
	ss.nextSub++
	s := ss.a.s
	raw, ip := key.APIKey, ss.ip
	sub := &localSub{apiKey: raw}
	sub.stop = s.users.listen(key.UserID, &userSub{
		deliver: func(ev []byte) bool { return ss.send(UserEvent(id, ev)) },
		valid: func(ctx context.Context) bool {
			k, err := s.resolveFor(ctx, raw, ip)
			return err == nil && k.UserID == key.UserID
		},
		ended: func() {
			ss.send(UserEvent(id, StreamTerminated(s.now())))
			// Under the lock: Subscribe sets sub.stop while holding it.
			ss.mu.Lock()
			delete(ss.subs, id)
			if ss.logonSub == id {
				ss.logonSub = -1
			}
			stop := sub.stop
			ss.mu.Unlock()
			stop()
		},
	})
	ss.subs[id] = sub
	if logon {
		ss.logonSub = id
	}
	return id, nil
}

// Unsubscribe implements WSConn.
func (ss *apiSession) Unsubscribe(_ context.Context, id int64, all bool) (bool, error) {
	ss.mu.Lock()
	var stops []func()
	for sid, sub := range ss.subs {
		if all || sid == id {
			stops = append(stops, sub.stop)
			delete(ss.subs, sid)
			if ss.logonSub == sid {
				ss.logonSub = -1
			}
		}
	}
	ss.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
	return len(stops) > 0, nil
}
