package hub

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenger/internal/push"
	"tenger/internal/push/pushtest"
)

// wsClient is a real WebSocket client; a goroutine reads into a channel so
// tests can wait with a timeout without closing the connection.
type wsClient struct {
	id   string
	ws   *websocket.Conn
	msgs chan []byte
	err  chan error
}

func (c *wsClient) ID() string { return c.id }

func (c *wsClient) Send(t *testing.T, frame []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, frame); err != nil {
		t.Fatalf("client write: %v", err)
	}
}

func (c *wsClient) Next(t *testing.T, timeout time.Duration) ([]byte, bool) {
	select {
	case m := <-c.msgs:
		return m, true
	case <-time.After(timeout):
		return nil, false
	}
}

func (c *wsClient) Vanish(t *testing.T) { _ = c.ws.CloseNow() }

// closeErr waits for the connection to end and returns the read error.
func (c *wsClient) closeErr(t *testing.T) error {
	t.Helper()
	for {
		select {
		case <-c.msgs:
		case err := <-c.err:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("connection was not closed")
			return nil
		}
	}
}

type testServer struct {
	hub *Hub
	srv *httptest.Server
	ids chan string
}

func newServer(t *testing.T, opts Options) *testServer {
	ts := &testServer{ids: make(chan string, 64)}
	opts.OnConnect = func(id string, _ *http.Request) { ts.ids <- id }
	ts.hub = New(opts)
	mux := http.NewServeMux()
	mux.Handle("/ws", ts.hub)
	ts.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ts.hub.Close(ctx)
		ts.srv.Close()
	})
	return ts
}

func (ts *testServer) connect(t *testing.T) *wsClient { return ts.dial(t, true) }

// dial connects a client; with read false nobody reads from the socket, so
// the server's writes back up as with a stalled client.
func (ts *testServer) dial(t *testing.T, read bool) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.srv.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 20)
	c := &wsClient{ws: ws, msgs: make(chan []byte, 1024), err: make(chan error, 1)}
	select {
	case c.id = <-ts.ids:
	case <-time.After(5 * time.Second):
		t.Fatal("server did not register the connection")
	}
	go func() {
		if !read {
			return
		}
		for {
			_, m, err := ws.Read(context.Background())
			if err != nil {
				c.err <- err
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { _ = ws.CloseNow() })
	return c
}

func TestContract(t *testing.T) {
	pushtest.Run(t, pushtest.Harness{
		New: func(t *testing.T, auth push.AuthFunc) pushtest.Env {
			ts := newServer(t, Options{Auth: auth})
			return pushtest.Env{Pusher: ts.hub, Connect: func(t *testing.T) pushtest.Client { return ts.connect(t) }}
		},
		Quiet: 100 * time.Millisecond,
	})
}

// TestSlowClientDoesNotBlockPublishers: a client that never reads is
// dropped once its buffer overflows, while publishing stays fast and a
// healthy client receives everything.
func TestSlowClientDoesNotBlockPublishers(t *testing.T) {
	ts := newServer(t, Options{SendBuffer: 32})
	slow := ts.dial(t, false)
	fast := ts.connect(t)
	ctx := context.Background()
	for _, c := range []*wsClient{slow, fast} {
		if err := ts.hub.Subscribe(ctx, c.id, "market_flood"); err != nil {
			t.Fatal(err)
		}
	}
	// Nobody reads the slow client's socket: the TCP buffers fill up, its
	// writer blocks, and its send buffer overflows. The healthy client is
	// served in lockstep (each message received before the next publish), so
	// only the stalled one can overflow, however loaded the machine is.
	big := []byte(`{"tick":"` + strings.Repeat("x", 64<<10) + `"}`)
	const n = 400
	var publishing, slowest time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		if _, err := ts.hub.Publish(ctx, "market_flood", big); err != nil {
			t.Fatal(err)
		}
		d := time.Since(start)
		publishing += d
		slowest = max(slowest, d)
		if _, ok := fast.Next(t, 10*time.Second); !ok {
			t.Fatalf("healthy client stopped receiving at message %d", i)
		}
	}
	// A publisher that waited for the stalled client would sit in its
	// 10-second write timeout; non-blocking hand-off takes microseconds.
	if slowest > time.Second {
		t.Fatalf("one publish took %v (all %d took %v): a slow client blocked the publisher", slowest, n, publishing)
	}
	deadline := time.Now().Add(5 * time.Second)
	for ts.hub.Connections() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("slow client was not dropped (%d connections)", ts.hub.Connections())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := ts.hub.SendTo(ctx, slow.id, []byte(`{}`)); !errors.Is(err, push.ErrGone) {
		t.Fatalf("SendTo the dropped client: %v", err)
	}
	if err := ts.hub.SendTo(ctx, fast.id, []byte(`{"still":"here"}`)); err != nil {
		t.Fatalf("healthy client was dropped too: %v", err)
	}
}

