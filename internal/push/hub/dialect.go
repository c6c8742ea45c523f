package hub

import (
	"context"
	"net/http"
)

// A Dialect is a second frame language the hub's connections may speak
// besides the web app's (Binance's market streams: internal/binance). It
// keeps its own subscriptions and sends its own messages; the hub lends
// it the connection (its send buffer, writer, keep-alive pings, slow
// consumer drop and shutdown).
//
// On /ws (SetDialect) each text frame the dialect claims goes to the
// connection's session, opened by the first one; every other frame is the
// web app's, answered as before. ServeSession serves connections that
// speak the dialect only.
type Dialect interface {
	// Claims reports whether a text frame of a /ws connection is the
	// dialect's. It sees frames up to MaxDialectFrameLen bytes; the web
	// app's are at most push.MaxFrameLen.
	Claims(frame []byte) bool
	// Open starts the dialect on a connection; send hands a message to the
	// connection's writer without waiting (a full buffer drops the
	// connection as a slow consumer) and reports false once the connection
	// is gone. send may be called from any goroutine, and after the
	// connection ended (it then does nothing).
	Open(send func(msg []byte) bool) Session
}

// Session is a Dialect's state on one connection.
type Session interface {
	// Frame handles a frame of the dialect, on the connection's read loop
	// (the next frame is read when it returns).
	Frame(ctx context.Context, frame []byte)
	// Close is called once when the connection has ended.
	Close()
}

// MaxDialectFrameLen bounds the frames of a Dialect (Binance takes
// subscriptions to up to 1024 streams in one frame). On a connection that
// speaks the dialect only, a longer frame closes the connection (1009).
const MaxDialectFrameLen = 64 << 10

// SetDialect makes /ws hand the frames d claims to d (nil: none). Call it
// before serving: connections already open keep what they had.
func (h *Hub) SetDialect(d Dialect) {
	if d == nil {
		h.dialect.Store(nil)
		return
	}
	h.dialect.Store(&d)
}

// ServeSession upgrades the request to a WebSocket whose every frame is a
// dialect's: open is called before the upgrade is answered (so that a
// client that sees the connection open finds what the session set up from
// the request in place; what it sends meanwhile waits in the connection's
// buffer), and its session gets each frame (text or binary) until the
// connection ends, then Close (also when the upgrade fails). The
// connection is otherwise one of the hub's (counted by Connections, pinged,
// dropped when slow, closed by Close); it subscribes to no hub channel.
func (h *Hub) ServeSession(w http.ResponseWriter, r *http.Request, open func(send func(msg []byte) bool) Session) {
	h.serveConn(w, r, open)
}

// sender is what a session sends with.
func (h *Hub) sender(c *conn) func([]byte) bool {
	return func(m []byte) bool { return h.enqueue(c, m) }
}
