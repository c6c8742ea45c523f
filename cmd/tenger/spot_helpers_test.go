package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/shopspring/decimal"
)

// This file holds what the spot process tests (spot_model_test.go and
// spot_kill_test.go) share: a typed client for the trading, wallet and
// market-data routes built on tenger bench's keep-alive client, a
// WebSocket watcher of the market channels, and small helpers for polling
// until the asynchronous engine has caught up.

// spotSymbol is the pair both tests trade.
const spotSymbol = "btcusdt"

// startSpotServer runs `tenger serve --dev --market-maker=false` on a fresh
// data directory: with the market maker off, every order and trade of the
// pair comes from the test.
func startSpotServer(t *testing.T) *server {
	t.Helper()
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t), extra: []string{"--market-maker=false"}}
	s.start()
	t.Cleanup(func() {
		if s.cmd != nil && s.cmd.ProcessState == nil {
			s.kill()
		}
	})
	return s
}

// auditClean runs `tenger audit` on the stopped server's data directory.
func auditClean(t *testing.T, s *server) string {
	t.Helper()
	out, err := exec.Command(s.bin, "audit", "--data", s.data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "audit clean") {
		t.Fatalf("audit: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// spotAPI is a keep-alive API client whose failures in transport or with
// a 5xx status fail the test (the server is up whenever it is used).
type spotAPI struct {
	t   *testing.T
	api *benchClient
}

func newSpotAPI(t *testing.T, addr string) *spotAPI {
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}
	return &spotAPI{t: t, api: &benchClient{base: "http://" + addr, hc: &http.Client{Transport: tr, Timeout: 30 * time.Second}}}
}

// call sends one request and returns the answer, whatever its code.
func (a *spotAPI) call(path, token string, body any) benchAnswer {
	a.t.Helper()
	env, status, err := a.api.do(context.Background(), path, token, body)
	if err != nil {
		a.t.Fatalf("%s: %v", path, err)
	}
	if status >= 500 {
		a.t.Fatalf("%s: HTTP %d: %s %s", path, status, env.Code, env.Msg)
	}
	return env
}

// ok sends one request that must succeed and decodes its data into out.
func (a *spotAPI) ok(path, token string, body any, out any) {
	a.t.Helper()
	env := a.call(path, token, body)
	if env.Code != "0" {
		a.t.Fatalf("%s %v: code %s %s", path, body, env.Code, env.Msg)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			a.t.Fatalf("%s: decode %s: %v", path, env.Data, err)
		}
	}
}

// newTrader signs a new user up through the API (bench's set-up: e-mail
// code, register, log in, chain deposits of USDT and BTC) and waits until
// both deposits are credited to the spot account.
func (a *spotAPI) newTrader(email, usdt, btc string) string {
	a.t.Helper()
	tok, err := benchUser(context.Background(), a.api, email, map[string]decimal.Decimal{"USDT": dec(usdt), "BTC": dec(btc)})
	if err != nil {
		a.t.Fatalf("set up %s: %v", email, err)
	}
	want := map[string]decimal.Decimal{"USDT": dec(usdt), "BTC": dec(btc)}
	eventually(a.t, "deposits of "+email+" credited", 30*time.Second, func() []string {
		var diffs []string
		bal := a.balances(tok)
		for coin, w := range want {
			if got := bal[coin]; !dec(got.Normal).Equal(w) || !dec(got.Freeze).IsZero() {
				diffs = append(diffs, fmt.Sprintf("%s: %+v, want %s available", coin, got, w))
			}
		}
		return diffs
	})
	return tok
}

// apiBalance is one row of /finance/v5/account_balance.
type apiBalance struct {
	Total         string `json:"total"`
	Normal        string `json:"normal"`
	Freeze        string `json:"freeze"`
	ShowPrecision int32  `json:"showPrecision"`
}

func (a *spotAPI) balances(token string) map[string]apiBalance {
	a.t.Helper()
	var out struct {
		AllCoinMap map[string]apiBalance `json:"allCoinMap"`
	}
	a.ok("/fe-ex-api/finance/v5/account_balance", token, map[string]any{}, &out)
	return out.AllCoinMap
}

// apiOrder is an order as the trading routes show it.
type apiOrder struct {
	OrderID     string `json:"order_id"`
	Symbol      string `json:"symbol"`
	Side        string `json:"side"`
	Type        string `json:"type"`
	Price       string `json:"price"`
	Volume      string `json:"volume"`
	QuoteVolume string `json:"quote_volume"`
	DealVolume  string `json:"deal_volume"`
	DealMoney   string `json:"deal_money"`
	AvgPrice    string `json:"avg_price"`
	Fee         string `json:"fee"`
	FeeCoin     string `json:"fee_coin"`
	Status      int    `json:"status"`
	StatusText  string `json:"status_text"`
}

// apiTrade is one fill as the trading routes show it.
type apiTrade struct {
	TradeID   string `json:"trade_id"`
	OrderID   string `json:"order_id"`
	Symbol    string `json:"symbol"`
	Side      string `json:"side"`
	Role      string `json:"role"`
	Price     string `json:"price"`
	Volume    string `json:"volume"`
	DealMoney string `json:"deal_money"`
	Fee       string `json:"fee"`
	FeeCoin   string `json:"fee_coin"`
	CreatedAt int64  `json:"created_at"`
}

// place sends /order/create and returns the answer code and the order id.
func (a *spotAPI) place(token string, req map[string]any) (code, msg, id string) {
	a.t.Helper()
	env := a.call("/fe-ex-api/order/create", token, req)
	if env.Code != "0" {
		return env.Code, env.Msg, ""
	}
	var out struct {
		OrderID string `json:"order_id"`
	}
	if err := json.Unmarshal(env.Data, &out); err != nil || out.OrderID == "" {
		a.t.Fatalf("order/create: no order id in %s", env.Data)
	}
	return env.Code, env.Msg, out.OrderID
}

// openOrders is /order/list/new of one symbol.
func (a *spotAPI) openOrders(token string) []apiOrder {
	a.t.Helper()
	var out struct {
		Count     int        `json:"count"`
		OrderList []apiOrder `json:"orderList"`
	}
	a.ok("/fe-ex-api/order/list/new", token, map[string]any{"symbol": spotSymbol, "pageSize": 500}, &out)
	if out.Count != len(out.OrderList) {
		a.t.Fatalf("list/new: count %d but %d orders listed", out.Count, len(out.OrderList))
	}
	return out.OrderList
}

// searchOrders pages through /order/entrust_history (finished only) or
// /order/entrust_search (every order) of one symbol.
func (a *spotAPI) searchOrders(token string, finishedOnly bool) []apiOrder {
	a.t.Helper()
	path := "/fe-ex-api/order/entrust_search"
	if finishedOnly {
		path = "/fe-ex-api/order/entrust_history"
	}
	var all []apiOrder
	for page := 1; ; page++ {
		var out struct {
			Count     int        `json:"count"`
			OrderList []apiOrder `json:"orderList"`
		}
		a.ok(path, token, map[string]any{"symbol": spotSymbol, "page": page, "pageSize": 100}, &out)
		all = append(all, out.OrderList...)
		if len(out.OrderList) == 0 || len(all) >= out.Count {
			if len(all) != out.Count {
				a.t.Fatalf("%s: count %d but %d orders paged", path, out.Count, len(all))
			}
			return all
		}
	}
}

// userTrades pages through /order/trade_info_search of one symbol (newest first).
func (a *spotAPI) userTrades(token string) []apiTrade {
	a.t.Helper()
	var all []apiTrade
	for page := 1; ; page++ {
		var out struct {
			Count     int        `json:"count"`
			TradeList []apiTrade `json:"tradeList"`
		}
		a.ok("/fe-ex-api/order/trade_info_search", token, map[string]any{"symbol": spotSymbol, "page": page, "pageSize": 100}, &out)
		all = append(all, out.TradeList...)
		if len(out.TradeList) == 0 || len(all) >= out.Count {
			if len(all) != out.Count {
				a.t.Fatalf("trade_info_search: count %d but %d trades paged", out.Count, len(all))
			}
			return all
		}
	}
}

// orderTrades is /trade/list_by_order (oldest first).
func (a *spotAPI) orderTrades(token, orderID string) []apiTrade {
	a.t.Helper()
	var out struct {
		Count     int        `json:"count"`
		TradeList []apiTrade `json:"tradeList"`
	}
	a.ok("/fe-ex-api/trade/list_by_order", token, map[string]any{"order_id": orderID}, &out)
	if out.Count != len(out.TradeList) {
		a.t.Fatalf("list_by_order: count %d but %d trades", out.Count, len(out.TradeList))
	}
	return out.TradeList
}

// apiDepth is the raw book (step 0): [price, quantity] best first.
type apiDepth struct {
	Buys [][2]string `json:"buys"`
	Asks [][2]string `json:"asks"`
}

func (a *spotAPI) depth() apiDepth {
	a.t.Helper()
	var d apiDepth
	a.ok("/fe-ex-api/market/depth", "", map[string]any{"symbol": spotSymbol, "step": 0, "limit": 200}, &d)
	return d
}

// apiTicker is the 24 h ticker.
type apiTicker struct {
	Open   string `json:"open"`
	High   string `json:"high"`
	Low    string `json:"low"`
	Close  string `json:"close"`
	Vol    string `json:"vol"`
	Amount string `json:"amount"`
	Rose   string `json:"rose"`
	Count  int64  `json:"count"`
}

func (a *spotAPI) ticker() apiTicker {
	a.t.Helper()
	var tk apiTicker
	a.ok("/fe-ex-api/market/ticker", "", map[string]any{"symbol": spotSymbol}, &tk)
	return tk
}

// apiKline is one candle.
type apiKline struct {
	ID     int64  `json:"id"`
	Open   string `json:"open"`
	High   string `json:"high"`
	Low    string `json:"low"`
	Close  string `json:"close"`
	Vol    string `json:"vol"`
	Amount string `json:"amount"`
	Count  int64  `json:"count"`
}

func (a *spotAPI) klines1m() []apiKline {
	a.t.Helper()
	var ks []apiKline
	a.ok("/fe-ex-api/market/kline", "", map[string]any{"symbol": spotSymbol, "period": "1min", "limit": 1500}, &ks)
	return ks
}

// apiPublicTrade is a trade of /market/trades and of the trade_ticker channel.
type apiPublicTrade struct {
	ID     string `json:"id"`
	Side   string `json:"side"`
	Price  string `json:"price"`
	Vol    string `json:"vol"`
	Amount string `json:"amount"`
	TS     int64  `json:"ts"`
}

func (a *spotAPI) publicTrades(limit int) []apiPublicTrade {
	a.t.Helper()
	var ts []apiPublicTrade
	a.ok("/fe-ex-api/market/trades", "", map[string]any{"symbol": spotSymbol, "limit": limit}, &ts)
	return ts
}

// wsWatch is a WebSocket client subscribed to the pair's trade_ticker and
// depth_step0 channels; it records every trade pushed and the last depth.
type wsWatch struct {
	conn   *websocket.Conn
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	trades []apiPublicTrade
	depth  *apiDepth
	err    error
}

// watchMarket connects to /ws and subscribes; it returns once the hub has
// acknowledged both subscriptions, so no later push can be missed.
func watchMarket(t *testing.T, addr string) *wsWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		cancel()
		t.Fatalf("ws dial: %v", err)
	}
	c.SetReadLimit(4 << 20)
	w := &wsWatch{conn: c, cancel: cancel, done: make(chan struct{})}
	chans := []string{"market_" + spotSymbol + "_trade_ticker", "market_" + spotSymbol + "_depth_step0"}
	acked := map[string]bool{}
	for _, ch := range chans {
		if err := c.Write(dctx, websocket.MessageText, []byte(`{"event":"sub","params":{"channel":"`+ch+`"}}`)); err != nil {
			cancel()
			t.Fatalf("ws sub: %v", err)
		}
	}
	for len(acked) < len(chans) {
		_, msg, err := c.Read(dctx)
		if err != nil {
			cancel()
			t.Fatalf("ws: waiting for the subscription acknowledgements: %v", err)
		}
		var rep struct {
			EventRep string `json:"event_rep"`
			Channel  string `json:"channel"`
			Status   string `json:"status"`
		}
		if json.Unmarshal(msg, &rep) == nil && rep.EventRep == "sub" {
			if rep.Status != "ok" {
				cancel()
				t.Fatalf("ws sub refused: %s", msg)
			}
			acked[rep.Channel] = true
		}
	}
	go w.read(ctx)
	t.Cleanup(w.close)
	return w
}

