// Package hub is the in-process adapter of the push port for the local
// binary: it serves WebSocket clients at /ws (github.com/coder/websocket) and
// fans messages out to them from memory.
//
// Each connection has a bounded send buffer drained by its own writer
// goroutine, so a publisher never waits for a client: when a client is so
// slow that its buffer overflows, the hub drops it (close status 1008, "slow
// consumer") and the client reconnects and resubscribes, which is what a
// market-data client must do after any gap anyway.
//
// A second frame language may share the connections (SetDialect,
// ServeSession: Binance's market streams, internal/binance): the hub
// hands it the frames it claims and lends it the connection's send
// buffer, pings and shutdown (dialect.go).
package hub

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/rs/zerolog"

	"tenger/internal/push"
)

// Options configure a Hub.
type Options struct {
	// SendBuffer is how many messages may wait for one slow connection
	// before it is dropped; 0 means 256.
	SendBuffer int
	// WriteTimeout bounds one write to a client; 0 means 10 s.
	WriteTimeout time.Duration
	// PingInterval, when positive, makes the server ping every client that
	// often, so dead peers are noticed even when nothing is published.
	PingInterval time.Duration
	// Auth resolves auth frames; nil refuses them.
	Auth push.AuthFunc
	// Channels, when set, refuses subscriptions to channels it does not know.
	Channels push.ChannelFunc
	// Requests answers request frames (order entry); nil answers them with
	// an error reply.
	Requests push.RequestFunc
	// MaxInFlight bounds the requests of one connection that are running;
	// 0 means push.MaxInFlight.
	MaxInFlight int
	// OriginPatterns lists the browser origins allowed besides the page's
	// own host (coder/websocket's AcceptOptions.OriginPatterns).
	OriginPatterns []string
	// OnConnect and OnDisconnect, when set, are told about each connection
	// (after it is registered / after it is removed).
	OnConnect    func(connID string, r *http.Request)
	OnDisconnect func(connID string)
	// Logger receives connection-level warnings. Frames and tokens are never
	// logged.
	Logger zerolog.Logger
}

