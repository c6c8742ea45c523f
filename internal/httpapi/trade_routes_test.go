package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/embedded"
)

func newTradeEnv(t *testing.T) (*Router, walletSessions, *ledger.Ledger) {
	t.Helper()
	h, s, led, _ := newTradeEnvSvc(t)
	return h, s, led
}

// newTradeEnvSvc is newTradeEnv with the spot service the router calls
// (for the WebSocket methods on the same service): order entry on the
// engine that owns the balances (spot.Runtime), with the store projection
// behind it, on an embedded store; alice ("ta") has 1 BTC and bob ("tb")
// 10,000 USDT.
func newTradeEnvSvc(t *testing.T) (*Router, walletSessions, *ledger.Ledger, *spot.Service) {
	t.Helper()
	dir := t.TempDir()
	st, err := embedded.Open(dir+"/store", embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	led := ledger.New(st, nil)
	cat := markets.Defaults()
	rt, err := spot.StartRuntime(context.Background(), spot.RuntimeOptions{Dir: dir + "/engine", Policy: journal.NoFsync, Store: st,
		Coins: cc, Markets: cat, Counter: spotfunds.Counter, Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rt.Close(); err != nil {
			t.Error(err)
		}
	})
	svc := spot.New(spot.Options{Store: st, Markets: cat, Engine: projectedEngine{rt}, Log: zerolog.Nop()})
	s := walletSessions{"ta": "10000001", "tb": "10000002"}
	funds := spotfunds.Engine{Submit: rt, Decimals: rt.Decimals}
	for uid, amt := range map[string][2]string{"10000001": {"BTC", "1"}, "10000002": {"USDT", "10000"}} {
		if err := funds.Credit(context.Background(), spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: amt[0],
			Amount: decimal.RequireFromString(amt[1]), Other: ledger.ChainAccount("T"), Reason: "deposit"}); err != nil {
			t.Fatal(err)
		}
	}
	return NewTradeRouter(svc, Options{Log: zerolog.Nop(), Sessions: s}), s, led, svc
}

// projectedEngine answers every command once the store shows it, also
// those the batch route and the WebSocket methods would have answered at
// the engine's journal (spot.AckAtJournal): the route tests read the
// store right after each call.
type projectedEngine struct{ *spot.Runtime }

func (p projectedEngine) Submit(ctx context.Context, c engine.Command) engine.Result {
	res, _ := p.SubmitProjected(ctx, c) // not shown within its wait: the next read finds out
	return res
}

func tradeCall(t *testing.T, h *Router, path, token string, body any) walletAnswer {
	t.Helper()
	b, _ := json.Marshal(body)
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(HeaderToken, token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var a walletAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: %q: %v", path, rec.Body.String(), err)
	}
	return a
}

