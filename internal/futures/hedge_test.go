package futures_test

import (
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/futures"
)

// Hedge position mode through the service: the mode is the user's in
// every contract and changes only with nothing open; a long and a short
// of one contract at once, listed as two positions; closing one side by
// positionSide (an order and closePosition), a margin change on a side,
// closing everything; and the errors for a side in the wrong mode.
func TestHedgeModeService(t *testing.T) {
	e := newEnv(t)
	e.user("1001", "20000") // hedging
	e.user("1002", "20000") // the other side
	e.index("50000")
	cfg, err := e.svc.SetPositionMode(ctx, "1001", "", futures.PositionHedge)
	if err != nil || cfg.PositionMode != futures.PositionHedge || cfg.Symbol != "BTCUSDT" {
		t.Fatalf("hedge mode: %+v %v", cfg, err)
	}
	if _, err := e.svc.SetPositionMode(ctx, "1001", "", 3); err == nil {
		t.Fatal("mode 3 accepted")
	} else {
		wantCode(t, err, apperr.CodeFuturesPositionMode)
	}
	if cfg, _ := e.svc.UserConfig(ctx, "1001", "ETHUSDT"); cfg.PositionMode != futures.PositionHedge {
		t.Fatalf("the mode is per user, not per contract: %+v", cfg)
	}
	// A side is needed in hedge mode and refused in one-way mode.
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "1000"})
	wantCode(t, err, apperr.CodeFuturesPositionSide)
	_, err = e.svc.PlaceOrder(ctx, "1002", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "1000",
		PositionSide: "LONG"})
	wantCode(t, err, apperr.CodeFuturesPositionSide)
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "1000",
		PositionSide: "UP"})
	wantCode(t, err, apperr.CodeFuturesPositionSide)
	// Long 1 BTC and short 0.5 BTC at 50,000.
	e.order("1002", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50000", Volume: "1000"})
	long := e.order("1001", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "1000", PositionSide: "LONG"})
	e.order("1002", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "500"})
	e.order("1001", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50000", Volume: "500", PositionSide: "SHORT"})
	if long.PositionSide != futures.PositionLong || long.Status != futures.StatusFilled {
		t.Fatalf("long order %+v", long)
	}
	a := e.assets("1001")
	sides := map[string]futures.PositionView{}
	for _, p := range a.Positions {
		sides[p.PositionSide] = p
	}
	if len(a.Positions) != 2 || sides["LONG"].Volume != 1000 || sides["LONG"].Side != "LONG" || sides["SHORT"].Volume != 500 ||
		sides["SHORT"].Side != "SHORT" {
		t.Fatalf("positions %+v", a.Positions)
	}
	if _, err := e.svc.SetPositionMode(ctx, "1001", "", futures.PositionOneWay); err == nil {
		t.Fatal("mode changed with positions open")
	} else {
		wantCode(t, err, apperr.CodeFuturesPositionModeLocked)
	}
	// A closing order is reduce-only: not more than the side holds.
	_, err = e.svc.PlaceOrder(ctx, "1001", futures.PlaceRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", Price: "49000", Volume: "501",
		PositionSide: "SHORT"})
	wantCode(t, err, apperr.CodeFuturesReduceOnly)
	// Margin moves on a side (isolated only: cross here, refused), and
	// a side is needed.
	_, err = e.svc.ChangeMargin(ctx, "1001", "BTCUSDT", "", d("10"), true)
	wantCode(t, err, apperr.CodeFuturesPositionSide)
	_, err = e.svc.ChangeMargin(ctx, "1001", "BTCUSDT", "LONG", d("10"), true)
	wantCode(t, err, apperr.CodeFuturesNoPosition)
	// The short closes at market into a resting ask; the long stays.
	e.order("1002", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50100", Volume: "500"})
	closed := e.order("1001", futures.PlaceRequest{ClosePosition: true, PositionSide: "SHORT"})
	if closed.Side != futures.Buy || closed.DealVolume != 500 || closed.PositionSide != futures.PositionShort || !closed.ReduceOnly {
		t.Fatalf("close short %+v", closed)
	}
	if a = e.assets("1001"); len(a.Positions) != 1 || a.Positions[0].PositionSide != "LONG" {
		t.Fatalf("after closing the short %+v", a.Positions)
	}
	hist, err := e.svc.ClosedPositions(ctx, "1001", "BTCUSDT", 1, 10)
	if err != nil || len(hist.List) != 1 || hist.List[0].PositionSide != "SHORT" || hist.List[0].Side != "SHORT" {
		t.Fatalf("history %+v %v", hist, err)
	}
	// A take-profit of the long: its side is shown as the one that closes.
	tp, err := e.svc.CreateTrigger(ctx, "1001", futures.TriggerRequest{Symbol: "BTCUSDT", TriggerPrice: "55000", ClosePosition: true,
		PositionSide: "LONG"})
	if err != nil || tp.Side != futures.Sell || tp.PositionSide != "LONG" {
		t.Fatalf("take-profit %+v %v", tp, err)
	}
	if _, err := e.svc.SetPositionMode(ctx, "1001", "", futures.PositionOneWay); err == nil {
		t.Fatal("mode changed with a trigger armed")
	}
	if _, err := e.svc.CancelTrigger(ctx, "1001", tp.TriggerID); err != nil {
		t.Fatal(err)
	}
	// Close everything: the long goes into a bid; then the mode can change.
	e.order("1002", futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "49900", Volume: "1000"})
	if _, err := e.svc.CloseAll(ctx, "1001", ""); err != nil {
		t.Fatal(err)
	}
	if a = e.assets("1001"); len(a.Positions) != 0 {
		t.Fatalf("after closing all %+v", a.Positions)
	}
	if cfg, err := e.svc.SetPositionMode(ctx, "1001", "BTCUSDT", futures.PositionOneWay); err != nil || cfg.PositionMode != futures.PositionOneWay {
		t.Fatalf("back to one-way: %+v %v", cfg, err)
	}
	if problems, err := e.rt.Verify(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("verify: %v %v", problems, err)
	}
}

// The auto-deleveraging indicator: the price loop ranks each side's
// positions (every ADLEvery) and a position's level is the fifth of its
// queue it stands in: of three equally profitable longs, the one with
// the least equity behind it (the highest effective leverage) is
// deleveraged first (5), the one with the most last (1); the lone short
// heads its own queue.
func TestADLIndicator(t *testing.T) {
	e := newEnv(t)
	e.user("1001", "1000")
	e.user("1002", "5000")
	e.user("1003", "20000")
	e.user("1004", "20000")
	e.index("50000")
	e.order("1004", futures.PlaceRequest{Side: "SELL", Type: "LIMIT", Price: "50000", Volume: "300"})
	for _, uid := range []string{"1001", "1002", "1003"} {
		e.order(uid, futures.PlaceRequest{Side: "BUY", Type: "LIMIT", Price: "50000", Volume: "100"})
	}
	// The last ranking (at the first step) had no position: no level yet.
	if a := e.assets("1001"); len(a.Positions) != 1 || a.Positions[0].ADLLevel != 0 {
		t.Fatalf("before a ranking %+v", a.Positions)
	}
	e.clk.Add(futures.ADLEvery)
	e.index("52000")
	for uid, want := range map[string]int{"1001": 5, "1002": 2, "1003": 1, "1004": 5} {
		if a := e.assets(uid); len(a.Positions) != 1 || a.Positions[0].ADLLevel != want {
			t.Fatalf("%s: %+v, want level %d", uid, a.Positions, want)
		}
	}
}
