package main

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tenger/internal/push"
	"tenger/internal/push/hub"
)

// TestBenchWSClient drives the load loop's WebSocket client against
// coder/websocket (the library of the server's hub): the handshake, masked
// frames of every length encoding (the server refuses unmasked ones),
// several frames written at once, a ping answered while reading, and the
// server's close told apart from a failure.
func TestBenchWSClient(t *testing.T) {
	pinged := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws" {
			http.NotFound(w, r)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		c.SetReadLimit(1 << 20)
		ctx := r.Context()
		for {
			typ, b, err := c.Read(ctx)
			if err != nil {
				return
			}
			switch string(b) {
			case "ping me":
				// Ping waits for the pong, which the client sends from its
				// reader; the reader must be running, so answer first.
				go func() {
					pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
					defer cancel()
					pinged <- c.Ping(pctx)
					_ = c.Write(ctx, websocket.MessageText, []byte("pinged"))
				}()
				continue
			case "close":
				_ = c.Close(websocket.StatusPolicyViolation, "bye")
				return
			}
			if err := c.Write(ctx, typ, append([]byte("echo:"), b...)); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	host, err := wsAddr(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := dialWSClient(host, "/ws", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()

	// One write, three frames: 7-bit, 16-bit and 64-bit lengths.
	sizes := []int{5, 300, 70000}
	var buf []byte
	for _, n := range sizes {
		buf = c.appendText(buf, []byte(strings.Repeat("x", n-1)), []byte("y"))
	}
	if err := c.write(buf); err != nil {
		t.Fatal(err)
	}
	for _, n := range sizes {
		msg, err := c.read(5 * time.Second)
		if err != nil {
			t.Fatalf("reading the echo of %d bytes: %v", n, err)
		}
		want := "echo:" + strings.Repeat("x", n-1) + "y"
		if string(msg) != want {
			t.Fatalf("echo of %d bytes: got %d bytes %.20q...", n, len(msg), msg)
		}
	}
	if err := c.sendText([]byte("ping me")); err != nil {
		t.Fatal(err)
	}
	if msg, err := c.read(5 * time.Second); err != nil || string(msg) != "pinged" {
		t.Fatalf("after the ping: %q, %v", msg, err)
	}
	if err := <-pinged; err != nil {
		t.Fatalf("the server's ping got no pong: %v", err)
	}
	if err := c.sendText([]byte("close")); err != nil {
		t.Fatal(err)
	}
	_, err = c.read(5 * time.Second)
	var closed errWSClosed
	if !errors.As(err, &closed) || closed.code != int(websocket.StatusPolicyViolation) || closed.reason != "bye" {
		t.Fatalf("after the server's close: %v", err)
	}

	if _, err := wsAddr("https://127.0.0.1:1"); err == nil {
		t.Fatal("an https target was taken")
	}
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	if _, err := dialWSClient(strings.TrimPrefix(plain.URL, "http://"), "/ws", time.Second); err == nil {
		t.Fatal("a server without /ws completed the handshake")
	}
}

// TestBenchParseWSAnswer reads answer frames as the server writes them and
// tells them from pushed messages.
func TestBenchParseWSAnswer(t *testing.T) {
	for _, c := range []struct {
		msg         string
		id          int
		code, order string
		ok          bool
	}{
		{`{"id":17,"status":200,"code":"0","msg":"success","data":{"order_id":"123456"}}`, 17, "0", "123456", true},
		{`{"id":0,"status":200,"code":"0","msg":"success","data":{}}`, 0, "0", "", true},
		{`{"id":3,"status":200,"code":"14004","msg":"Insufficient balance","data":null}`, 3, "14004", "", true},
		{`{"id":null,"status":200,"code":"410","msg":"bad frame","data":null}`, 0, "", "", false},
		{`{"id":"c1","status":200,"code":"0","msg":"success","data":{}}`, 0, "", "", false},
		{`{"channel":"user_orders","ts":1,"data":{"order_id":"9","code":"0"}}`, 0, "", "", false},
		{`{"event_rep":"auth","status":"ok"}`, 0, "", "", false},
	} {
		id, code, order, ok := parseWSAnswer([]byte(c.msg))
		if id != c.id || code != c.code || order != c.order || ok != c.ok {
			t.Errorf("%s: %d %q %q %v", c.msg, id, code, order, ok)
		}
	}
	// The no-op server's answer is one the load loop reads.
	id, code, _, ok := parseWSAnswer(bytes.Join([][]byte{noopWSAnswerHead, []byte("42"), noopWSAnswerTail}, nil))
	if !ok || id != 42 || code != "0" {
		t.Fatalf("no-op answer: %d %q %v", id, code, ok)
	}
}

// TestBenchWSLoad runs the WebSocket load loop against the server's hub
// with a request function that answers after a random delay (so answers
// come back out of order) and refuses every tenth order: each request is
// answered once and counted by its id, the refusals with their code, and
// every socket signs in first. Against a hub that serves no requests (a
// server without order entry) the run fails fast instead of waiting for
// answers that never come.
func TestBenchWSLoad(t *testing.T) {
	var authed atomic.Int64
	var seen sync.Map
	h := hub.New(hub.Options{
		Auth: func(_ context.Context, token string) (string, string, bool) {
			if token != "tok" {
				return "", "", false
			}
			authed.Add(1)
			return "u1", "s1", true
		},
		Requests: func(_ context.Context, r push.Request) []byte {
			if _, dup := seen.LoadOrStore(string(r.ID), true); dup || r.Method != "order.place" || !strings.Contains(string(r.Params), `"side":"BUY"`) {
				t.Errorf("request %s %s %s", r.ID, r.Method, r.Params)
			}
			time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
			id, _ := strconv.Atoi(string(r.ID))
			if id%10 == 3 {
				return []byte(`{"id":` + string(r.ID) + `,"status":200,"code":"14004","msg":"Insufficient balance","data":null}`)
			}
			return []byte(`{"id":` + string(r.ID) + `,"status":200,"code":"0","msg":"success","data":{"order_id":"o` + string(r.ID) + `"}}`)
		},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	plan := loadPlan{base: srv.URL, n: 500, conc: 3, inflight: 8, timeout: 10 * time.Second}
	rep, last, err := sendOrdersWS(context.Background(), plan, func(int) string { return "tok" }, func(int) []byte { return []byte(`{"side":"BUY"}`) })
	if rep.Accepted != 450 || rep.Rejected != 50 || err == nil || !strings.Contains(err.Error(), "order.place: 14004 Insufficient balance") {
		t.Fatalf("report %+v, first error %v", rep, err)
	}
	if authed.Load() != 3 || !strings.HasPrefix(last.orderID, "o") || last.token != "tok" || rep.P50 <= 0 {
		t.Fatalf("%d sign-ins, last %+v, report %+v", authed.Load(), last, rep)
	}

	old := httptest.NewServer(hub.New(hub.Options{Auth: func(context.Context, string) (string, string, bool) { return "u1", "s1", true }}))
	defer old.Close()
	start := time.Now()
	plan.base = old.URL
	rep, _, err = sendOrdersWS(context.Background(), plan, func(int) string { return "tok" }, func(int) []byte { return []byte(`{}`) })
	if rep.Accepted != 0 || rep.Rejected != 500 || err == nil || !strings.Contains(err.Error(), "requests are not served") || time.Since(start) > 5*time.Second {
		t.Fatalf("against a hub without order entry: %+v, %v after %v", rep, err, time.Since(start))
	}
}
