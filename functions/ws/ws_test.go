package main

import (
	"context"
	"io"
	"strings"
	"tenger/internal/push/apigw/apigwtest"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/push/apigw"
)

// TestConnectSubscribeDisconnectFromSamples runs the recorded $connect,
// $default (sub frame) and $disconnect events through the ws function's
// handler on DynamoDB Local: the subscription reaches publishers while the
// connection lives and is gone after $disconnect.
func TestConnectSubscribeDisconnectFromSamples(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "ws-fn")
	api := apigwtest.New()
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(connections{fanout: fan})

	for _, name := range []string{"ws_connect.json", "ws_default_sub.json"} {
		if resp, err := h(ctx, fntest.WebSocketEvent(t, name)); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %+v %v", name, resp, err)
		}
	}
	const conn, channel = "Ab1CdEfGhIjKlM=", "market_btcusdt_ticker"
	if got := strings.Join(api.Posts[conn], ""); !strings.Contains(got, `"event_rep":"sub"`) || !strings.Contains(got, `"status":"ok"`) {
		t.Fatalf("sub reply = %q", got)
	}
	n, err := fan.Publish(ctx, channel, []byte(`{"channel":"market_btcusdt_ticker","tick":{"close":"67250.5"}}`))
	if err != nil || n != 1 {
		t.Fatalf("publish while connected: %d %v", n, err)
	}

	if resp, err := h(ctx, fntest.WebSocketEvent(t, "ws_disconnect.json")); err != nil || resp.StatusCode != 200 {
		t.Fatalf("disconnect: %+v %v", resp, err)
	}
	if n, err := fan.Publish(ctx, channel, []byte(`{}`)); err != nil || n != 0 {
		t.Errorf("publish after disconnect reached %d connections (%v)", n, err)
	}

	// A malformed frame gets an error reply, not a failed invocation.
	bad := fntest.WebSocketEvent(t, "ws_default_sub.json")
	bad.RequestContext.ConnectionID = "Zz9YyXxWwVv="
	if _, err := h(ctx, fntest.WebSocketEvent(t, "ws_connect.json")); err != nil {
		t.Fatal(err)
	}
	bad.Body = `{"event":`
	if resp, _ := h(ctx, bad); resp.StatusCode != 200 {
		t.Errorf("malformed frame: status %d", resp.StatusCode)
	}
}