func (w *wsWatch) read(ctx context.Context) {
	defer close(w.done)
	for {
		_, msg, err := w.conn.Read(ctx)
		if err != nil {
			w.mu.Lock()
			if ctx.Err() == nil {
				w.err = err
			}
			w.mu.Unlock()
			return
		}
		var m struct {
			Channel string          `json:"channel"`
			Data    json.RawMessage `json:"data"`
			Tick    json.RawMessage `json:"tick"`
		}
		if json.Unmarshal(msg, &m) != nil {
			continue
		}
		w.mu.Lock()
		switch {
		case strings.HasSuffix(m.Channel, "_trade_ticker"):
			var ts []apiPublicTrade
			if err := json.Unmarshal(m.Data, &ts); err != nil {
				w.err = fmt.Errorf("trade_ticker push %s: %w", msg, err)
			}
			w.trades = append(w.trades, ts...)
		case strings.HasSuffix(m.Channel, "_depth_step0"):
			var d apiDepth
			if err := json.Unmarshal(m.Tick, &d); err != nil {
				w.err = fmt.Errorf("depth push %s: %w", msg, err)
			}
			w.depth = &d
		}
		w.mu.Unlock()
	}
}

// snapshot returns the trades pushed so far and the last depth pushed (an
// empty book before the first push: the hub sends nothing on subscribe).
func (w *wsWatch) snapshot() ([]apiPublicTrade, apiDepth, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d := apiDepth{}
	if w.depth != nil {
		d = *w.depth
	}
	return append([]apiPublicTrade(nil), w.trades...), d, w.err
}

