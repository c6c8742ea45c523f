package risk

import (
	"bytes"
	"testing"

	"tenger/internal/matching"
)

// sideOrder places a limit order on a position side (hedge mode) and
// answers R1's result; the reduce-only orders the fills leave without a
// position are cancelled after it, as the engine does.
func (e *futEnv) sideOrder(user uint64, side matching.Side, pos PosSide, qty, price int64, ro bool) (uint64, Result) {
	e.seq++
	c := matching.Command{Kind: matching.CmdPlace, OrderID: e.seq, UserID: user, Symbol: btcPerp, Side: side, Type: matching.Limit,
		TIF: matching.GTC, Price: price, Qty: qty}
	if r := e.f.Place(&c, FuturesSpec{Maker: 20_000, Taker: 50_000, PosSide: pos, ReduceOnly: ro}); r != OK {
		return 0, r
	}
	e.apply(&c)
	e.trims()
	return c.OrderID, OK
}

// trims cancels what TakeTrims lists.
func (e *futEnv) trims() []OrderRef {
	refs := e.f.TakeTrims(nil)
	for _, o := range refs {
		e.cancel(o.User, o.OrderID)
	}
	return refs
}

func (e *futEnv) posOn(user uint64, side PosSide) PositionView {
	v, _ := e.f.Position(user, btcPerp, side)
	return v
}

// Hedge mode: a long and a short of one contract at once, each with its
// own margin; a sell on the long side closes it (reduce-only by nature,
// never beyond it); orders must name a side of the user's mode; the mode
// changes only with nothing open; leverage is set on both sides.
func TestFuturesHedgeMode(t *testing.T) {
	e := newFutEnv(t, 3)
	e.fund(1, 40_000)
	e.fund(2, 20_000)
	e.f.Mark(btcPerp, 50_000_00, nil)
	s1 := e.acct.Slot(1)
	if r := e.f.SetPositionMode(s1, true); r != OK || !e.f.Hedge(s1) {
		t.Fatalf("hedge mode: %s", r)
	}
	// One-way orders are refused in hedge mode, and sides in one-way mode.
	if _, r := e.sideOrder(1, matching.Buy, PosBoth, 1_000, 50_000_00, false); r != BadPositionSide {
		t.Fatalf("no side in hedge mode: %s", r)
	}
	if _, r := e.sideOrder(2, matching.Buy, PosLong, 1_000, 50_000_00, false); r != BadPositionSide {
		t.Fatalf("a side in one-way mode: %s", r)
	}
	// Long 1 BTC and short 1 BTC at 50,000 (user 2 on the other side of both).
	if _, r := e.sideOrder(2, matching.Sell, PosBoth, 1_000, 50_000_00, false); r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(1, matching.Buy, PosLong, 1_000, 50_000_00, false); r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(2, matching.Buy, PosBoth, 1_000, 50_000_00, false); r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(1, matching.Sell, PosShort, 1_000, 50_000_00, false); r != OK {
		t.Fatal(r)
	}
	long, short := e.posOn(1, PosLong), e.posOn(1, PosShort)
	if long.Qty != 1_000 || short.Qty != -1_000 || long.Margin != 2_500*unit || short.Margin != 2_500*unit {
		t.Fatalf("long %+v, short %+v", long, short)
	}
	if v, ok := e.f.Position(1, btcPerp, PosBoth); ok && v.Qty != 0 {
		t.Fatalf("one-way position in hedge mode: %+v", v)
	}
	e.check()
	// Nothing changes the mode while they are open.
	if r := e.f.SetPositionMode(s1, false); r != ModeLocked {
		t.Fatalf("mode with positions: %s", r)
	}
	// A sell on the long side closes: no more than the long has.
	if _, r := e.sideOrder(1, matching.Sell, PosLong, 1_001, 51_000_00, false); r != ReduceOnly {
		t.Fatalf("closing beyond the long: %s", r)
	}
	closeID, r := e.sideOrder(1, matching.Sell, PosLong, 600, 51_000_00, false)
	if r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(1, matching.Sell, PosLong, 401, 51_000_00, false); r != ReduceOnly {
		t.Fatalf("closing more than the other closing order leaves: %s", r)
	}
	// Leverage is the same on both sides; not with an order open.
	if r := e.f.SetLeverage(s1, btcPerp, 5); r != ModeLocked {
		t.Fatalf("leverage with an open order: %s", r)
	}
	e.cancel(1, closeID)
	if r := e.f.SetLeverage(s1, btcPerp, 5); r != OK {
		t.Fatal(r)
	}
	if long, short = e.posOn(1, PosLong), e.posOn(1, PosShort); long.Leverage != 5 || short.Leverage != 5 ||
		long.Margin != 10_000*unit || short.Margin != 10_000*unit {
		t.Fatalf("5×: long %+v, short %+v", long, short)
	}
	e.check()
	// User 2 buys 0.6 BTC at 51,000 from the long's closing order: the
	// long realizes 600, the short is untouched.
	if _, r := e.sideOrder(1, matching.Sell, PosLong, 600, 51_000_00, false); r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(2, matching.Buy, PosBoth, 600, 51_000_00, false); r != OK {
		t.Fatal(r)
	}
	if long, short = e.posOn(1, PosLong), e.posOn(1, PosShort); long.Qty != 400 || short.Qty != -1_000 {
		t.Fatalf("after the close: long %+v, short %+v", long, short)
	}
	e.check()
	// The snapshot keeps the sides and the mode.
	var buf bytes.Buffer
	if err := e.f.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := RestoreFutures(&buf, e.acct)
	if err != nil {
		t.Fatal(err)
	}
	if back.StateHash() != e.f.StateHash() || !back.Hedge(s1) {
		t.Fatal("the snapshot lost the hedge state")
	}
	if v, _ := back.Position(1, btcPerp, PosShort); v.Qty != -1_000 {
		t.Fatalf("restored short %+v", v)
	}
}

