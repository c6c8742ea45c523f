package binance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenger/internal/marketdata"
	"tenger/internal/push/hub"
)

// wsEnv is an env served over HTTP with the market streams on a hub: /ws
// (the web app's endpoint with Binance's frames), /ws/<stream>, /stream
// and the REST API. Stream ticks are 2 ms (the 1000 ms streams 20 ms,
// klines 40 ms) so that tests run fast.
type wsEnv struct {
	*env
	hub     *hub.Hub
	streams *Streams
	http    *httptest.Server
}

func newWSEnv(t *testing.T) *wsEnv {
	t.Helper()
	e := newEnv(t, nil)
	h := hub.New(hub.Options{})
	st := e.srv.Streams(h)
	st.fast = 2 * time.Millisecond
	mux := http.NewServeMux()
	mux.Handle("/ws", h)
	for _, p := range st.Paths() {
		mux.Handle(p, st)
	}
	for _, p := range e.srv.Prefixes() {
		mux.Handle(p, e.srv)
	}
	w := &wsEnv{env: e, hub: h, streams: st, http: httptest.NewServer(mux)}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Close(ctx)
		w.http.Close()
		st.Close()
		w.waitIdle()
	})
	return w
}

// waitIdle waits until the streams have no subscriber and their loop
// has ended.
func (w *wsEnv) waitIdle() {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		w.streams.mu.Lock()
		n, running, done := len(w.streams.streams), w.streams.running, w.streams.done
		w.streams.mu.Unlock()
		if n == 0 {
			if running && done != nil {
				select {
				case <-done:
				case <-time.After(time.Until(deadline)):
					w.t.Fatal("stream loop did not end")
				}
			}
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%d streams still subscribed", n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// apply feeds market data and applies it.
func (w *wsEnv) apply() {
	w.t.Helper()
	if err := w.md.Sync(context.Background()); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wsEnv) book(bids, asks []marketdata.Level) {
	w.t.Helper()
	w.md.OnDepth("btcusdt", bids, asks, w.clock.Now())
	w.apply()
}

func lvl(p, q string) marketdata.Level { return marketdata.Level{Price: d(p), Qty: d(q)} }

// wsClient is a WebSocket client whose messages a goroutine reads into
// a channel.
type wsClient struct {
	t    *testing.T
	ws   *websocket.Conn
	msgs chan []byte
	err  chan error
	// held are messages read while waiting for others, oldest first.
	held [][]byte
}

// dial connects to path ("/ws", "/ws/btcusdt@trade", "/stream?streams=...").
func (w *wsEnv) dial(path string) *wsClient {
	w.t.Helper()
	return dialWS(w.t, w.http.URL, path, nil)
}

// dialWS connects to path on the test server at base (http://…), with
// header on the upgrade request.
func dialWS(t *testing.T, base, path string, header http.Header) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+path, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	ws.SetReadLimit(1 << 22)
	c := &wsClient{t: t, ws: ws, msgs: make(chan []byte, 1<<14), err: make(chan error, 1)}
	go func() {
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

func (c *wsClient) send(frame string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, []byte(frame)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next waits for the first message that match accepts and returns it;
// the others read meanwhile are held for later calls, in order.
func (c *wsClient) next(what string, match func(m []byte) bool) []byte {
	c.t.Helper()
	for i, m := range c.held {
		if match == nil || match(m) {
			c.held = append(c.held[:i:i], c.held[i+1:]...)
			return m
		}
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case m := <-c.msgs:
			if match == nil || match(m) {
				return m
			}
			c.held = append(c.held, m)
		case err := <-c.err:
			c.t.Fatalf("waiting for %s: connection ended: %v", what, err)
		case <-deadline:
			c.t.Fatalf("no %s within 5 s", what)
		}
	}
}

// nextWith is the next message containing sub.
func (c *wsClient) nextWith(sub string) []byte {
	c.t.Helper()
	return c.next(sub, func(m []byte) bool { return bytes.Contains(m, []byte(sub)) })
}

// answer is the answer to the request of id (a JSON value: 1, "a", null).
func (c *wsClient) answer(id string) string {
	c.t.Helper()
	m := c.next("the answer to "+id, func(m []byte) bool {
		var a struct {
			ID json.RawMessage `json:"id"`
		}
		return json.Unmarshal(m, &a) == nil && a.ID != nil && string(a.ID) == id &&
			(bytes.Contains(m, []byte(`"result"`)) || bytes.Contains(m, []byte(`"error"`)))
	})
	return string(m)
}

// request sends a frame and returns the answer to id.
func (c *wsClient) request(frame, id string) string {
	c.t.Helper()
	c.send(frame)
	return c.answer(id)
}

// closeErr waits for the connection to end.
func (c *wsClient) closeErr() error {
	c.t.Helper()
	for {
		select {
		case <-c.msgs:
		case err := <-c.err:
			return err
		case <-time.After(5 * time.Second):
			c.t.Fatal("connection was not closed")
		}
	}
}

// keys lists a JSON object's keys in order (nested objects' keys after
// their parent's, prefixed "k.").
func keys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var out []string
	var walk func(prefix string)
	walk = func(prefix string) {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if tok != json.Delim('{') {
			t.Fatalf("%s: not an object", b)
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			k := tok.(string)
			out = append(out, prefix+k)
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
				sub := json.NewDecoder(bytes.NewReader(raw))
				saved := dec
				dec = sub
				walk(prefix + k + ".")
				dec = saved
			}
		}
		if _, err := dec.Token(); err != nil && err != io.EOF {
			t.Fatal(err)
		}
	}
	walk("")
	return out
}

// restJSON is a REST answer decoded.
func (w *wsEnv) restJSON(target string, v any) {
	w.t.Helper()
	resp, err := http.Get(w.http.URL + target)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("%s: %d %s", target, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		w.t.Fatalf("%s: %s: %v", target, b, err)
	}
}

// getJSON GETs url and decodes a 200 answer (for goroutines that cannot
// fail the test themselves).
func getJSON(url string, v any) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%d %s", resp.StatusCode, b)
	}
	return json.Unmarshal(b, v)
}
