package hub

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenger/internal/push"
)

// echoDialect claims frames starting with {"x" and answers each with
// "echo:" and the frame; it counts sessions opened and closed and keeps
// their senders.
type echoDialect struct {
	mu      sync.Mutex
	opened  int
	closed  int
	senders []func([]byte) bool
}

func (d *echoDialect) Claims(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"x"`)) }

func (d *echoDialect) Open(send func([]byte) bool) Session {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opened++
	d.senders = append(d.senders, send)
	return &echoSession{d: d, send: send}
}

func (d *echoDialect) counts() (opened, closed int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.opened, d.closed
}

type echoSession struct {
	d    *echoDialect
	send func([]byte) bool
}

func (s *echoSession) Frame(_ context.Context, b []byte) {
	s.send(append([]byte("echo:"), b...))
}

func (s *echoSession) Close() {
	s.d.mu.Lock()
	s.d.closed++
	s.d.mu.Unlock()
}

// waitCounts polls the dialect's counts until they are as wanted.
func (d *echoDialect) waitCounts(t *testing.T, opened, closed int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		o, c := d.counts()
		if o == opened && c == closed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sessions opened %d closed %d, want %d and %d", o, c, opened, closed)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func mustNext(t *testing.T, c *wsClient) string {
	t.Helper()
	m, ok := c.Next(t, 5*time.Second)
	if !ok {
		t.Fatal("no message within 5 s")
	}
	return string(m)
}

// TestDialectOnWS: on /ws the frames a dialect claims go to one session
// per connection, opened by the first of them and closed with the
// connection; the web app's frames are answered as before; a claimed
// frame may be longer than the web app's limit, up to the dialect's.
func TestDialectOnWS(t *testing.T) {
	d := &echoDialect{}
	ts := newServer(t, Options{})
	ts.hub.SetDialect(d)
	c := ts.connect(t)
	c.Send(t, []byte(`{"ping":1}`))
	if m := mustNext(t, c); m != `{"pong":1}` {
		t.Fatalf("pong: %s", m)
	}
	if o, _ := d.counts(); o != 0 {
		t.Fatal("a session opened without a frame of the dialect")
	}
	for _, f := range []string{`{"x":1}`, `{"x":2}`} {
		c.Send(t, []byte(f))
		if m := mustNext(t, c); m != "echo:"+f {
			t.Fatalf("%s: %s", f, m)
		}
	}
	long := `{"x":"` + strings.Repeat("a", push.MaxFrameLen) + `"}`
	c.Send(t, []byte(long))
	if m := mustNext(t, c); m != "echo:"+long {
		t.Fatalf("long claimed frame: %.80s", m)
	}
	// The web app's limit holds for its frames, the dialect's for its own.
	for _, f := range []string{`{"ping":"` + strings.Repeat("a", push.MaxFrameLen) + `"}`,
		`{"x":"` + strings.Repeat("a", MaxDialectFrameLen) + `"}`} {
		c.Send(t, []byte(f))
		if m := mustNext(t, c); !strings.Contains(m, "frame longer than") {
			t.Fatalf("frame of %d bytes: %.80s", len(f), m)
		}
	}
	c.Send(t, []byte(`{"event":"sub","params":{"channel":"market_x"}}`))
	if m := mustNext(t, c); !strings.Contains(m, `"status":"ok"`) {
		t.Fatalf("sub: %s", m)
	}
	if n, err := ts.hub.Publish(context.Background(), "market_x", []byte(`{"tick":1}`)); err != nil || n != 1 {
		t.Fatalf("publish: %d %v", n, err)
	}
	if m := mustNext(t, c); m != `{"tick":1}` {
		t.Fatalf("published: %s", m)
	}
	d.waitCounts(t, 1, 0)
	if err := ts.hub.Disconnect(context.Background(), c.id); err != nil {
		t.Fatal(err)
	}
	d.waitCounts(t, 1, 1)
	// Its sender does nothing once the connection is gone.
	if d.senders[0]([]byte("late")) {
		t.Fatal("send to a closed connection reported true")
	}
}

// TestServeSession: a connection of the dialect only hands it every
// frame, is counted and closed by the hub, and ends when a frame is over
// the dialect's limit.
func TestServeSession(t *testing.T) {
	d := &echoDialect{}
	h := New(Options{})
	mux := http.NewServeMux()
	mux.HandleFunc("/only", func(w http.ResponseWriter, r *http.Request) {
		h.ServeSession(w, r, func(send func([]byte) bool) Session {
			send([]byte("hello"))
			return d.Open(send)
		})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	dial := func() *websocket.Conn {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/only", nil)
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		t.Cleanup(func() { _ = ws.CloseNow() })
		return ws
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	read := func(ws *websocket.Conn) string {
		t.Helper()
		_, m, err := ws.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return string(m)
	}
	ws := dial()
	if m := read(ws); m != "hello" {
		t.Fatalf("first message %q", m)
	}
	// Every frame is the session's: the web app's ping, a binary one.
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"ping":1}`)); err != nil {
		t.Fatal(err)
	}
	if m := read(ws); m != `echo:{"ping":1}` {
		t.Fatalf("ping: %s", m)
	}
	if err := ws.Write(ctx, websocket.MessageBinary, []byte("bin")); err != nil {
		t.Fatal(err)
	}
	if m := read(ws); m != "echo:bin" {
		t.Fatalf("binary: %s", m)
	}
	if n := h.Connections(); n != 1 {
		t.Fatalf("connections %d", n)
	}
	// Over the dialect's limit: closed with 1009.
	if err := ws.Write(ctx, websocket.MessageText, bytes.Repeat([]byte("a"), MaxDialectFrameLen+1)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Read(ctx); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("after a frame too long: %v", err)
	}
	d.waitCounts(t, 1, 1)
	// The hub's shutdown closes them too.
	ws2 := dial()
	if m := read(ws2); m != "hello" {
		t.Fatalf("first message %q", m)
	}
	ended := make(chan error, 1)
	go func() { // the close handshake needs a reader
		_, _, err := ws2.Read(ctx)
		ended <- err
	}()
	cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer ccancel()
	if err := h.Close(cctx); err != nil {
		t.Fatal(err)
	}
	if err := <-ended; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("after Close: %v", err)
	}
	d.waitCounts(t, 2, 2)
}
