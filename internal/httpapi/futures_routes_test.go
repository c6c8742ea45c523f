package httpapi

import (
	"context"
	"net/http"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/contracts"
	"tenger/internal/futures"
	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
)

// futEnv serves the futures routes on an engine with its projection.
type futEnv struct {
	*profEnv
	funds spotfunds.Engine
	// md is the contracts' market data (synced by the test: no loop runs).
	md *marketdata.Service
}

func newFutEnv(t *testing.T) *futEnv {
	t.Helper()
	p := newProfEnv(t)
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	decimals := func(coin string) int32 { d, _ := spot.CoinDecimals(cc, coin); return d }
	cat := contracts.Defaults()
	mcat, err := futures.MarketCatalogue(cat)
	if err != nil {
		t.Fatal(err)
	}
	md, err := marketdata.New(context.Background(), marketdata.Options{Store: p.st, Markets: mcat, Log: zerolog.Nop(), Now: p.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := futures.New(futures.Options{Contracts: cat, Decimals: decimals, Store: p.st, Feed: md, Every: -1, Now: p.clock.Now, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	ro := spot.RuntimeOptions{Dir: t.TempDir(), Store: p.st, Coins: cc, Markets: markets.Defaults(), Counter: spotfunds.Counter,
		SnapshotEvery: -1, Log: zerolog.Nop(), Now: p.clock.Now}
	fr.EngineOptions(&ro)
	rt, err := spot.StartRuntime(context.Background(), ro)
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.Start(context.Background(), rt); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fr.Close()
		_ = rt.Close()
	})
	svc := futures.NewService(futures.ServiceOptions{Store: p.st, Contracts: cat, Engine: rt, Decimals: decimals, Now: p.clock.Now})
	mux := http.NewServeMux()
	opts := Options{Log: zerolog.Nop(), Now: p.clock.Now, Sessions: AuthSessions(p.svc)}
	Mount(mux, p.h.(*Router), NewFuturesRouter(svc, md, opts), NewDevFuturesRouter(fr, opts), NewFuturesAccountRouter(svc, opts))
	p.h = mux
	return &futEnv{profEnv: p, funds: spotfunds.Engine{Submit: rt, Decimals: rt.Decimals}, md: md}
}

// trader signs a user up, funds its futures account and answers its token.
func (e *futEnv) trader(t *testing.T, email, usdt string) authMode {
	t.Helper()
	uid := e.signUp(t, email, "Passw0rd!x")
	tok := hdr(e.signIn(t, email, "Passw0rd!x"))
	amt := decimal.RequireFromString(usdt)
	if err := e.funds.Credit(context.Background(), spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: "USDT", Amount: amt,
		Other: ledger.ChainAccount("TRC20")}); err != nil {
		t.Fatal(err)
	}
	if err := e.funds.Futures(context.Background(), spotfunds.Move{Ref: "in:" + uid, UID: uid, Coin: "USDT", Amount: amt}, true); err != nil {
		t.Fatal(err)
	}
	return tok
}

// The futures routes: public contracts and prices; a user opens a futures
// account through the wallet's create_co_id, sets isolated 5x, trades
// against another through the book, sees the position and its
// liquidation price, adds margin, cancels, and closes the position;
// signed-out calls and bad input get their codes.
func TestFuturesRoutes(t *testing.T) {
	e := newFutEnv(t)
	pub := e.ok(t, "/fe-co-api/common/public_info", map[string]any{}, authMode{})
	if list := pub["contractList"].([]any); len(list) != 2 || list[0].(map[string]any)["marketSymbol"] != "btcusdtperp" {
		t.Fatalf("public_info %+v", pub)
	}
	e.fails(t, "/fe-co-api/common/public_market_info", map[string]any{"symbol": "DOGEUSDT"}, authMode{}, apperr.CodeFuturesSymbol)
	e.ok(t, "/dev/index", map[string]any{"symbol": "BTCUSDT", "price": "40000"}, authMode{})
	mi := e.ok(t, "/fe-co-api/common/public_market_info", map[string]any{"contractId": 1}, authMode{})
	if mi["markPrice"] != "40000.0" || mi["indexPrice"] != "40000.0" || mi["open24h"] != "" || mi["change24h"] != "0.00" ||
		mi["volume24h"] != "0" || mi["turnover24h"] != "0" {
		t.Fatalf("market info %+v", mi)
	}
	tiers := e.okList(t, "/fe-co-api/common/get_ladder_info", map[string]any{"symbol": "BTCUSDT"})
	if len(tiers) != 5 || tiers[1].(map[string]any)["cum"] != "50" {
		t.Fatalf("tiers %+v", tiers)
	}

	alice, bob := e.trader(t, "alice@ex.mn", "1000"), e.trader(t, "bob@ex.mn", "1000")
	e.fails(t, "/fe-co-api/position/get_assets_list", map[string]any{}, authMode{}, apperr.CodeNotSignedIn)
	order := map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "price": "40000", "volume": "100"}
	e.fails(t, "/fe-co-api/order/order_create", order, bob, apperr.CodeFuturesNotOpened)
	if st := e.ok(t, "/fe-ex-api/wallet/get_user_config", map[string]any{"contractId": 1}, bob); st["openContract"] != false {
		t.Fatalf("before create_co_id %+v", st)
	}
	e.ok(t, "/fe-ex-api/wallet/create_co_id", map[string]any{}, bob)
	if cfg := e.ok(t, "/fe-co-api/user/open_contract", map[string]any{}, alice); cfg["openContract"] != true || cfg["symbol"] != "BTCUSDT" {
		t.Fatalf("open_contract %+v", cfg)
	}
	cfg := e.ok(t, "/fe-co-api/user/margin_model_edit", map[string]any{"symbol": "BTCUSDT", "marginMode": 2}, alice)
	if cfg["marginMode"] != float64(2) {
		t.Fatalf("margin mode %+v", cfg)
	}
	e.ok(t, "/fe-co-api/user/level_edit", map[string]any{"symbol": "BTCUSDT", "leverage": 5}, alice)
	e.fails(t, "/fe-co-api/user/level_edit", map[string]any{"symbol": "BTCUSDT", "leverage": 0}, alice, apperr.CodeFuturesLeverage)
	e.ok(t, "/fe-co-api/order/order_create", order, bob) // 0.1 BTC at 40,000
	// 0.1 BTC at 5x needs 800 of margin and a 2 fee: 2,000 contracts do not fit 1,000.
	e.fails(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "MARKET", "volume": "2000"},
		alice, apperr.CodeFuturesInsufficient)
	o := e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "MARKET", "volume": 100,
		"clientOid": "alice-1"}, alice)
	if o["status"] != "FILLED" || o["avgPrice"] != "40000.0" || o["clientOid"] != "alice-1" {
		t.Fatalf("market buy %+v", o)
	}
	// The retry with the same client id places nothing more.
	again := e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "MARKET", "volume": 100,
		"clientOid": "alice-1"}, alice)
	if again["orderId"] != o["orderId"] {
		t.Fatalf("retry %+v, first %+v", again, o)
	}
	assets := e.ok(t, "/fe-co-api/position/get_assets_list", map[string]any{}, alice)
	pos := assets["positionList"].([]any)
	if len(pos) != 1 {
		t.Fatalf("positions %+v", assets)
	}
	p := pos[0].(map[string]any)
	if p["side"] != "LONG" || p["volume"] != float64(100) || p["margin"] != "800.00000000" || p["liquidationPrice"] == "" || p["marginMode"] != float64(2) {
		t.Fatalf("position %+v", p)
	}
	// Margin added: the liquidation price falls.
	more := e.ok(t, "/fe-co-api/position/change_position_margin", map[string]any{"symbol": "BTCUSDT", "amount": "100", "type": 1}, alice)
	if more["margin"] != "900.00000000" || more["liquidationPrice"] == p["liquidationPrice"] {
		t.Fatalf("after adding margin %+v (was %+v)", more, p)
	}
	e.fails(t, "/fe-co-api/user/margin_model_edit", map[string]any{"symbol": "BTCUSDT", "marginMode": 1}, alice, apperr.CodeFuturesModeLocked)
	e.fails(t, "/fe-co-api/position/change_position_margin", map[string]any{"symbol": "BTCUSDT", "amount": "900", "type": 2}, alice,
		apperr.CodeFuturesWouldLiquidate)
	// A resting order, cancelled; another user's cancel is refused.
	rest := e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "SELL", "type": "LIMIT", "price": "41000",
		"volume": "50", "reduceOnly": true}, alice)
	open := e.ok(t, "/fe-co-api/order/current_order_list", map[string]any{"symbol": "BTCUSDT"}, alice)
	if open["count"] != float64(1) {
		t.Fatalf("open orders %+v", open)
	}
	e.fails(t, "/fe-co-api/order/order_cancel", map[string]any{"symbol": "BTCUSDT", "orderId": rest["orderId"]}, bob, apperr.CodeFuturesOrderNotFound)
	if c := e.ok(t, "/fe-co-api/order/order_cancel", map[string]any{"symbol": "BTCUSDT", "orderId": rest["orderId"]}, alice); c["status"] != "CANCELED" {
		t.Fatalf("cancel %+v", c)
	}
	// Bob bids; Alice closes all at market into it.
	e.ok(t, "/fe-co-api/order/order_create", map[string]any{"symbol": "BTCUSDT", "side": "BUY", "type": "LIMIT", "price": "40100", "volume": "100"}, bob)
	closed := e.ok(t, "/fe-co-api/order/close_all_position", map[string]any{}, alice)
	if list := closed["orders"].([]any); len(list) != 1 || list[0].(map[string]any)["status"] != "FILLED" {
		t.Fatalf("close all %+v", closed)
	}
	if a := e.ok(t, "/fe-co-api/position/get_assets_list", map[string]any{}, alice); len(a["positionList"].([]any)) != 0 {
		t.Fatalf("after close all %+v", a)
	}
	fills := e.ok(t, "/fe-co-api/order/his_trade_list", map[string]any{"page": 1, "pageSize": 10}, alice)
	if fills["count"] != float64(2) {
		t.Fatalf("fills %+v", fills)
	}
	// The close realized 0.1 × 100 = 10.
	last := fills["tradeList"].([]any)[0].(map[string]any)
	if last["realizedPnl"] != "10.00000000" || last["side"] != "SELL" || last["role"] != "TAKER" {
		t.Fatalf("closing fill %+v", last)
	}
	hist := e.ok(t, "/fe-co-api/order/history_order_list", map[string]any{"symbol": "BTCUSDT"}, alice)
	if hist["count"] != float64(3) {
		t.Fatalf("history %+v", hist)
	}
	detail := e.ok(t, "/fe-co-api/order/get_trade_info", map[string]any{"orderId": o["orderId"]}, alice)
	if len(detail["tradeList"].([]any)) != 1 {
		t.Fatalf("detail %+v", detail)
	}
	e.fails(t, "/fe-co-api/order/get_trade_info", map[string]any{"orderId": o["orderId"]}, bob, apperr.CodeFuturesOrderNotFound)
	e.fails(t, "/fe-co-api/order/history_order_list", map[string]any{"pageSize": 500}, alice, apperr.CodeParam)
	// The 24 h figures of the two trades, 0.1 BTC (100 contracts) at
	// 40,000 then at 40,100, from the contract's market data.
	if err := e.md.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	want24h := map[string]any{"open24h": "40000.0", "high24h": "40100.0", "low24h": "40000.0", "change24h": "0.25",
		"volume24h": "200", "turnover24h": "8010"}
	mi = e.ok(t, "/fe-co-api/common/public_market_info", map[string]any{"symbol": "BTCUSDT"}, authMode{})
	prices := e.okList(t, "/fe-co-api/common/price_list", map[string]any{})
	for k, v := range want24h {
		if mi[k] != v {
			t.Fatalf("public_market_info %s = %v, want %v: %+v", k, mi[k], v, mi)
		}
		if p := prices[0].(map[string]any); p[k] != v {
			t.Fatalf("price_list %s = %v, want %v: %+v", k, p[k], v, p)
		}
	}
	if eth := prices[1].(map[string]any); eth["symbol"] != "ETHUSDT" || eth["volume24h"] != "0" || eth["high24h"] != "" {
		t.Fatalf("price_list ETHUSDT %+v", eth)
	}
	// A funding round now (--dev): paid once per round.
	e.ok(t, "/dev/funding", map[string]any{"symbol": "BTCUSDT"}, authMode{})
	if mi := e.ok(t, "/fe-co-api/common/public_market_info", map[string]any{"symbol": "BTCUSDT"}, authMode{}); mi["lastFundingRate"] == "0" {
		t.Fatalf("no funding round: %+v", mi)
	}
	e.fails(t, "/dev/funding", map[string]any{"symbol": "XYZ"}, authMode{}, apperr.CodeFuturesSymbol)
	depth := e.ok(t, "/fe-co-api/common/depth_map", map[string]any{"symbol": "BTCUSDT", "limit": 5}, authMode{})
	if depth["symbol"] != "BTCUSDT" {
		t.Fatalf("depth %+v", depth)
	}
}

// okList posts and requires code "0"; it returns data as a list.
func (p *profEnv) okList(t *testing.T, path string, body any) []any {
	t.Helper()
	_, env := p.post(t, path, body, authMode{})
	if env.Code != "0" {
		t.Fatalf("%s: code %s %q", path, env.Code, env.Msg)
	}
	l, _ := env.Data.([]any)
	return l
}
