package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/functions/fntest"
	"tenger/internal/awslambda"
	"tenger/internal/coins"
	"tenger/internal/httpapi"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/platform"
	"tenger/internal/refprice"
	"tenger/internal/store"
)

// marketEvent is the HTTP API's event for GET /fe-ex-api/market/<call>?<query>,
// the route the profile function serves the market data calls under.
func marketEvent(t *testing.T, call, query string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	ev := fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": ""})
	path := "/fe-ex-api/market/" + call
	ev.RawPath, ev.RequestContext.HTTP.Path, ev.RawQueryString = path, path, query
	ev.RouteKey, ev.RequestContext.RouteKey = "GET /fe-ex-api/market/{proxy+}", "GET /fe-ex-api/market/{proxy+}"
	ev.RequestContext.HTTP.Method = http.MethodGet
	ev.Body, ev.IsBase64Encoded = "", false
	delete(ev.Headers, "exchange-token")
	delete(ev.Headers, "content-type")
	return ev
}

// marketState is what the market calls of one container show of btcusdt.
type marketState struct {
	Depth      marketdata.DepthView
	Trades     []marketdata.TradeView
	Ticker     marketdata.Ticker
	Tickers    marketdata.Ticker
	Kline      marketdata.KlineView // the newest 1min candle
	DepthSteps [3]int               // levels per side at steps 0..2 (buys)
}

