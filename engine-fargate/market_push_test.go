package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi"
	"github.com/aws/aws-sdk-go-v2/service/apigatewaymanagementapi/types"
	"github.com/rs/zerolog"

	"tenger/internal/binance"
	"tenger/internal/binance/wsstreamsaws"
	"tenger/internal/push/apigw"
)

// mgmtRec is the API Gateway management API as the engine's publisher sees
// it: it records what is posted to each connection.
type mgmtRec struct {
	mu    sync.Mutex
	posts map[string][]string
	gone  map[string]bool
	wake  chan struct{}
}

func (m *mgmtRec) PostToConnection(_ context.Context, in *apigatewaymanagementapi.PostToConnectionInput, _ ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.PostToConnectionOutput, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone[*in.ConnectionId] {
		return nil, &types.GoneException{Message: new(string)}
	}
	m.posts[*in.ConnectionId] = append(m.posts[*in.ConnectionId], string(in.Data))
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return &apigatewaymanagementapi.PostToConnectionOutput{}, nil
}

func (m *mgmtRec) DeleteConnection(context.Context, *apigatewaymanagementapi.DeleteConnectionInput, ...func(*apigatewaymanagementapi.Options)) (*apigatewaymanagementapi.DeleteConnectionOutput, error) {
	return &apigatewaymanagementapi.DeleteConnectionOutput{}, nil
}

type marketMsg struct {
	Channel string          `json:"channel"`
	TS      int64           `json:"ts"`
	Data    json.RawMessage `json:"data"`
	Tick    json.RawMessage `json:"tick"`
}

