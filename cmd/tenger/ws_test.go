package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestWebSocketMounted: /ws answers ping with pong and delivers a message
// published on a channel the client subscribed to.
func TestWebSocketMounted(t *testing.T) {
	l, h := testServer(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"ping":42}`)); err != nil {
		t.Fatal(err)
	}
	_, msg, err := c.Read(ctx)
	if err != nil || string(msg) != `{"pong":42}` {
		t.Fatalf("pong: %q %v", msg, err)
	}
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"event":"sub","params":{"channel":"market_btcusdt_ticker"}}`)); err != nil {
		t.Fatal(err)
	}
	// The subscription is registered asynchronously: publish until delivered.
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, err := l.Push.Publish(ctx, "market_btcusdt_ticker", []byte(`{"channel":"market_btcusdt_ticker","ts":1,"tick":{"close":"1"}}`))
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("subscription never registered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for {
		_, msg, err = c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(msg), `"tick":{"close":"1"}`) {
			return
		}
	}
}