func (w *wsWatch) close() {
	w.cancel()
	_ = w.conn.CloseNow()
	<-w.done
}

// eventually polls check until it reports no differences; the engine
// matches and settles asynchronously, so every observable state is
// awaited. On timeout the test fails with the last differences.
func eventually(t *testing.T, what string, timeout time.Duration, check func() []string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		diffs := check()
		if len(diffs) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still different after %s:\n  %s", what, timeout, strings.Join(diffs, "\n  "))
		}
		time.Sleep(60 * time.Millisecond)
	}
}

// dec parses a decimal string of an answer; "" is zero, garbage is a
// value no expectation has (so it shows up as a difference).
func dec(s string) decimal.Decimal {
	if s == "" {
		return decimal.Zero
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.New(-999999999, 0)
	}
	return d
}

// shown formats an amount the way balances are shown: truncated to the
// coin's precision.
func shown(d decimal.Decimal, prec int32) string { return d.Truncate(prec).StringFixed(prec) }

// depthLevels aggregates remaining quantities per price into book sides,
// best first: bids descending, asks ascending.
func depthLevels(bids, asks map[string]decimal.Decimal) apiDepth {
	side := func(m map[string]decimal.Decimal, desc bool) [][2]string {
		ps := make([]decimal.Decimal, 0, len(m))
		for p, q := range m {
			if q.IsPositive() {
				ps = append(ps, dec(p))
			}
		}
		sort.Slice(ps, func(i, j int) bool {
			if desc {
				return ps[i].GreaterThan(ps[j])
			}
			return ps[i].LessThan(ps[j])
		})
		out := [][2]string{}
		for _, p := range ps {
			out = append(out, [2]string{p.String(), m[p.String()].String()})
		}
		return out
	}
	return apiDepth{Buys: side(bids, true), Asks: side(asks, false)}
}

// depthDiff compares two books numerically, level by level.
func depthDiff(what string, got, want apiDepth) []string {
	var diffs []string
	cmp := func(side string, g, w [][2]string) {
		if len(g) != len(w) {
			diffs = append(diffs, fmt.Sprintf("%s %s: %d levels %v, want %d %v", what, side, len(g), g, len(w), w))
			return
		}
		for i := range g {
			if !dec(g[i][0]).Equal(dec(w[i][0])) || !dec(g[i][1]).Equal(dec(w[i][1])) {
				diffs = append(diffs, fmt.Sprintf("%s %s level %d: %v, want %v", what, side, i, g[i], w[i]))
			}
		}
	}
	cmp("buys", got.Buys, want.Buys)
	cmp("asks", got.Asks, want.Asks)
	return diffs
}