func (m *mgmtRec) of(conn string) []marketMsg {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []marketMsg
	for _, p := range m.posts[conn] {
		// The engine gathers a connection's messages into one frame (a
		// JSON array) every platform.MarketPushWindow.
		var batch []marketMsg
		if json.Unmarshal([]byte(p), &batch) == nil {
			out = append(out, batch...)
			continue
		}
		var v marketMsg
		if json.Unmarshal([]byte(p), &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// TestMarketChannelsReachWebSocketClients wires the engine task as main
// does in AWS (the API Gateway adapter as the push port,
// UseAsyncMarketPush, the market data service as the engine's feed) on
// embedded ports, with orders from a function through the endpoint: a trade on
// btcusdt reaches a WebSocket connection subscribed to the pair's trade,
// depth and ticker channels; a connection subscribed to another pair sees
// only that pair, and one subscribed to nothing sees nothing. The futures
// price loop the task runs publishes BTCUSDT's mark on
// market_btcusdtperp_mark the same way.
func TestMarketChannelsReachWebSocketClients(t *testing.T) {
	w := newWorld(t)
	const seller, buyer = "10000001", "10000002"
	ctx := context.Background()

	api := &mgmtRec{posts: map[string][]string{}, gone: map[string]bool{}, wake: make(chan struct{}, 1)}
	fan := apigw.New(w.st, api, apigw.Options{Logger: zerolog.Nop()})
	for conn, channels := range map[string][]string{
		"btc-viewer":  {"market_btcusdt_trade_ticker", "market_btcusdt_depth_step0", "market_btcusdt_ticker"},
		"eth-viewer":  {"market_ethusdt_trade_ticker", "market_ethusdt_depth_step0"},
		"perp-viewer": {"market_btcusdtperp_mark"},
		"idle":        nil,
	} {
		if err := fan.OnConnect(ctx, conn); err != nil {
			t.Fatal(err)
		}
		for _, ch := range channels {
			if err := fan.Subscribe(ctx, conn, ch); err != nil {
				t.Fatal(err)
			}
		}
	}

	// A client speaking Binance's dialect on the same API: raw trades and
	// combined diff depth (published by the engine task from the
	// registry of subscribed channels).
	if err := fan.OnConnect(ctx, "binance-viewer"); err != nil {
		t.Fatal(err)
	}
	bsrv := binance.New(binance.Options{Markets: w.cat, Log: zerolog.Nop()})
	subs := wsstreamsaws.Open(w.st, fan, "binance-viewer", nil)
	for _, frame := range []string{`{"method":"SET_PROPERTY","params":["combined",true],"id":1}`,
		`{"method":"SUBSCRIBE","params":["btcusdt@trade","btcusdt@depth@100ms"],"id":2}`} {
		if a := string(bsrv.AnswerStreamFrame(ctx, subs, []byte(frame))); !strings.HasPrefix(a, `{"result":null,`) {
			t.Fatalf("%s: %s", frame, a)
		}
	}

	tk := w.task("task-a", fan)
	tk.waitRole(t, roleActive)
	fn := w.client()
	credit(t, fn, seller, "BTC", "1")
	credit(t, fn, buyer, "USDT", "10000")
	place(t, fn, seller, "SELL", "50000", "0.1")
	place(t, fn, seller, "SELL", "51000", "0.2")
	place(t, fn, buyer, "BUY", "50000", "0.1")

	seen := func() (trade, depth, ticker bool) {
		for _, m := range api.of("btc-viewer") {
			switch m.Channel {
			case "market_btcusdt_trade_ticker":
				trade = trade || (strings.Contains(string(m.Data), `"50000.00"`) && strings.Contains(string(m.Data), `"0.1"`))
			case "market_btcusdt_depth_step0":
				// The ask left at 51000 after the trade.
				depth = depth || strings.Contains(string(m.Tick), `"51000.00"`)
			case "market_btcusdt_ticker":
				ticker = ticker || strings.Contains(string(m.Tick), `"close":"50000.00"`)
			}
		}
		return
	}
	seenBinance := func() (trade, depth bool) {
		api.mu.Lock()
		defer api.mu.Unlock()
		for _, p := range api.posts["binance-viewer"] {
			trade = trade || strings.HasPrefix(p, `{"stream":"btcusdt@trade","data":{"e":"trade",`) && strings.Contains(p, `"p":"50000.00"`)
			depth = depth || strings.HasPrefix(p, `{"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate",`) && strings.Contains(p, `["51000.00",`)
		}
		return
	}
	seenMark := func() bool {
		for _, m := range api.of("perp-viewer") {
			var mk struct {
				Symbol, MarkPrice, IndexPrice string
				NextFundingTime, Time         int64
			}
			if m.Channel == "market_btcusdtperp_mark" && json.Unmarshal(m.Tick, &mk) == nil && mk.Symbol == "BTCUSDT" &&
				mk.MarkPrice != "" && mk.IndexPrice != "" && mk.NextFundingTime > 0 && mk.Time > 0 {
				return true
			}
		}
		return false
	}
	deadline := time.After(20 * time.Second)
	for {
		trade, depth, ticker := seen()
		btrade, bdepth := seenBinance()
		mark := seenMark()
		if trade && depth && ticker && btrade && bdepth && mark {
			break
		}
		select {
		case <-api.wake:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("btc viewer got trade %v, depth %v, ticker %v: %q; binance viewer trade %v, depth %v: %q; perp viewer mark %v: %q",
				trade, depth, ticker, api.posts["btc-viewer"], btrade, bdepth, api.posts["binance-viewer"], mark, api.posts["perp-viewer"])
		}
	}
	if err := tk.stop(); err != nil {
		t.Fatal(err)
	}
	// The ethusdt viewer may see its (empty) book, never btcusdt's data.
	for _, m := range api.of("eth-viewer") {
		if m.Channel != "market_ethusdt_depth_step0" || strings.Contains(string(m.Tick), "50000") {
			t.Errorf("the ethusdt viewer got %s %s", m.Channel, m.Tick)
		}
	}
	for _, m := range api.of("perp-viewer") {
		if m.Channel != "market_btcusdtperp_mark" {
			t.Errorf("the mark viewer got %s", m.Channel)
		}
	}
	if got := api.of("idle"); len(got) != 0 {
		t.Errorf("a connection without subscriptions got %d messages", len(got))
	}
	for _, m := range api.of("btc-viewer") {
		if !strings.HasPrefix(m.Channel, "market_btcusdt_") || m.TS == 0 {
			t.Errorf("btc viewer got %+v", m)
		}
	}
}
