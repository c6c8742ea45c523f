package binance

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/push/hub"
)

// Streams serves Binance's WebSocket market streams on the hub's
// connections:
//
//	/ws/<stream>                  raw: each event is the stream's payload
//	/stream?streams=<s1>/<s2>/... combined: {"stream":"<name>","data":<payload>}
//	/ws                           the web app's endpoint: a frame in Binance's
//	                              dialect (see claimsFrame) subscribes there too
//
// and, on each, Binance's live subscription frames (ws_frames.go). A name
// in a URL that is not a stream is ignored, as Binance does (CCXT connects
// to /ws/0, /ws/1... and subscribes with frames); a frame naming one gets
// "invalid stream". A connection listens to at most MaxStreamsPerConn
// streams. Keep-alive is the hub's: it pings every connection, clients'
// pings are answered.
//
// Events (ws_events.go) come from market data (marketdata.Listener):
// trades as they are applied; the book ticker when a book changes its
// best bid or ask; diff depth and partial books every 100 ms or 1000 ms;
// tickers every second; klines every two seconds. Periodic streams
// (partial book, tickers, klines) are sent when they changed (times
// aside), and to each new subscriber at its first period.
//
// Diff depth. Market data gives every book snapshot it applies a version
// (marketdata.DepthView.Seq), which the REST depth answers as lastUpdateId.
// Each snapshot is compared with the one before, as the REST depth shows
// them (the best 200 levels a side); each diff stream gathers the prices
// that changed in any version since its last event, and its next event is
// U = the last event's u + 1, u = the newest version, with those prices
// at their quantity now (zero: gone, or out of the best 200). A stream
// starts at the version current when it is subscribed: before the
// subscription is answered (frames) or the connection opened (URLs), so a
// depth snapshot fetched afterwards is at or past it, and Binance's
// procedure for a local order book (drop u <= lastUpdateId, the first
// event holds lastUpdateId+1, each next U is the last u + 1) keeps a
// book equal to the REST depth.
type Streams struct {
	s   *Server
	hub *hub.Hub

	// fast is the period of the 100 ms streams; the 1000 ms ones run
	// every slowEvery of its ticks, klines every klineEvery (tests
	// shorten fast).
	fast                  time.Duration
	slowEvery, klineEvery int
	// maxStreams bounds a connection's streams (MaxStreamsPerConn).
	maxStreams int

	stopListen func()

	// publish and chans are set on ChannelStreams: the sessions there are
	// channels' (by channel), sending with publish.
	publish func(channel string, msg []byte)

	mu      sync.Mutex
	chans   map[string]*wsSession
	streams map[string]*stream // those with subscribers, by name
	syms    map[string]*symStreams
	running bool
	wake    chan struct{}
	// done is closed when a loop run ends (tests wait for it).
	done chan struct{}
}

// symStreams is a symbol's book and streams.
type symStreams struct {
	pair    markets.Pair
	streams map[*stream]struct{}
	// seq, bids and asks are the latest book market data applied.
	seq        int64
	bids, asks []marketdata.Level
	// pending are the books not processed yet, kept while the symbol has
	// diff depth or book ticker streams; view is the last processed one
	// (diff depth streams only).
	pending []pendingBook
	view    *bookView
	// trades not sent yet, kept while the symbol has trade streams.
	trades []marketdata.Trade
	// nDiff, nBook, nTrade count the symbol's streams of those kinds.
	nDiff, nBook, nTrade int
}

type pendingBook struct {
	seq        int64
	bids, asks []marketdata.Level
}

// stream is one stream name with subscribers.
type stream struct {
	spec streamSpec
	// subs are the sessions listening; the value is set until the
	// session had its first message of a periodic stream.
	subs map[*wsSession]bool
	// Diff depth: the version last sent (U of the next event is one
	// more) and the prices changed since.
	lastU      int64
	bids, asks map[string]struct{}
	// last is the key of the last payload sent (periodic streams, book
	// ticker); lastBy the keys by symbol (all-market tickers).
	last   string
	lastBy map[string]string
	// bucket is the kline bucket last sent (Unix s).
	bucket int64
}

// Stream timing (Binance's update speeds).
const (
	streamFast   = 100 * time.Millisecond
	streamSlow   = 10 // fast ticks a second
	streamKlines = 20 // fast ticks per kline update
)

