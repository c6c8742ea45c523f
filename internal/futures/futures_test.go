package futures_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/contracts"
	"tenger/internal/futures"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/perp"
	"tenger/internal/spot"
	"tenger/internal/spotfunds"
	"tenger/internal/store/embedded"
)

var ctx = context.Background()

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type env struct {
	t     *testing.T
	clk   *clock
	rt    *spot.Runtime
	fut   *futures.Runtime
	svc   *futures.Service
	funds spotfunds.Engine
	led   *ledger.Ledger
}

func newEnv(t *testing.T) *env { return newEnvWith(t, nil) }

// newEnvWith is newEnv with the runtime's options changed by opt (a push
// port, say).
func newEnvWith(t *testing.T, opt func(*futures.Options)) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	cc, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	decimals := func(coin string) int32 { d, _ := spot.CoinDecimals(cc, coin); return d }
	clk := &clock{now: time.Date(2026, 12, 7, 7, 59, 0, 0, time.UTC)}
	cat := contracts.Defaults()
	fo := futures.Options{Contracts: cat, Decimals: decimals, Store: st, Every: -1, Now: clk.Now, Log: zerolog.Nop()}
	if opt != nil {
		opt(&fo)
	}
	fr, err := futures.New(fo)
	if err != nil {
		t.Fatal(err)
	}
	ro := spot.RuntimeOptions{Dir: t.TempDir(), Store: st, Coins: cc, Markets: markets.Defaults(), Counter: spotfunds.Counter,
		SnapshotEvery: -1, Log: zerolog.Nop(), Now: clk.Now}
	fr.EngineOptions(&ro)
	rt, err := spot.StartRuntime(ctx, ro)
	if err != nil {
		t.Fatal(err)
	}
	if err := fr.Start(ctx, rt); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fr.Close()
		_ = rt.Close()
	})
	e := &env{t: t, clk: clk, rt: rt, fut: fr, led: ledger.New(st, nil), funds: spotfunds.Engine{Submit: rt, Decimals: rt.Decimals},
		svc: futures.NewService(futures.ServiceOptions{Store: st, Contracts: cat, Engine: rt, Decimals: decimals, Now: clk.Now})}
	return e
}

// user deposits USDT to spot, moves it into futures and opens the account.
func (e *env) user(uid string, usdt string) {
	e.t.Helper()
	if err := e.funds.Credit(ctx, spotfunds.Move{Ref: "dep:" + uid, UID: uid, Coin: "USDT", Amount: d(usdt), Other: ledger.ChainAccount("TRC20")}); err != nil {
		e.t.Fatal(err)
	}
	if err := e.funds.Futures(ctx, spotfunds.Move{Ref: "in:" + uid, UID: uid, Coin: "USDT", Amount: d(usdt)}, true); err != nil {
		e.t.Fatal(err)
	}
	if err := e.svc.Open(ctx, uid); err != nil {
		e.t.Fatal(err)
	}
}

// index moves the simulator's index and runs the price loop once.
func (e *env) index(price string) {
	e.t.Helper()
	if err := e.fut.SetDevIndex("BTCUSDT", d(price)); err != nil {
		e.t.Fatal(err)
	}
	e.clk.Add(time.Second)
	if err := e.fut.Step(ctx); err != nil {
		e.t.Fatal(err)
	}
	// The store shows what the step sent (and engine and store agree).
	if problems, err := e.rt.Verify(ctx); err != nil || len(problems) > 0 {
		e.t.Fatalf("verify: %v %v", problems, err)
	}
}

func (e *env) order(uid string, r futures.PlaceRequest) futures.Order {
	e.t.Helper()
	r.Symbol = "BTCUSDT"
	o, err := e.svc.PlaceOrder(ctx, uid, r)
	if err != nil {
		e.t.Fatalf("%s %+v: %v", uid, r, err)
	}
	return o
}

func (e *env) assets(uid string) futures.Assets {
	e.t.Helper()
	a, err := e.svc.Assets(ctx, uid)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// wantCode checks an error's catalogue code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil || apperr.As(err).Entry.Code != code {
		t.Fatalf("error %v, want %s", err, code)
	}
}