// A reduce-only order never opens a position: when the position turns or
// shrinks under it, the engine cancels the reduce-only orders that no
// longer fit (the newest first), and only those.
func TestFuturesReduceOnlyTrimmed(t *testing.T) {
	e := newFutEnv(t, 3)
	e.fund(1, 20_000)
	e.fund(2, 20_000)
	e.f.Mark(btcPerp, 50_000_00, nil)
	// User 1 long 1 BTC.
	e.order(2, matching.Sell, 1_000, 50_000_00, matching.GTC)
	e.order(1, matching.Buy, 1_000, 50_000_00, matching.GTC)
	// Two reduce-only sells of 0.4 BTC, then a plain sell of 0.5 BTC:
	// the newest reduce-only one no longer fits (0.4 + 0.4 > 1 − 0.5).
	old, _ := e.sideOrder(1, matching.Sell, PosBoth, 400, 55_000_00, true)
	newer, _ := e.sideOrder(1, matching.Sell, PosBoth, 400, 56_000_00, true)
	if _, r := e.sideOrder(1, matching.Sell, PosBoth, 500, 54_000_00, false); r != OK {
		t.Fatal(r)
	}
	p := e.f.pos[e.f.indexOf(&position{slot: e.acct.Slot(1), con: 0})]
	if p.roSell != 400 || p.openSell != 900 {
		t.Fatalf("after the plain sell: %+v (kept %d, cancelled %d?)", p, old, newer)
	}
	e.check()
	// The plain sell fills and turns nothing; a buy of 1 BTC at 56,000
	// by user 2 takes the plain sell and the old reduce-only one: the
	// position is 0.1 BTC long.
	if _, r := e.sideOrder(2, matching.Buy, PosBoth, 900, 55_000_00, false); r != OK {
		t.Fatal(r)
	}
	if v := e.pos(1); v.Qty != 100 {
		t.Fatalf("position %+v", v)
	}
	e.check()
	// Turned: user 1 sells 0.5 BTC at market into user 2's bid; a
	// reduce-only sell of 0.1 BTC placed before it would now add to the
	// short: cancelled.
	if _, r := e.sideOrder(1, matching.Sell, PosBoth, 100, 60_000_00, true); r != OK {
		t.Fatal(r)
	}
	if _, r := e.sideOrder(2, matching.Buy, PosBoth, 500, 50_000_00, false); r != OK {
		t.Fatal(r)
	}
	e.seq++
	turn := matching.Command{Kind: matching.CmdPlace, OrderID: e.seq, UserID: 1, Symbol: btcPerp, Side: matching.Sell,
		Type: matching.Limit, TIF: matching.IOC, Price: 50_000_00, Qty: 500}
	if r := e.f.Place(&turn, FuturesSpec{Maker: 20_000, Taker: 50_000}); r != OK {
		t.Fatal(r)
	}
	e.apply(&turn)
	trimmed := e.trims()
	if v := e.pos(1); v.Qty != -400 || len(trimmed) != 1 {
		t.Fatalf("turned to %+v, trimmed %+v", v, trimmed)
	}
	e.check()
}