// Hub is the in-process push adapter and the /ws handler.
type Hub struct {
	opts Options
	// dialect is the second frame language of /ws (SetDialect).
	dialect atomic.Pointer[Dialect]

	mu     sync.RWMutex
	conns  map[string]*conn
	chans  map[string]map[*conn]struct{}
	users  map[string]map[*conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

var (
	_ push.Pusher  = (*Hub)(nil)
	_ http.Handler = (*Hub)(nil)
)

type conn struct {
	id   string
	ws   *websocket.Conn
	send chan []byte
	done chan struct{}
	once sync.Once
	code websocket.StatusCode
	why  string

	// Guarded by Hub.mu. session is the id of the session that bound the
	// connection to user.
	user, session string
	subs          map[string]struct{}

	// slots holds a token per request running (at most MaxInFlight);
	// requests counts their goroutines.
	slots    chan struct{}
	requests sync.WaitGroup

	// sess is the connection's session of a Dialect: opened with the
	// connection by ServeSession (only is then set: every frame is the
	// session's), or on /ws by the first frame the hub's dialect claims.
	// Only the read loop touches them.
	sess Session
	only bool
}

// New returns a hub.
func New(opts Options) *Hub {
	if opts.SendBuffer <= 0 {
		opts.SendBuffer = 256
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = push.MaxInFlight
	}
	return &Hub{
		opts:  opts,
		conns: map[string]*conn{},
		chans: map[string]map[*conn]struct{}{},
		users: map[string]map[*conn]struct{}{},
	}
}

func newConnID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ServeHTTP upgrades the request to a WebSocket and serves the connection
// until it closes.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serveConn(w, r, nil) }

// serveConn serves a connection; with open, every frame goes to the session
// open returns (ServeSession).
func (h *Hub) serveConn(w http.ResponseWriter, r *http.Request, open func(send func([]byte) bool) Session) {
	h.mu.RLock()
	closed := h.closed
	h.mu.RUnlock()
	if closed {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	c := &conn{
		id:    newConnID(),
		send:  make(chan []byte, h.opts.SendBuffer),
		done:  make(chan struct{}),
		subs:  map[string]struct{}{},
		slots: make(chan struct{}, h.opts.MaxInFlight),
	}
	if open != nil {
		// The session starts before the upgrade is answered, so that what
		// it takes from the request (the streams of the URL) is in place
		// when the client sees the connection open; what it sends waits
		// in the buffer for the writer.
		c.sess, c.only = open(h.sender(c)), true
	}
	endSession := func() {
		c.once.Do(func() { close(c.done) })
		if c.sess != nil {
			c.sess.Close()
		}
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: h.opts.OriginPatterns})
	if err != nil {
		endSession()
		return // Accept has answered the request already.
	}
	// Frames are bounded by readFrame, which drops a longer one without
	// closing the connection (the library's limit would close it).
	ws.SetReadLimit(-1)
	c.ws = ws
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		endSession()
		_ = ws.Close(websocket.StatusGoingAway, "server shutdown")
		return
	}
	h.conns[c.id] = c
	h.wg.Add(1)
	h.mu.Unlock()
	defer h.wg.Done()
	if h.opts.OnConnect != nil {
		h.opts.OnConnect(c.id, r)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		h.writeLoop(ctx, c)
	}()
	dialect := h.dialect.Load()
	limit := push.MaxFrameLen
	if c.only || dialect != nil {
		limit = MaxDialectFrameLen
	}
	for {
		typ, data, err := readFrame(ctx, ws, limit)
		if c.only {
			if errors.Is(err, errFrameTooLong) {
				h.drop(c, websocket.StatusMessageTooBig, "frame too long")
				break
			}
			if err != nil {
				break
			}
			c.sess.Frame(ctx, data)
			continue
		}
		claimed := err == nil && dialect != nil && typ == websocket.MessageText && (*dialect).Claims(data)
		if err == nil && !claimed && len(data) > push.MaxFrameLen {
			err = errFrameTooLong // longer than the web app's frames may be
		}
		if errors.Is(err, errFrameTooLong) {
			if !h.enqueue(c, push.ErrorReply(errFrameTooLong.Error())) {
				break
			}
			continue
		}
		if err != nil {
			if s := websocket.CloseStatus(err); s == -1 && !errors.Is(err, context.Canceled) {
				h.opts.Logger.Debug().Err(err).Str("conn", c.id).Msg("push: read failed")
			}
			break
		}
		if typ != websocket.MessageText {
			h.enqueue(c, push.ErrorReply("text frames only"))
			continue
		}
		if claimed {
			if c.sess == nil {
				c.sess = (*dialect).Open(h.sender(c))
			}
			c.sess.Frame(ctx, data)
			continue
		}
		f, perr := push.ParseFrame(data)
		if f.Kind == push.FrameRequest && h.opts.Requests != nil {
			if !h.request(ctx, c, push.RequestOf(f, perr)) {
				break
			}
			continue
		}
		reply, err := push.ApplyFrame(ctx, h, h.opts.Auth, h.opts.Channels, c.id, f, perr)
		if err != nil {
			break
		}
		if reply != nil && !h.enqueue(c, reply) {
			break
		}
	}
	h.drop(c, websocket.StatusNormalClosure, "")
	if c.sess != nil {
		c.sess.Close()
	}
	// Requests already running finish (their answers go nowhere once the
	// connection is gone), as an HTTP request whose client left would.
	c.requests.Wait()
	<-writerDone
}

// errFrameTooLong is the reply to a frame over push.MaxFrameLen.
var errFrameTooLong = fmt.Errorf("frame longer than %d bytes", push.MaxFrameLen)

// readFrame reads the next message, keeping at most limit bytes: a
// longer one is read to its end and dropped (errFrameTooLong), so it costs
// no memory and leaves the connection usable.
func readFrame(ctx context.Context, ws *websocket.Conn, limit int) (websocket.MessageType, []byte, error) {
	typ, r, err := ws.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return 0, nil, err
	}
	if len(b) > limit {
		if _, err := io.Copy(io.Discard, r); err != nil {
			return 0, nil, err
		}
		return typ, nil, errFrameTooLong
	}
	return typ, b, nil
}