func TestTradeRoutes(t *testing.T) {
	h, _, led := newTradeEnv(t)
	const p = "/fe-ex-api"
	a := tradeCall(t, h, p+"/order/create", "ta", map[string]any{"symbol": "BTC/USDT", "side": "SELL", "type": "LIMIT", "price": 30000, "volume": "0.2"})
	if a.Code != "0" {
		t.Fatalf("create: %+v", a)
	}
	var created OrderCreateResp
	_ = json.Unmarshal(a.Data, &created)
	if a := tradeCall(t, h, p+"/order/create", "tb", map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT", "price": "30000.001", "volume": "0.1"}); a.Code != apperr.CodeTradePriceTick {
		t.Fatalf("off-tick price: %+v", a)
	}
	if a := tradeCall(t, h, p+"/order/create", "tb", map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT", "price": "30000", "volume": "0.1", "stp": "maybe"}); a.Code != apperr.CodeTradeSTP {
		t.Fatalf("unknown self-trade prevention: %+v", a)
	}
	if a := tradeCall(t, h, p+"/order/create", "", map[string]any{"symbol": "btcusdt"}); a.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous create: %+v", a)
	}
	if a := tradeCall(t, h, p+"/order/create", "tb", map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "MARKET", "quoteVolume": "3000"}); a.Code != "0" {
		t.Fatalf("market buy: %+v", a)
	}
	// The market buy was answered once the store showed it: filled.
	var hist OrderList
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/entrust_history", "tb", map[string]any{"symbol": "btcusdt"}).Data, &hist)
	if hist.Count != 1 || hist.OrderList[0].StatusText != "FILLED" || hist.OrderList[0].DealVolume != "0.1" ||
		hist.OrderList[0].AvgPrice != "30000" || hist.OrderList[0].Fee != "0.0001" {
		t.Fatalf("bob's history %+v", hist)
	}
	// A range that ends before it starts, or before the 180-day window, holds nothing (not a 5xx).
	for _, body := range []map[string]any{{"endTime": 123}, {"startTime": time.Now().UnixMilli(), "endTime": time.Now().Add(-time.Hour).UnixMilli()}} {
		for _, path := range []string{"/order/entrust_history", "/order/entrust_search", "/order/trade_info_search"} {
			a := tradeCall(t, h, p+path, "tb", body)
			var page struct {
				Count int `json:"count"`
			}
			if a.Code != "0" || json.Unmarshal(a.Data, &page) != nil || page.Count != 0 {
				t.Fatalf("%s %v: %+v", path, body, a)
			}
		}
	}
	var open OrderList
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/list/new", "ta", map[string]any{}).Data, &open)
	if open.Count != 1 || open.OrderList[0].OrderID != created.OrderID || open.OrderList[0].Status != 2 {
		t.Fatalf("alice's open orders %+v", open)
	}
	// The history holds finished orders only, whatever status is asked
	// for; the search finds the open one.
	for _, st := range []any{1, 2, "PARTIALLY_FILLED"} {
		var page OrderList
		a := tradeCall(t, h, p+"/order/entrust_history", "ta", map[string]any{"status": st})
		if a.Code != "0" || json.Unmarshal(a.Data, &page) != nil || page.Count != 0 || len(page.OrderList) != 0 {
			t.Fatalf("history with status %v: %+v", st, a)
		}
		a = tradeCall(t, h, p+"/order/entrust_search", "ta", map[string]any{"status": st})
		if st != 1 && (a.Code != "0" || json.Unmarshal(a.Data, &page) != nil || page.Count != 1) {
			t.Fatalf("search with status %v: %+v", st, a)
		}
	}
	var trades TradeList
	_ = json.Unmarshal(tradeCall(t, h, p+"/trade/list_by_order", "ta", map[string]any{"order_id": created.OrderID}).Data, &trades)
	if trades.Count != 1 || trades.TradeList[0].Role != "MAKER" || trades.TradeList[0].DealMoney != "3000" || trades.TradeList[0].Fee != "3" {
		t.Fatalf("alice's order trades %+v", trades)
	}
	if a := tradeCall(t, h, p+"/trade/list_by_order", "tb", map[string]any{"order_id": created.OrderID}); a.Code != apperr.CodeTradeOrderNotFound {
		t.Fatalf("bob read alice's order: %+v", a)
	}
	var one OrderView
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/detail", "ta", map[string]any{"order_id": created.OrderID}).Data, &one)
	if one.OrderID != created.OrderID || one.Status != 2 || one.DealVolume != "0.1" || one.Symbol != "btcusdt" {
		t.Fatalf("alice's order detail %+v", one)
	}
	if a := tradeCall(t, h, p+"/order/detail", "tb", map[string]any{"order_id": created.OrderID}); a.Code != apperr.CodeTradeOrderNotFound {
		t.Fatalf("bob read alice's order detail: %+v", a)
	}
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/trade_info_search", "tb", map[string]any{"symbol": "btcusdt", "side": "BUY"}).Data, &trades)
	if trades.Count != 1 || trades.TradeList[0].Role != "TAKER" {
		t.Fatalf("bob's trades %+v", trades)
	}
	if a := tradeCall(t, h, p+"/order/cancel", "tb", map[string]any{"symbol": "btcusdt", "order_id": created.OrderID}); a.Code != apperr.CodeTradeOrderNotFound {
		t.Fatalf("bob cancelled alice's order: %+v", a)
	}
	if a := tradeCall(t, h, p+"/order/cancel_all", "ta", map[string]any{}); a.Code != "0" {
		t.Fatalf("cancel_all: %+v", a)
	}
	if b, _ := led.Balance(context.Background(), ledger.UserAccount("10000001", ledger.Spot), "BTC"); !b.Frozen.IsZero() ||
		!b.Available.Equal(decimal.RequireFromString("0.9")) {
		t.Fatalf("alice BTC %s/%s after cancel_all, want 0.9/0", b.Available, b.Frozen)
	}
	var search OrderList
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/entrust_search", "ta", map[string]any{"status": "CANCELLED"}).Data, &search)
	if search.Count != 1 || search.OrderList[0].DealVolume != "0.1" {
		t.Fatalf("alice's cancelled orders %+v", search)
	}
}