func TestShutdownClosesClients(t *testing.T) {
	ts := newServer(t, Options{})
	a := ts.connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.hub.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if s := websocket.CloseStatus(a.closeErr(t)); s != websocket.StatusGoingAway {
		t.Fatalf("close status %v, want going away", s)
	}
	if _, err := ts.hub.Publish(context.Background(), "market_x", []byte(`{}`)); !errors.Is(err, push.ErrClosed) {
		t.Fatalf("publish after close: %v", err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer dcancel()
	if _, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(ts.srv.URL, "http")+"/ws", nil); err == nil {
		t.Fatal("dial after close succeeded")
	}
}

func TestDisconnectClosesNormally(t *testing.T) {
	ts := newServer(t, Options{})
	a := ts.connect(t)
	if err := ts.hub.Disconnect(context.Background(), a.id); err != nil {
		t.Fatal(err)
	}
	if s := websocket.CloseStatus(a.closeErr(t)); s != websocket.StatusNormalClosure {
		t.Fatalf("close status %v, want normal closure", s)
	}
}

// TestDisconnectUserSaysWhy: the closed connections of a revoked session
// get status 1008 and the reason "session ended", and the user no longer
// counts as bound.
func TestDisconnectUserSaysWhy(t *testing.T) {
	ts := newServer(t, Options{})
	a := ts.connect(t)
	if err := ts.hub.Bind(context.Background(), a.id, "ua", ""); err != nil {
		t.Fatal(err)
	}
	if err := ts.hub.DisconnectUser(context.Background(), "ua", nil); err != nil {
		t.Fatal(err)
	}
	err := a.closeErr(t)
	var ce websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || ce.Reason != "session ended" {
		t.Fatalf("close error %v, want 1008 session ended", err)
	}
	if n := ts.hub.BoundUsers(); n != 0 {
		t.Fatalf("bound users after DisconnectUser = %d", n)
	}
}

// TestBoundUsers counts users with a bound connection, not connections.
func TestBoundUsers(t *testing.T) {
	ts := newServer(t, Options{})
	ctx := context.Background()
	a1, a2, b := ts.connect(t), ts.connect(t), ts.connect(t)
	if n := ts.hub.BoundUsers(); n != 0 {
		t.Fatalf("bound users before any auth = %d", n)
	}
	for _, x := range []struct {
		c *wsClient
		u string
	}{{a1, "ua"}, {a2, "ua"}, {b, "ub"}} {
		if err := ts.hub.Bind(ctx, x.c.id, x.u, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n := ts.hub.BoundUsers(); n != 2 {
		t.Fatalf("bound users = %d, want 2", n)
	}
	for _, c := range []*wsClient{a1, a2} {
		if err := ts.hub.Disconnect(ctx, c.id); err != nil {
			t.Fatal(err)
		}
	}
	if n := ts.hub.BoundUsers(); n != 1 {
		t.Fatalf("bound users after ua left = %d, want 1", n)
	}
}

// tenger serve bounds how long reading a request may take; a socket lives
// on after its upgrade request, past that bound.
func TestSocketOutlivesTheRequestReadTimeout(t *testing.T) {
	hub := New(Options{})
	srv := httptest.NewUnstartedServer(hub)
	srv.Config.ReadTimeout = 200 * time.Millisecond
	srv.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hub.Close(ctx)
		srv.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	time.Sleep(600 * time.Millisecond)
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"ping":7}`)); err != nil {
		t.Fatalf("write after the read timeout: %v", err)
	}
	_, m, err := ws.Read(ctx)
	if err != nil || string(m) != `{"pong":7}` {
		t.Fatalf("after the read timeout: %q %v", m, err)
	}
}