// request starts a request frame of c: on its own goroutine, so a
// connection may have many in flight and each is answered when it ends,
// up to MaxInFlight running; one more is refused at once. The binding is
// the connection's when the frame arrives. It returns false when c is
// gone.
func (h *Hub) request(ctx context.Context, c *conn, r push.Request) bool {
	h.mu.RLock()
	r.UserID, r.SessionID = c.user, c.session
	h.mu.RUnlock()
	if r.Refused == nil {
		select {
		case c.slots <- struct{}{}:
		default:
			r.Refused = push.TooManyInFlight(h.opts.MaxInFlight)
		}
	}
	if r.Refused != nil {
		// Answered without running anything: at once, in order.
		return h.answer(c, h.serve(ctx, c, r))
	}
	c.requests.Add(1)
	go func() {
		defer c.requests.Done()
		answer := h.serve(ctx, c, r)
		// The slot is free before the answer leaves, so a client that
		// waits for answers is never refused.
		<-c.slots
		h.answer(c, answer)
	}()
	return true
}

func (h *Hub) serve(ctx context.Context, c *conn, r push.Request) []byte {
	answer, p := push.ServeRequest(ctx, h.opts.Requests, r)
	if p != nil {
		h.opts.Logger.Error().Str("conn", c.id).Str("method", r.Method).Str("panic", fmt.Sprint(p)).Msg("push: request panicked")
	}
	return answer
}

func (h *Hub) answer(c *conn, answer []byte) bool {
	if answer == nil {
		return true
	}
	return h.enqueue(c, answer)
}

func (h *Hub) writeLoop(ctx context.Context, c *conn) {
	var ping <-chan time.Time
	if h.opts.PingInterval > 0 {
		t := time.NewTicker(h.opts.PingInterval)
		defer t.Stop()
		ping = t.C
	}
	for {
		select {
		case m := <-c.send:
			wctx, cancel := context.WithTimeout(ctx, h.opts.WriteTimeout)
			err := c.ws.Write(wctx, websocket.MessageText, m)
			cancel()
			if err != nil {
				h.drop(c, websocket.StatusInternalError, "write failed")
				_ = c.ws.CloseNow()
				return
			}
		case <-ping:
			pctx, cancel := context.WithTimeout(ctx, h.opts.WriteTimeout)
			err := c.ws.Ping(pctx)
			cancel()
			if err != nil {
				h.drop(c, websocket.StatusGoingAway, "ping timeout")
				_ = c.ws.CloseNow()
				return
			}
		case <-c.done:
			// The close handshake needs the read loop, which is still
			// running; Close bounds its own wait.
			_ = c.ws.Close(c.code, c.why)
			return
		}
	}
}

// enqueue hands m to c's writer without waiting; a full buffer drops c.
func (h *Hub) enqueue(c *conn, m []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.send <- m:
		return true
	default:
		h.opts.Logger.Warn().Str("conn", c.id).Msg("push: dropping slow websocket client")
		h.drop(c, websocket.StatusPolicyViolation, "slow consumer")
		return false
	}
}

// drop removes c from the hub and tells its writer to close it.
func (h *Hub) drop(c *conn, code websocket.StatusCode, why string) {
	removed := false
	h.mu.Lock()
	if h.conns[c.id] == c {
		h.removeLocked(c)
		removed = true
	}
	h.mu.Unlock()
	c.once.Do(func() {
		c.code, c.why = code, why
		close(c.done)
	})
	if removed && h.opts.OnDisconnect != nil {
		h.opts.OnDisconnect(c.id)
	}
}

func (h *Hub) removeLocked(c *conn) {
	delete(h.conns, c.id)
	for ch := range c.subs {
		if set := h.chans[ch]; set != nil {
			delete(set, c)
			if len(set) == 0 {
				delete(h.chans, ch)
			}
		}
	}
	if c.user != "" {
		h.unbindLocked(c)
	}
}

func (h *Hub) unbindLocked(c *conn) {
	if set := h.users[c.user]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(h.users, c.user)
		}
	}
	c.user, c.session = "", ""
}

// Subscribe implements push.Pusher.
func (h *Hub) Subscribe(_ context.Context, connID, channel string) error {
	if err := push.ValidateChannel(channel); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[connID]
	if c == nil {
		return push.ErrGone
	}
	c.subs[channel] = struct{}{}
	set := h.chans[channel]
	if set == nil {
		set = map[*conn]struct{}{}
		h.chans[channel] = set
	}
	set[c] = struct{}{}
	return nil
}

