package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/functions/fntest"
	"tenger/internal/apikey"
	"tenger/internal/awslambda"
	"tenger/internal/binance"
	"tenger/internal/binance/wsstreamsaws"
	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/push/apigw"
	"tenger/internal/push/apigw/apigwtest"
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

// TestBinanceStreamsFromSamples: a bot speaking Binance's market stream
// dialect on the web app's WebSocket API. $connect with ?streams= and
// combined=true subscribes it to those streams' combined channels (a name
// that is no stream is ignored), a SUBSCRIBE frame adds one and is
// answered as Binance answers, LIST_SUBSCRIPTIONS lists them in order, and
// the web app's frames still work on the same connection.
func TestBinanceStreamsFromSamples(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "ws-binance")
	api := apigwtest.New()
	fan := apigw.New(st, api, apigw.Options{Logger: zerolog.Nop()})
	c := connections{fanout: fan, st: st, now: time.Now,
		binance: binance.New(binance.Options{Markets: markets.Defaults(), Log: zerolog.Nop()})}
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(c)

	for _, name := range []string{"ws_connect_binance_streams.json", "ws_default_binance_subscribe.json"} {
		if resp, err := h(ctx, fntest.WebSocketEvent(t, name)); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %+v %v", name, resp, err)
		}
	}
	const conn = "Bn2CdEfGhIjKlM="
	if got := strings.Join(api.Posts[conn], "\n"); got != `{"result":null,"id":1}` {
		t.Fatalf("subscribe answer = %q", got)
	}
	for _, ch := range []string{"binance+:btcusdt@trade", "binance+:btcusdt@depth@100ms", "binance+:ethusdt@bookTicker"} {
		if n, err := fan.Publish(ctx, ch, []byte(`{}`)); err != nil || n != 1 {
			t.Errorf("%s reaches %d (%v)", ch, n, err)
		}
	}
	if n, _ := fan.Publish(ctx, "binance:btcusdt@trade", []byte(`{}`)); n != 0 {
		t.Errorf("the raw channel reaches %d", n)
	}
	frame := fntest.WebSocketEvent(t, "ws_default_binance_subscribe.json")
	frame.Body = `{"method":"LIST_SUBSCRIPTIONS","id":2}`
	if resp, err := h(ctx, frame); err != nil || resp.StatusCode != 200 {
		t.Fatalf("list: %+v %v", resp, err)
	}
	frame.Body = `{"event":"sub","params":{"channel":"market_btcusdt_ticker","cb_id":"btcusdt"}}`
	if resp, err := h(ctx, frame); err != nil || resp.StatusCode != 200 {
		t.Fatalf("web sub: %+v %v", resp, err)
	}
	posts := api.Posts[conn]
	// (the three publishes above are among the posts)
	if len(posts) != 6 || posts[4] != `{"result":["btcusdt@trade","btcusdt@depth@100ms","ethusdt@bookTicker"],"id":2}` ||
		!strings.Contains(posts[5], `"event_rep":"sub"`) {
		t.Fatalf("answers = %q", posts)
	}
}

// TestListenKeyStreamAtConnect: ?streams=<listenKey> at $connect (the
// edge's mapping of Binance's /ws/<listenKey>) makes the connection one of
// the user's listen-key streams; a listen key that is not live refuses the
// upgrade (403) and records nothing.
func TestListenKeyStreamAtConnect(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	st := fntest.Table(t, "ws-listenkey")
	fan := apigw.New(st, apigwtest.New(), apigw.Options{Logger: zerolog.Nop()})
	c := connections{fanout: fan, st: st, now: time.Now,
		binance: binance.New(binance.Options{Markets: markets.Defaults(), Log: zerolog.Nop()})}
	h := awslambda.NewRuntime("ws", io.Discard).WebSocket(c)
	keys := fntest.APIKeys(t, st, bytes.Repeat([]byte{0x6c}, 32))
	k, err := keys.Create(ctx, "10000001", apikey.Input{Label: "bot", Permissions: []string{apikey.PermSpot}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := keys.Resolve(ctx, k.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := keys.OpenListenKey(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	connect := func(conn, streams string) int {
		t.Helper()
		ev := fntest.WebSocketEvent(t, "ws_connect_binance_streams.json")
		ev.RequestContext.ConnectionID = conn
		ev.QueryStringParameters = map[string]string{"streams": streams}
		resp, err := h(ctx, ev)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	if code := connect("Lk1CdEfGhIjKlM=", lk+"/btcusdt@trade"); code != 200 {
		t.Fatalf("connect with a live listen key: %d", code)
	}
	ls, err := wsstreamsaws.Listeners(ctx, st, "10000001", time.Now())
	if err != nil || len(ls) != 1 || ls[0].ConnID != "Lk1CdEfGhIjKlM=" || ls[0].ListenKey != lk || ls[0].Combined {
		t.Fatalf("listeners %+v %v", ls, err)
	}
	if n, _ := fan.Publish(ctx, "binance:btcusdt@trade", []byte(`{}`)); n != 1 {
		t.Errorf("the market stream beside the listen key reaches %d", n)
	}
	if err := keys.CloseListenKey(ctx, r, lk); err != nil {
		t.Fatal(err)
	}
	if code := connect("Lk2CdEfGhIjKlM=", lk); code != 403 {
		t.Fatalf("connect with a closed listen key: %d", code)
	}
	// The refused connection is not known: nothing can be subscribed on it.
	if err := fan.Subscribe(ctx, "Lk2CdEfGhIjKlM=", "market_btcusdt_ticker"); !errors.Is(err, push.ErrGone) {
		t.Errorf("the refused connection was recorded: %v", err)
	}
}