// Streams builds the market streams on h's connections and makes h's /ws
// take Binance's frames too. They follow market data from here on (a fed
// service: a reader applies nothing). Mount the Streams on Paths.
func (s *Server) Streams(h *hub.Hub) *Streams {
	st := &Streams{s: s, hub: h, fast: streamFast, slowEvery: streamSlow, klineEvery: streamKlines,
		maxStreams: MaxStreamsPerConn, streams: map[string]*stream{}, syms: map[string]*symStreams{}, wake: make(chan struct{}, 1)}
	if s.md != nil {
		st.stopListen = s.md.Listen(streamsListener{st})
	}
	if h != nil {
		h.SetDialect(st)
	}
	return st
}

// Paths are the paths the Streams serve: /ws/<streams> and /stream.
func (st *Streams) Paths() []string { return []string{"/ws/", "/stream"} }

// Close stops following market data (connections are the hub's to close).
func (st *Streams) Close() {
	if st.stopListen != nil {
		st.stopListen()
	}
}

// ServeHTTP upgrades /ws/<stream>[/<stream>...] (raw payloads) and
// /stream?streams=<a>/<b>/... (combined) to a connection listening to
// the streams named. More than MaxStreamsPerConn is 400.
func (st *Streams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var names []string
	combined := false
	switch {
	case strings.HasPrefix(r.URL.Path, "/ws/"):
		names = strings.Split(strings.TrimPrefix(r.URL.Path, "/ws/"), "/")
	case r.URL.Path == "/stream":
		combined = true
		if v := r.URL.Query().Get("streams"); v != "" {
			names = strings.Split(v, "/")
		}
	default:
		notFound(w)
		return
	}
	specs, listenKeys, werr := st.s.urlStreams(names, st.maxStreams)
	if werr != nil {
		writeJSON(w, http.StatusBadRequest, werr)
		return
	}
	if st.hub == nil {
		http.Error(w, "streams are not served", http.StatusServiceUnavailable)
		return
	}
	// A listen key names a user data stream: it must be live (-1125).
	for _, lk := range listenKeys {
		if _, _, err := st.s.checkListenKey(r.Context(), lk); err != nil {
			writeError(w, asError(err, st.s.log))
			return
		}
	}
	st.hub.ServeSession(w, r, func(send func([]byte) bool) hub.Session {
		sess := st.newSession(send, combined)
		for _, lk := range listenKeys {
			// Checked above; a key that ended meanwhile just sends nothing.
			if stop, err := st.userStream(r.Context(), sess, lk); err == nil {
				sess.userStops = append(sess.userStops, stop)
			}
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		for _, sp := range specs {
			st.subscribeLocked(sess, sp)
		}
		return sess
	})
}

// Claims implements hub.Dialect: Binance's frames on /ws.
func (st *Streams) Claims(frame []byte) bool { return claimsFrame(frame) }

// Open implements hub.Dialect: a /ws connection's Binance session (raw
// payloads until SET_PROPERTY combined).
func (st *Streams) Open(send func([]byte) bool) hub.Session { return st.newSession(send, false) }

// wsSession is a connection's subscriptions (guarded by Streams.mu).
type wsSession struct {
	st       *Streams
	send     func([]byte) bool
	combined bool
	names    []string // in subscription order (LIST_SUBSCRIPTIONS)
	subs     map[string]*stream
	closed   bool
	// userStops end the listen keys' user data subscriptions.
	userStops []func()
}

func (st *Streams) newSession(send func([]byte) bool, combined bool) *wsSession {
	return &wsSession{st: st, send: send, combined: combined, subs: map[string]*stream{}}
}

// Frame implements hub.Session: it answers a request frame. The answer
// is sent under the lock: a new subscription's answer goes before its
// first event.
func (ss *wsSession) Frame(ctx context.Context, frame []byte) {
	st := ss.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if ss.closed {
		return
	}
	ss.send(st.s.answerStreamFrame(ctx, lockedSubs{ss}, frame, st.maxStreams))
}

// lockedSubs are a session's subscriptions as StreamSubs (used under
// Streams.mu).
type lockedSubs struct{ ss *wsSession }

func (l lockedSubs) Streams(context.Context) ([]string, bool, error) {
	return slices.Clone(l.ss.names), l.ss.combined, nil
}

func (l lockedSubs) Update(_ context.Context, _ []string, change func([]string, bool) ([]string, bool, error)) error {
	ss := l.ss
	names, combined, err := change(slices.Clone(ss.names), ss.combined)
	if err != nil {
		return err
	}
	for _, n := range slices.Clone(ss.names) {
		if !slices.Contains(names, n) {
			ss.st.unsubscribeLocked(ss, n)
		}
	}
	for _, n := range names {
		if sp, ok := ss.st.s.parseStream(n); ok {
			ss.st.subscribeLocked(ss, sp)
		}
	}
	ss.combined = combined
	return nil
}

// Close implements hub.Session: the connection ended.
func (ss *wsSession) Close() {
	for _, stop := range ss.userStops {
		stop()
	}
	st := ss.st
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, n := range slices.Clone(ss.names) {
		st.unsubscribeLocked(ss, n)
	}
	ss.closed = true
}

func (st *Streams) symLocked(pr markets.Pair) *symStreams {
	sy := st.syms[pr.Symbol]
	if sy == nil {
		sy = &symStreams{}
		st.syms[pr.Symbol] = sy
	}
	sy.pair = pr
	if sy.streams == nil {
		sy.streams = map[*stream]struct{}{}
	}
	return sy
}

// subscribeLocked adds a stream to a session (a no-op when it has it).
func (st *Streams) subscribeLocked(ss *wsSession, sp streamSpec) {
	if _, ok := ss.subs[sp.name]; ok {
		return
	}
	s := st.streams[sp.name]
	if s == nil {
		s = &stream{spec: sp, subs: map[*wsSession]bool{}}
		st.streams[sp.name] = s
		if sp.pair.Symbol != "" {
			sy := st.symLocked(sp.pair)
			sy.streams[s] = struct{}{}
			switch sp.kind {
			case skDiffDepth:
				if sy.view == nil {
					sy.view = newBookView(sy.pair, sy.seq, sy.bids, sy.asks)
				}
				sy.nDiff++
				s.lastU, s.bids, s.asks = sy.view.seq, map[string]struct{}{}, map[string]struct{}{}
			case skBookTicker:
				sy.nBook++
			case skTrade, skAggTrade:
				sy.nTrade++
			}
		}
	}
	s.subs[ss] = true
	ss.subs[sp.name] = s
	ss.names = append(ss.names, sp.name)
	if !st.running {
		st.running = true
		st.done = make(chan struct{})
		go st.run(st.done)
	}
}

// unsubscribeLocked removes a stream from a session (a no-op when it has
// not it); a stream without subscribers is forgotten.
func (st *Streams) unsubscribeLocked(ss *wsSession, name string) {
	s, ok := ss.subs[name]
	if !ok {
		return
	}
	delete(ss.subs, name)
	ss.names = slices.DeleteFunc(ss.names, func(n string) bool { return n == name })
	delete(s.subs, ss)
	if len(s.subs) > 0 {
		return
	}
	delete(st.streams, name)
	sy := st.syms[s.spec.pair.Symbol]
	if sy == nil {
		return
	}
	delete(sy.streams, s)
	switch s.spec.kind {
	case skDiffDepth:
		if sy.nDiff--; sy.nDiff == 0 {
			sy.view = nil
		}
	case skBookTicker:
		sy.nBook--
	case skTrade, skAggTrade:
		if sy.nTrade--; sy.nTrade == 0 {
			sy.trades = nil
		}
	}
	if sy.nDiff == 0 && sy.nBook == 0 {
		sy.pending = nil
	}
}

// streamsListener hears market data (under its lock: it only queues).
type streamsListener struct{ st *Streams }

func (l streamsListener) BookApplied(symbol string, seq int64, bids, asks []marketdata.Level) {
	st := l.st
	st.mu.Lock()
	defer st.mu.Unlock()
	sy := st.syms[symbol]
	if sy == nil {
		sy = &symStreams{}
		st.syms[symbol] = sy
	}
	sy.seq, sy.bids, sy.asks = seq, bids, asks
	if sy.nDiff > 0 || sy.nBook > 0 {
		sy.pending = append(sy.pending, pendingBook{seq, bids, asks})
		st.wakeLocked()
	}
}

func (l streamsListener) TradesApplied(symbol string, trades []marketdata.Trade) {
	st := l.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if sy := st.syms[symbol]; sy != nil && sy.nTrade > 0 {
		sy.trades = append(sy.trades, trades...)
		st.wakeLocked()
	}
}

func (st *Streams) wakeLocked() {
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// run sends the events while there are streams: the real-time ones
// (trades, book ticker) when woken, the others on their ticks.
func (st *Streams) run(done chan struct{}) {
	defer close(done)
	t := time.NewTicker(st.fast)
	defer t.Stop()
	n := 0
	for {
		tick := false
		select {
		case <-st.wake:
		case <-t.C:
			tick = true
			n++
		}
		st.mu.Lock()
		if len(st.streams) == 0 {
			st.running = false
			st.mu.Unlock()
			return
		}
		now := st.s.now().UnixMilli()
		st.realtimeLocked(now)
		if tick {
			st.depthLocked(now, n%st.slowEvery == 0)
		}
		st.mu.Unlock()
		if tick && n%st.slowEvery == 0 {
			st.periodic(n%st.klineEvery == 0)
		}
	}
}

// emit sends a payload to the stream's subscribers (only the new ones
// with freshOnly), wrapped for the combined ones.
func (s *stream) emit(payload []byte, freshOnly bool) {
	var wrapped []byte
	for ss, fresh := range s.subs {
		if freshOnly && !fresh {
			continue
		}
		s.subs[ss] = false
		if !ss.combined {
			ss.send(payload)
			continue
		}
		if wrapped == nil {
			name, _ := json.Marshal(s.spec.name)
			wrapped = make([]byte, 0, len(payload)+len(name)+20)
			wrapped = append(append(append(append(wrapped, `{"stream":`...), name...), `,"data":`...), payload...)
			wrapped = append(wrapped, '}')
		}
		ss.send(wrapped)
	}
}

func (s *stream) hasFresh() bool {
	for _, fresh := range s.subs {
		if fresh {
			return true
		}
	}
	return false
}

// realtimeLocked sends the trades applied since the last call, and
// processes the books applied: diff depth changes are gathered, book
// tickers sent.
func (st *Streams) realtimeLocked(now int64) {
	for _, sy := range st.syms {
		if len(sy.trades) > 0 {
			raw, agg := tradeEvents(sy.pair, sy.trades, now)
			sy.trades = nil
			for s := range sy.streams {
				switch s.spec.kind {
				case skTrade:
					for _, b := range raw {
						s.emit(b, false)
					}
				case skAggTrade:
					for _, b := range agg {
						s.emit(b, false)
					}
				}
			}
		}
		for _, pb := range sy.pending {
			if sy.view != nil && pb.seq > sy.view.seq {
				nv := newBookView(sy.pair, pb.seq, pb.bids, pb.asks)
				var cb, ca map[string]struct{}
				for s := range sy.streams {
					if s.spec.kind != skDiffDepth {
						continue
					}
					if cb == nil {
						cb, ca = map[string]struct{}{}, map[string]struct{}{}
						changed(cb, sy.view.bidQty, nv.bidQty)
						changed(ca, sy.view.askQty, nv.askQty)
					}
					for p := range cb {
						s.bids[p] = struct{}{}
					}
					for p := range ca {
						s.asks[p] = struct{}{}
					}
				}
				sy.view = nv
			}
			if sy.nBook > 0 {
				st.bookTickerLocked(sy, pb, false)
			}
		}
		sy.pending = nil
		if sy.nBook > 0 {
			// New subscribers get the current one.
			st.bookTickerLocked(sy, pendingBook{sy.seq, sy.bids, sy.asks}, true)
		}
	}
}

// bookTickerLocked sends the book ticker of a book to the symbol's book
// ticker streams where it changed, and to their new subscribers (only to
// those with freshOnly).
func (st *Streams) bookTickerLocked(sy *symStreams, pb pendingBook, freshOnly bool) {
	var payload []byte
	var key string
	for s := range sy.streams {
		if s.spec.kind != skBookTicker || (freshOnly && !s.hasFresh()) {
			continue
		}
		if payload == nil {
			payload = bookTickerOf(sy.pair, pb.seq, pb.bids, pb.asks)
			key = bookTickerKey(payload)
		}
		if key != s.last {
			s.last = key
			s.emit(payload, false)
		} else if s.hasFresh() {
			s.emit(payload, true)
		}
	}
}

// depthLocked sends the diff depth events and partial books due: the
// 100 ms streams on every tick, the others with slow.
func (st *Streams) depthLocked(now int64, slow bool) {
	for _, sy := range st.syms {
		for s := range sy.streams {
			if !s.spec.fast && !slow {
				continue
			}
			switch s.spec.kind {
			case skDiffDepth:
				if sy.view == nil || sy.view.seq <= s.lastU {
					continue
				}
				ev := wsDepthUpdate{Event: "depthUpdate", EventTime: now, Symbol: SymbolOf(sy.pair), First: s.lastU + 1,
					Last: sy.view.seq, Bids: diffLevels(sy.pair, s.bids, sy.view.bidQty, true),
					Asks: diffLevels(sy.pair, s.asks, sy.view.askQty, false)}
				s.lastU, s.bids, s.asks = sy.view.seq, map[string]struct{}{}, map[string]struct{}{}
				b, _ := json.Marshal(ev)
				s.emit(b, false)
			case skPartialDepth:
				b := partialDepth(sy.pair, sy.seq, sy.bids, sy.asks, s.spec.levels)
				if key := string(b); key != s.last {
					s.last = key
					s.emit(b, false)
				} else if s.hasFresh() {
					s.emit(b, true)
				}
			}
		}
	}
}

// periodic sends the tickers (every second) and the klines (with
// klines; a kline stream with a new subscriber every second), computed
// from market data outside the lock.
func (st *Streams) periodic(klines bool) {
	type job struct {
		s      *stream
		bucket int64
	}
	var jobs []job
	st.mu.Lock()
	for _, s := range st.streams {
		switch s.spec.kind {
		case skTicker, skMiniTicker, skAllTickers, skAllMini:
			jobs = append(jobs, job{s: s})
		case skKline:
			if klines || s.hasFresh() {
				jobs = append(jobs, job{s: s, bucket: s.bucket})
			}
		}
	}
	st.mu.Unlock()
	if len(jobs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	now := st.s.now()
	var open []markets.Pair
	for _, j := range jobs {
		sp := j.s.spec
		var events []periodicEvent
		var err error
		switch sp.kind {
		case skTicker, skMiniTicker:
			events, err = st.s.periodicEvents(ctx, []markets.Pair{sp.pair}, sp.kind == skMiniTicker, now.UnixMilli())
		case skAllTickers, skAllMini:
			if open == nil {
				for _, p := range st.s.mk.List() {
					if !p.Closed {
						open = append(open, p)
					}
				}
			}
			events, err = st.s.periodicEvents(ctx, open, sp.kind == skAllMini, now.UnixMilli())
		case skKline:
			events, err = st.s.klineEvents(ctx, sp, j.bucket, now)
		}
		if err != nil {
			st.s.log.Warn().Err(err).Str("stream", sp.name).Msg("binance: stream update failed")
			continue
		}
		st.mu.Lock()
		if st.streams[sp.name] == j.s {
			j.s.deliver(events, now)
		}
		st.mu.Unlock()
	}
}

// klineEvents are a kline stream's events due at now: the last candle
// sent, closed, when its bucket has ended, then the current one.
func (s *Server) klineEvents(ctx context.Context, sp streamSpec, last int64, now time.Time) ([]periodicEvent, error) {
	var out []periodicEvent
	cur := sp.iv.period.BucketStart(now)
	if last != 0 && last < cur {
		b, key, ok, err := s.klineEvent(ctx, sp, last, true, now)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, periodicEvent{payload: b, key: key, closed: true})
		}
	}
	b, key, ok, err := s.klineEvent(ctx, sp, cur, false, now)
	if err != nil {
		return nil, err
	}
	if ok {
		out = append(out, periodicEvent{payload: b, key: key})
	}
	return out, nil
}

// deliver sends a periodic stream's events: a symbol's ticker or the
// current kline when it changed (to new subscribers anyway), a closed
// kline always; the all-market tickers as one array of those that
// changed (every one to new subscribers).
func (s *stream) deliver(events []periodicEvent, now time.Time) {
	switch s.spec.kind {
	case skAllTickers, skAllMini:
		if s.lastBy == nil {
			s.lastBy = map[string]string{}
		}
		var all, changedOnes []json.RawMessage
		for _, ev := range events {
			all = append(all, ev.payload)
			if s.lastBy[ev.symbol] != ev.key {
				s.lastBy[ev.symbol] = ev.key
				changedOnes = append(changedOnes, ev.payload)
			}
		}
		if len(changedOnes) > 0 {
			b, _ := json.Marshal(changedOnes)
			s.emit(b, false)
		}
		if s.hasFresh() && len(all) > 0 {
			b, _ := json.Marshal(all)
			s.emit(b, true)
		}
	default:
		for _, ev := range events {
			switch {
			case ev.closed:
				s.emit(ev.payload, false)
			case ev.key != s.last:
				s.last = ev.key
				s.emit(ev.payload, false)
			case s.hasFresh():
				s.emit(ev.payload, true)
			}
		}
		if s.spec.kind == skKline {
			s.bucket = s.spec.iv.period.BucketStart(now)
		}
	}
}