// TestMarketDataFollowsTheEngine runs the profile function as it runs in
// AWS (platform.ConfigFromEnv's market data refresh) next to the engine
// task's market data service (the writer) on the same DynamoDB table: a
// cold container shows the engine's depth, trades, ticker, tickers and
// klines at once, and a warm one follows new trades and a new book within
// the refresh time of the engine storing them. (Wallet valuations follow
// the reference prices instead: TestWalletRatesFollowTheReferencePrice.)
func TestMarketDataFollowsTheEngine(t *testing.T) {
	st := fntest.Table(t, "profile-md")
	ctx := context.Background()
	cat := markets.Defaults()
	var logs bytes.Buffer
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}

	// The engine task: the fed market data service and its loop.
	writer, err := marketdata.New(ctx, marketdata.Options{Store: fntest.EngineStore(st), Markets: cat, Log: zerolog.New(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	writer.Start()
	t.Cleanup(writer.Stop)
	lv := func(p, q string) marketdata.Level {
		return marketdata.Level{Price: decimal.RequireFromString(p), Qty: decimal.RequireFromString(q)}
	}
	trade := func(id, price string) marketdata.Trade {
		return marketdata.Trade{ID: id, Symbol: "btcusdt", Price: decimal.RequireFromString(price),
			Qty: decimal.RequireFromString("0.1"), TakerSide: "BUY", At: time.Now()}
	}
	// stored waits until the table holds the writer's newest trade and book.
	stored := func(tradeID, bid string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			r, err1 := st.Get(ctx, store.Key{PK: "md#recent", SK: "btcusdt"})
			dep, err2 := st.Get(ctx, store.Key{PK: "md#depth", SK: "btcusdt"})
			if err1 == nil && err2 == nil && strings.Contains(fmt.Sprint(r["trades"]), "id:"+tradeID+" ") &&
				strings.HasPrefix(dep.Str("b"), bid+",") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the engine did not store trade %s and bid %s: %v %v %v %v", tradeID, bid, r, err1, dep, err2)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	writer.OnTrades("btcusdt", []marketdata.Trade{trade("1", "50000")})
	writer.OnDepth("btcusdt", []marketdata.Level{lv("49990", "1")}, []marketdata.Level{lv("50010", "2")}, time.Now())
	stored("1", "49990")

	// A profile function container and a wallet function container start
	// now, configured as NewAWS configures them.
	cfg := platform.Config{Stage: "test", SecureCookies: true, MarketDataRefresh: platform.ConfigFromEnv().MarketDataRefresh}
	if cfg.MarketDataRefresh <= 0 || cfg.MarketDataRefresh > 2*time.Second {
		t.Fatalf("AWS market data refresh = %s", cfg.MarketDataRefresh)
	}
	deps := func() *platform.Deps {
		return &platform.Deps{Store: st, Notify: &fntest.Recorder{}, Log: zerolog.New(&logs), Now: time.Now,
			Coins: cc, Markets: markets.Defaults(), Config: cfg}
	}
	profile := awslambda.NewRuntime("profile", &logs).HTTP(newHandler(deps()))

	read := func() marketState {
		t.Helper()
		var s marketState
		fntest.Call(t, profile, marketEvent(t, "depth", "symbol=btcusdt&step=0"), &s.Depth)
		for step := range 3 {
			var v marketdata.DepthView
			fntest.Call(t, profile, marketEvent(t, "depth", fmt.Sprintf("symbol=BTC/USDT&step=%d&limit=200", step)), &v)
			s.DepthSteps[step] = len(v.Buys)
		}
		fntest.Call(t, profile, marketEvent(t, "trades", "symbol=btcusdt&limit=10"), &s.Trades)
		fntest.Call(t, profile, marketEvent(t, "ticker", "symbol=btcusdt"), &s.Ticker)
		var all httpapi.MarketTickersResp
		fntest.Call(t, profile, marketEvent(t, "tickers", ""), &all)
		s.Tickers = all.Tickers["btcusdt"]
		var ks []marketdata.KlineView
		fntest.Call(t, profile, marketEvent(t, "kline", "symbol=btcusdt&period=1min&limit=5"), &ks)
		if len(ks) > 0 {
			s.Kline = ks[len(ks)-1]
		}
		return s
	}
	check := func(s marketState, tradeID, price, bid string, trades int64) []string {
		var bad []string
		if want := [][2]string{{bid + ".00", map[string]string{"49990": "1", "50500": "3"}[bid]}}; !reflect.DeepEqual(s.Depth.Buys, want) {
			bad = append(bad, fmt.Sprintf("depth buys %v, want %v", s.Depth.Buys, want))
		}
		if s.DepthSteps != [3]int{1, 1, 1} {
			bad = append(bad, fmt.Sprintf("depth steps show %v levels", s.DepthSteps))
		}
		if len(s.Trades) == 0 || s.Trades[0].ID != tradeID || s.Trades[0].Price != price+".00" || int64(len(s.Trades)) != trades {
			bad = append(bad, fmt.Sprintf("trades %+v, want %d, newest %s at %s", s.Trades, trades, tradeID, price))
		}
		if s.Ticker.Close != price+".00" || s.Ticker.Count != trades {
			bad = append(bad, fmt.Sprintf("ticker %+v, want close %s after %d trades", s.Ticker, price, trades))
		}
		if s.Tickers.Close != price+".00" {
			bad = append(bad, fmt.Sprintf("tickers: btcusdt %+v, want close %s", s.Tickers, price))
		}
		if s.Kline.Close != price+".00" {
			bad = append(bad, fmt.Sprintf("newest 1min candle %+v, want close %s", s.Kline, price))
		}
		return bad
	}

	// Cold containers are right at once.
	if bad := check(read(), "1", "50000", "49990", 1); len(bad) > 0 {
		t.Fatalf("cold containers:\n%s", strings.Join(bad, "\n"))
	}

	// The engine trades and its book changes; the warm containers follow
	// within the refresh time of the table holding it.
	writer.OnTrades("btcusdt", []marketdata.Trade{trade("2", "51000")})
	writer.OnDepth("btcusdt", []marketdata.Level{lv("50500", "3")}, []marketdata.Level{lv("51500", "1")}, time.Now())
	stored("2", "50500")
	since := time.Now()
	for {
		s := read()
		bad := check(s, "2", "51000", "50500", 2)
		if len(bad) == 0 {
			break
		}
		if time.Since(since) > cfg.MarketDataRefresh+time.Second {
			t.Fatalf("%s after the engine stored them, warm containers still show:\n%s", time.Since(since).Round(time.Millisecond), strings.Join(bad, "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("warm containers followed within %s", time.Since(since).Round(time.Millisecond))
}

// TestWalletRatesFollowTheReferencePrice runs the engine task's reference
// price service on the books its market data holds, and the wallet and
// profile functions as they run in AWS on the same table: a self-trade far
// from the market changes the last price the market calls show, while the
// wallet's rates and the index_price call show the reference price, and
// follow it when the book itself moves (bounded, 2 % a minute).
func TestWalletRatesFollowTheReferencePrice(t *testing.T) {
	st := fntest.Table(t, "profile-ref")
	ctx := context.Background()
	cat := markets.Defaults()
	var logs bytes.Buffer
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	writer, err := marketdata.New(ctx, marketdata.Options{Store: fntest.EngineStore(st), Markets: cat, Log: zerolog.New(&logs)})
	if err != nil {
		t.Fatal(err)
	}
	lv := func(p string) []marketdata.Level {
		return []marketdata.Level{{Price: decimal.RequireFromString(p), Qty: decimal.RequireFromString("1")}}
	}
	// The engine task's clock steps 5 s at a time; the functions run on
	// the real one.
	engineNow := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	engine := &platform.Deps{Store: st, Log: zerolog.New(&logs), Now: func() time.Time { return engineNow },
		Coins: cc, Markets: cat}
	svc, err := refprice.New(ctx, refprice.Options{Store: fntest.EngineStore(st), Symbols: func() []string { return platform.RefIndexes(cc) },
		Book: writer, Anchors: map[string]decimal.Decimal{"btcusdt": decimal.RequireFromString("97250.5")}, // the seeded table's
		Now: engine.Now, Log: engine.Log})
	if err != nil {
		t.Fatal(err)
	}
	steps := func(n int) {
		t.Helper()
		for range n {
			engineNow = engineNow.Add(5 * time.Second)
			if err := svc.Step(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	book := func(bid, ask string) {
		writer.OnDepth("btcusdt", lv(bid), lv(ask), time.Now())
		if err := writer.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}

	cfg := platform.ConfigFromEnv()
	deps := func() *platform.Deps {
		return &platform.Deps{Store: st, Notify: &fntest.Recorder{}, Log: zerolog.New(&logs), Now: time.Now,
			Coins: cc, Markets: markets.Defaults(), Config: cfg}
	}
	walletRouters, err := deps().WalletArea()
	if err != nil {
		t.Fatal(err)
	}
	walletMux := http.NewServeMux()
	httpapi.Mount(walletMux, walletRouters...)
	wallet := awslambda.NewRuntime("wallet", &logs).HTTP(walletMux)
	profile := awslambda.NewRuntime("profile", &logs).HTTP(newHandler(deps()))
	rate := func() decimal.Decimal {
		t.Helper()
		var rates map[string]map[string]string
		fntest.Call(t, wallet, fntest.SampleEvent(t, "http_wallet_rate.json", map[string]string{"token": ""}), &rates)
		r, err := decimal.NewFromString(rates["en_US"]["BTC"])
		if err != nil {
			t.Fatalf("wallet rates %v", rates)
		}
		return r
	}
	index := func() string {
		t.Helper()
		ev := fntest.SampleEvent(t, "http_user_info_header_auth.json", map[string]string{"token": ""})
		path := "/fe-ex-api/common/index_price"
		ev.RawPath, ev.RequestContext.HTTP.Path = path, path
		ev.RouteKey, ev.RequestContext.RouteKey = "POST /fe-ex-api/common/{proxy+}", "POST /fe-ex-api/common/{proxy+}"
		ev.Body, ev.IsBase64Encoded = "{}", false
		delete(ev.Headers, "exchange-token")
		var all []httpapi.IndexPriceView
		fntest.Call(t, profile, ev, &all)
		for _, v := range all {
			if v.Symbol == "btcusdt" {
				return v.Price + " " + fmt.Sprint(v.Sources)
			}
		}
		t.Fatalf("no btcusdt in %+v", all)
		return ""
	}
	// until polls a function answer for a reader's cache time.
	until := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(refprice.DefaultReaderTTL + 2*time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within the readers' cache time", what)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	// Before any price is formed the anchor (the seeded table) answers.
	if r := rate(); !r.Equal(decimal.RequireFromString("97250.5")) {
		t.Fatalf("BTC rate %s before any price was formed", r)
	}
	book("97240", "97260")
	steps(60) // a full window of samples, as after five minutes of running
	until("the book's price", func() bool { return rate().Equal(decimal.RequireFromString("97250")) })
	if got := index(); got != "97250 map[book:97250]" {
		t.Fatalf("index_price btcusdt: %s", got)
	}

	// A self-trade at 100: the last price moves, the reference does not.
	writer.OnTrades("btcusdt", []marketdata.Trade{{ID: "1", Symbol: "btcusdt", Price: decimal.RequireFromString("100"),
		Qty: decimal.RequireFromString("0.05"), TakerSide: "BUY", At: time.Now()}})
	book("99", "101") // it swept the book for two minutes
	steps(24)
	book("97240", "97260")
	steps(2)
	time.Sleep(refprice.DefaultReaderTTL)
	if r := rate(); !r.Equal(decimal.RequireFromString("97250")) {
		t.Fatalf("BTC rate %s after a self-trade at 100", r)
	}

	// The market itself moves 2 %: the reference follows within minutes.
	book("99185", "99205")
	steps(60)
	until("the moved book's price", func() bool { return rate().Equal(decimal.RequireFromString("99195")) })
}