// TestTradeAmendRoute: /order/amend reduces an open order (the engine
// releases the freed hold and the order keeps its place), refuses an
// increase, another user's order and a finished order with the catalogue
// codes, and is documented in the OpenAPI document.
func TestTradeAmendRoute(t *testing.T) {
	h, _, led := newTradeEnv(t)
	const p = "/fe-ex-api"
	alice := ledger.UserAccount("10000001", ledger.Spot)
	// Every answer comes once the store shows the command.
	wantBTC := func(avail, frozen string) {
		t.Helper()
		b, _ := led.Balance(context.Background(), alice, "BTC")
		if !b.Available.Equal(decimal.RequireFromString(avail)) || !b.Frozen.Equal(decimal.RequireFromString(frozen)) {
			t.Fatalf("alice BTC %s/%s, want %s/%s", b.Available, b.Frozen, avail, frozen)
		}
	}
	a := tradeCall(t, h, p+"/order/create", "ta", map[string]any{"symbol": "btcusdt", "side": "SELL", "type": "LIMIT", "price": "30000", "volume": "0.5"})
	var first OrderCreateResp
	_ = json.Unmarshal(a.Data, &first)
	a = tradeCall(t, h, p+"/order/create", "ta", map[string]any{"symbol": "btcusdt", "side": "SELL", "type": "LIMIT", "price": "30000", "volume": "0.2"})
	var second OrderCreateResp
	_ = json.Unmarshal(a.Data, &second)
	if first.OrderID == "" || second.OrderID == "" {
		t.Fatalf("create: %+v", a)
	}
	wantBTC("0.3", "0.7")

	if a := tradeCall(t, h, p+"/order/amend", "ta", map[string]any{"symbol": "btcusdt", "order_id": first.OrderID, "volume": 0.3}); a.Code != "0" {
		t.Fatalf("amend: %+v", a)
	}
	wantBTC("0.5", "0.5")
	for _, c := range []struct {
		token string
		body  map[string]any
		code  string
	}{
		{"ta", map[string]any{"order_id": first.OrderID, "volume": "0.4"}, apperr.CodeTradeAmendVolume}, // above the amended 0.3
		{"ta", map[string]any{"order_id": first.OrderID, "volume": "0.3"}, apperr.CodeTradeAmendVolume},
		{"ta", map[string]any{"order_id": first.OrderID, "volume": "0.0000001"}, apperr.CodeTradeVolumeLot},
		{"ta", map[string]any{"order_id": first.OrderID}, apperr.CodeParam},
		{"tb", map[string]any{"order_id": first.OrderID, "volume": "0.1"}, apperr.CodeTradeOrderNotFound},
		{"ta", map[string]any{"symbol": "ethusdt", "order_id": first.OrderID, "volume": "0.1"}, apperr.CodeTradeOrderNotFound},
		{"", map[string]any{"order_id": first.OrderID, "volume": "0.1"}, apperr.CodeNotSignedIn},
	} {
		if a := tradeCall(t, h, p+"/order/amend", c.token, c.body); a.Code != c.code {
			t.Errorf("amend %v by %q: %+v, want %s", c.body, c.token, a, c.code)
		}
	}
	var open OrderList
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/list/new", "ta", map[string]any{}).Data, &open)
	vols := map[string]string{}
	for _, o := range open.OrderList {
		vols[o.OrderID] = o.Volume
	}
	if open.Count != 2 || vols[first.OrderID] != "0.3" || vols[second.OrderID] != "0.2" {
		t.Fatalf("open orders after the amend: %+v", open)
	}
	// The amended order kept its place: bob's 0.3 fills it, not the later one.
	if a := tradeCall(t, h, p+"/order/create", "tb", map[string]any{"symbol": "btcusdt", "side": "BUY", "type": "LIMIT", "price": "30000", "volume": "0.3"}); a.Code != "0" {
		t.Fatalf("bob's buy: %+v", a)
	}
	wantBTC("0.5", "0.2")
	var hist OrderList
	_ = json.Unmarshal(tradeCall(t, h, p+"/order/entrust_history", "ta", map[string]any{}).Data, &hist)
	if hist.Count != 1 || hist.OrderList[0].OrderID != first.OrderID || hist.OrderList[0].StatusText != "FILLED" ||
		hist.OrderList[0].Volume != "0.3" || hist.OrderList[0].DealVolume != "0.3" {
		t.Fatalf("alice's finished orders %+v", hist)
	}
	// A finished order answers as a cancel of it does.
	cancel := tradeCall(t, h, p+"/order/cancel", "ta", map[string]any{"order_id": first.OrderID})
	amend := tradeCall(t, h, p+"/order/amend", "ta", map[string]any{"order_id": first.OrderID, "volume": "0.1"})
	if cancel.Code != apperr.CodeTradeOrderFinished || amend.Code != cancel.Code {
		t.Fatalf("finished order: cancel %+v, amend %+v", cancel, amend)
	}

	doc, err := json.Marshal(OpenAPI("Tenger API", "test", h.Routes()))
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Paths map[string]map[string]struct {
			Summary     string `json:"summary"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]any `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil {
		t.Fatal(err)
	}
	op, ok := parsed.Paths[p+"/order/amend"]["post"]
	props := op.RequestBody.Content["application/json"].Schema.Properties
	if !ok || op.Summary == "" || props["volume"] == nil || props["order_id"] == nil {
		t.Fatalf("OpenAPI entry of /order/amend: %+v", op)
	}
}

// Paging out of bounds is a parameter error on every order list; a page
// number whose offset overflowed used to crash /order/list/new.
func TestTradeListPaging(t *testing.T) {
	h, _, _ := newTradeEnv(t)
	const p = "/fe-ex-api"
	if a := tradeCall(t, h, p+"/order/create", "ta", map[string]any{"symbol": "btcusdt", "side": "SELL", "type": "LIMIT", "price": "30000", "volume": "0.2"}); a.Code != "0" {
		t.Fatalf("create: %+v", a)
	}
	for _, path := range []string{"/order/list/new", "/order/entrust_history", "/order/entrust_search", "/order/trade_info_search"} {
		for _, body := range []map[string]any{
			{"page": 4611686018427387904}, {"page": "9223372036854775807"}, {"page": 0}, {"page": -1}, {"page": 100001},
			{"pageSize": 0}, {"pageSize": -1}, {"pageSize": 10000},
		} {
			if a := tradeCall(t, h, p+path, "ta", body); a.Code != apperr.CodeParam {
				t.Errorf("%s %v: %+v", path, body, a)
			}
		}
	}
	var open OrderList
	a := tradeCall(t, h, p+"/order/list/new", "ta", map[string]any{"page": 100000, "pageSize": 500})
	if _ = json.Unmarshal(a.Data, &open); a.Code != "0" || open.Count != 1 || len(open.OrderList) != 0 {
		t.Fatalf("last page: %+v", a)
	}
	a = tradeCall(t, h, p+"/order/list/new", "ta", map[string]any{"page": 1, "pageSize": 1})
	if _ = json.Unmarshal(a.Data, &open); a.Code != "0" || len(open.OrderList) != 1 {
		t.Fatalf("first page: %+v", a)
	}
}

func TestFeeRateRoute(t *testing.T) {
	h, _, _ := newTradeEnv(t)
	const p = "/fe-ex-api"
	a := tradeCall(t, h, p+"/order/fee_rate", "ta", map[string]any{})
	var fr FeeRateResp
	if a.Code != "0" || json.Unmarshal(a.Data, &fr) != nil {
		t.Fatalf("fee rate: %+v", a)
	}
	if fr.Maker != "0.001" || fr.Taker != "0.001" || fr.Volume30d != "0" || fr.FeeCoin {
		t.Fatalf("a new user's fee rates %+v, want the first tier, 0.1%% each", fr)
	}
	if a := tradeCall(t, h, p+"/order/fee_rate", "", map[string]any{}); a.Code != apperr.CodeNotSignedIn {
		t.Fatalf("anonymous fee rate: %+v", a)
	}
}