// The journey on the service: a 10× isolated long of 1 BTC at
// 50,000 shows its liquidation price; the index falls and the position is
// liquidated into a resting bid, its loss paid into settlement and its
// margin's rest to the insurance fund; a funding round moves exactly the
// computed amounts between the remaining long and short; the audit is
// clean and the engine and the store agree.
func TestIsolatedLongLiquidatedAndFunding(t *testing.T) {
	e := newEnv(t)
	e.user("1001", "10000") // the long
	e.user("1002", "10000") // the short
	e.user("1003", "10000") // the bid the liquidation sells into
	e.index("50000")
	if m, _ := e.svc.MarketInfo(ctx, "BTCUSDT", nil); m.MarkPrice != "50000.0" || m.IndexPrice != "50000.0" {
		t.Fatalf("market info %+v", m)
	}
	// Bad input first: nothing changes.
	_, err := e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "50000.05", Volume: "10"})
	wantCode(t, err, apperr.CodeFuturesPrice)
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "60000", Volume: "10"})
	wantCode(t, err, apperr.CodeFuturesPriceBand)
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "1.5"})
	wantCode(t, err, apperr.CodeFuturesVolume)
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Volume: "5", ReduceOnly: true})
	wantCode(t, err, apperr.CodeFuturesReduceOnly)
	_, err = e.svc.PlaceOrder(ctx, "1009", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Volume: "5"})
	wantCode(t, err, apperr.CodeFuturesNotOpened)
	_, err = e.svc.SetLeverage(ctx, "1001", "BTCUSDT", 126)
	wantCode(t, err, apperr.CodeFuturesLeverage)

	if _, err := e.svc.SetMarginMode(ctx, "1001", "BTCUSDT", futures.MarginIsolated); err != nil {
		t.Fatal(err)
	}
	if cfg, err := e.svc.SetLeverage(ctx, "1001", "BTCUSDT", 10); err != nil || cfg.Leverage != 10 || cfg.MarginMode != futures.MarginIsolated {
		t.Fatalf("config %+v %v", cfg, err)
	}
	if _, err := e.svc.SetLeverage(ctx, "1002", "BTCUSDT", 10); err != nil {
		t.Fatal(err)
	}
	// A 10× long of 1 BTC (1,000 contracts of 0.001) against a resting short.
	e.order("1002", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50000", Volume: "1000"})
	o := e.order("1001", futures.PlaceRequest{Side: "BUY", Type: "MARKET", Volume: "1000"})
	if o.Status != futures.StatusFilled || o.AvgPrice != "50000.0" || o.Fee != "25.00000000" || o.Type != futures.TypeMarket {
		t.Fatalf("market buy %+v", o)
	}
	a := e.assets("1001")
	if len(a.Positions) != 1 {
		t.Fatalf("positions %+v", a.Positions)
	}
	p := a.Positions[0]
	// Isolated long 1 BTC at 50,000 with 5,000 margin and 0.4 % MMR: 45,180.72, the highest 0.1 tick at or below it.
	if p.Side != "LONG" || p.Volume != 1000 || p.OpenPrice != "50000.0" || p.Margin != "5000.00000000" || p.Liquidation != "45180.7" {
		t.Fatalf("position %+v", p)
	}
	if acc := a.Accounts[0]; acc.WalletBalance != "9975.00000000" || acc.Available != "4975.00000000" || acc.PositionMargin != "5000.00000000" {
		t.Fatalf("account %+v", acc)
	}
	// Removing most of the margin would liquidate it: refused, nothing changed.
	_, err = e.svc.ChangeMargin(ctx, "1001", "BTCUSDT", "", d("4900"), false)
	wantCode(t, err, apperr.CodeFuturesWouldLiquidate)
	// Another user's order is not the caller's.
	_, err = e.svc.CancelOrder(ctx, "1002", "BTCUSDT", o.OrderID)
	wantCode(t, err, apperr.CodeFuturesOrderNotFound)

	e.order("1003", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "45100", Volume: "1000"})
	e.index("45150") // below 45,180.7: due
	deadline := time.Now().Add(5 * time.Second)
	for {
		if a = e.assets("1001"); len(a.Positions) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not liquidated: %+v", a.Positions)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Sold into the bid at 45,100: the loss of 4,900 and the fee left the
	// 5,000 of margin; the fund kept the 100 the loss left.
	if acc := a.Accounts[0]; acc.WalletBalance != "4975.00000000" {
		t.Fatalf("after the liquidation %+v", acc)
	}
	e.index("45150")
	if m, _ := e.svc.MarketInfo(ctx, "BTCUSDT", nil); m.InsuranceFund != "100" {
		t.Fatalf("insurance fund %+v", m)
	}
	if b, _ := e.led.Balance(ctx, ledger.InsuranceAccount("BTCUSDT"), "USDT"); !b.Available.Equal(d("100")) {
		t.Fatalf("the fund's ledger account %+v", b)
	}
	hist, err := e.svc.HistoryOrders(ctx, "1001", "", 1, 20)
	if err != nil || hist.Count != 2 || !hist.List[0].Liquidation || hist.List[0].Status != futures.StatusFilled || hist.List[0].AvgPrice != "45100.0" {
		t.Fatalf("history %+v %v", hist, err)
	}

	// Funding at 08:00: the long (1003) pays the short (1002) the round's
	// rate on the value at the mark.
	before2, before3 := e.wallet("1002"), e.wallet("1003")
	e.clk.Add(2 * time.Minute)
	e.index("45150")
	m, _ := e.svc.MarketInfo(ctx, "BTCUSDT", nil)
	rate := d(m.LastFundingRate)
	if rate.IsZero() {
		t.Fatalf("no funding round: %+v", m)
	}
	g, _ := contracts.Defaults().List()[0].Grid(8)
	amt, err := perp.Funding(perp.Position{Side: perp.Long, Qty: 1000, Cost: 45_100 * 100_000_000}, 451_500, g.TickValue, rate.Shift(8).IntPart())
	if err != nil {
		t.Fatal(err)
	}
	paid := decimal.New(amt, -8).Abs()
	if got := before3.Sub(e.wallet("1003")); !got.Equal(paid) {
		t.Fatalf("the long paid %s, want %s (rate %s)", got, paid, rate)
	}
	if got := e.wallet("1002").Sub(before2); !got.Equal(paid) {
		t.Fatalf("the short received %s, want %s", got, paid)
	}
	// The liquidated long is in the history: 50,000 in, 45,100 out.
	closed, err := e.svc.ClosedPositions(ctx, "1001", "BTCUSDT", 1, 10)
	if err != nil || closed.Count != 1 || !closed.List[0].Liquidated || closed.List[0].OpenPrice != "50000.0" ||
		closed.List[0].ClosePrice != "45100.0" || closed.List[0].RealizedPnl != "-4900.00000000" || closed.List[0].Side != "LONG" {
		t.Fatalf("closed positions %+v %v", closed, err)
	}
	st, err := e.svc.Statistics(ctx, "1002", "", 7)
	if err != nil || st.Trades != 1 || st.Funding == "0.00000000" || st.Fee != "10.00000000" {
		t.Fatalf("statistics %+v %v", st, err)
	}
	// The engine and the store agree; the books audit clean.
	problems, err := e.rt.Verify(ctx)
	if err != nil || len(problems) > 0 {
		t.Fatalf("verify: %v %v", problems, err)
	}
	rep, err := e.led.Audit(ctx, "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
}

// wallet is a user's futures wallet balance as the store shows it.
func (e *env) wallet(uid string) decimal.Decimal {
	e.t.Helper()
	b, err := e.led.Balance(ctx, ledger.UserAccount(uid, ledger.Futures), "USDT")
	if err != nil {
		e.t.Fatal(err)
	}
	return b.Total()
}

// TP/SL: a position's take-profit and stop-loss arm on the mark; one at
// the price now is refused; another user's cancel is refused; the mark
// falling to the stop fires it (the engine answers it, the runtime sends
// the fire) and the position is closed at market into the book, the
// take-profit left waiting until cancelled.
func TestTakeProfitStopLoss(t *testing.T) {
	e := newEnv(t)
	e.user("2001", "10000")
	e.user("2002", "10000")
	e.index("50000")
	e.order("2002", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50000", Volume: "100"})
	e.order("2001", futures.PlaceRequest{Side: "BUY", Type: "MARKET", Volume: "100"})
	tp, err := e.svc.CreateTrigger(ctx, "2001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "55000", ClosePosition: true})
	if err != nil || tp.Direction != "RISE" || tp.Status != futures.TriggerWaiting || !tp.ClosePosition {
		t.Fatalf("take-profit %+v %v", tp, err)
	}
	sl, err := e.svc.CreateTrigger(ctx, "2001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "48000", ClosePosition: true})
	if err != nil || sl.Direction != "FALL" {
		t.Fatalf("stop-loss %+v %v", sl, err)
	}
	_, err = e.svc.CreateTrigger(ctx, "2001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "50000", ClosePosition: true})
	wantCode(t, err, apperr.CodeFuturesWouldTrigger)
	_, err = e.svc.CancelTrigger(ctx, "2002", sl.TriggerID)
	wantCode(t, err, apperr.CodeFuturesOrderNotFound)
	if l, _ := e.svc.Triggers(ctx, "2001", "", 1, 20); l.Count != 2 {
		t.Fatalf("waiting %+v", l)
	}
	e.order("2002", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "47900", Volume: "100"}) // the stop sells into this
	e.index("47950")
	deadline := time.Now().Add(5 * time.Second)
	for len(e.assets("2001").Positions) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the stop did not fire: %+v", e.assets("2001"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	got, err := e.svc.Trigger(ctx, "2001", sl.TriggerID)
	if err != nil || got.Status != futures.TriggerTriggered {
		t.Fatalf("stop after firing %+v %v", got, err)
	}
	o, err := e.svc.Order(ctx, "2001", sl.TriggerID)
	if err != nil || o.Status != futures.StatusFilled || o.AvgPrice != "47900.0" || o.Type != futures.TypeMarket || !o.ReduceOnly {
		t.Fatalf("the stop's order %+v %v", o, err)
	}
	if _, err := e.svc.CancelTrigger(ctx, "2001", tp.TriggerID); err != nil {
		t.Fatal(err)
	}
	hist, _ := e.svc.TriggerHistory(ctx, "2001", "BTCUSDT", 1, 20)
	if hist.Count != 2 || hist.List[0].Status == futures.TriggerWaiting || hist.List[1].Status == futures.TriggerWaiting {
		t.Fatalf("trigger history %+v", hist)
	}
	if l, _ := e.svc.Triggers(ctx, "2001", "", 1, 20); l.Count != 0 {
		t.Fatalf("still waiting %+v", l)
	}
}