// Unsubscribe implements push.Pusher.
func (h *Hub) Unsubscribe(_ context.Context, connID, channel string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[connID]
	if c == nil {
		return nil
	}
	delete(c.subs, channel)
	if set := h.chans[channel]; set != nil {
		delete(set, c)
		if len(set) == 0 {
			delete(h.chans, channel)
		}
	}
	return nil
}

// Bind implements push.Pusher.
func (h *Hub) Bind(_ context.Context, connID, userID, sessionID string) error {
	if err := push.ValidateID(userID); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	c := h.conns[connID]
	if c == nil {
		return push.ErrGone
	}
	if c.user != "" {
		h.unbindLocked(c)
	}
	c.user, c.session = userID, sessionID
	set := h.users[userID]
	if set == nil {
		set = map[*conn]struct{}{}
		h.users[userID] = set
	}
	set[c] = struct{}{}
	return nil
}

// Disconnect implements push.Pusher: the client gets a normal close.
func (h *Hub) Disconnect(_ context.Context, connID string) error {
	h.mu.RLock()
	c := h.conns[connID]
	h.mu.RUnlock()
	if c != nil {
		h.drop(c, websocket.StatusNormalClosure, "disconnected")
	}
	return nil
}

// DisconnectUser implements push.Pusher: every connection bound to the
// user by an ended session is closed with status 1008 and the reason
// "session ended", which tells a client apart from a normal close that its
// token no longer holds.
func (h *Hub) DisconnectUser(_ context.Context, userID string, ended func(sessionID string) bool) error {
	if push.ValidateID(userID) != nil {
		return nil
	}
	h.mu.RLock()
	cs := make([]*conn, 0, len(h.users[userID]))
	for c := range h.users[userID] {
		if ended == nil || ended(c.session) {
			cs = append(cs, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range cs {
		h.drop(c, websocket.StatusPolicyViolation, "session ended")
	}
	return nil
}

// SendTo implements push.Pusher. msg must not be modified afterwards.
func (h *Hub) SendTo(_ context.Context, connID string, msg []byte) error {
	h.mu.RLock()
	c := h.conns[connID]
	h.mu.RUnlock()
	if c == nil || !h.enqueue(c, msg) {
		return push.ErrGone
	}
	return nil
}

// Publish implements push.Pusher. msg is shared by every recipient and must
// not be modified afterwards.
func (h *Hub) Publish(_ context.Context, channel string, msg []byte) (int, error) {
	if err := push.ValidateChannel(channel); err != nil {
		return 0, err
	}
	return h.fanout(func() map[*conn]struct{} { return h.chans[channel] }, msg)
}

// PublishUser implements push.Pusher.
func (h *Hub) PublishUser(_ context.Context, userID string, msg []byte) (int, error) {
	if err := push.ValidateID(userID); err != nil {
		return 0, err
	}
	return h.fanout(func() map[*conn]struct{} { return h.users[userID] }, msg)
}

func (h *Hub) fanout(set func() map[*conn]struct{}, msg []byte) (int, error) {
	var slow []*conn
	n := 0
	h.mu.RLock()
	if h.closed {
		h.mu.RUnlock()
		return 0, push.ErrClosed
	}
	for c := range set() {
		select {
		case c.send <- msg:
			n++
		default:
			slow = append(slow, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range slow {
		h.opts.Logger.Warn().Str("conn", c.id).Msg("push: dropping slow websocket client")
		h.drop(c, websocket.StatusPolicyViolation, "slow consumer")
	}
	return n, nil
}

// Connections returns how many clients are connected.
func (h *Hub) Connections() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.conns)
}

// BoundUsers returns how many users have at least one connection bound to
// them (by an auth frame): when there are none, private updates have no
// recipient and their producer may skip them.
func (h *Hub) BoundUsers() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.users)
}

// Close refuses new clients, closes every connection with status 1001
// (going away) and waits, at most until ctx ends, for their handlers.
func (h *Hub) Close(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	conns := make([]*conn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		h.drop(c, websocket.StatusGoingAway, "server shutdown")
	}
	done := make(chan struct{})
	go func() {
		h.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
