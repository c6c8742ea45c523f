package risk

import (
	"testing"

	"tenger/internal/matching"
	"tenger/internal/perp"
)

// Partial liquidation, tier by tier: an isolated 5× long of 3 BTC at
// 50,000 (150,000: the second tier, 2.5 %) reaches its liquidation
// price; its liquidation sells only what takes it back to the first
// tier's cap (50,000 at the mark), and what is left is no longer
// liquidatable at the first tier's 0.4 %. A position the lower tier would
// not save closes whole.
func TestFuturesPartialLiquidation(t *testing.T) {
	e := newFutEnv(t, 3)
	tiers, err := perp.NewTiers([]perp.Tier{
		{Cap: 50_000 * unit, MMR: 400_000, MaxLeverage: 125},
		{Cap: 250_000 * unit, MMR: 2_500_000, MaxLeverage: 20},
		{Cap: 1_000_000 * unit, MMR: 5_000_000, MaxLeverage: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.f.AddContract(FuturesContract{ID: btcPerp, Quote: e.usdt, TickValue: tickVal, MaxPrice: maxPrice, Tiers: tiers,
		Maker: 20_000, Taker: 50_000, LiqFee: 100_000}); err != nil { // 0.1 %
		t.Fatal(err)
	}
	e.fund(1, 40_000)
	e.fund(2, 40_000)
	e.fund(3, 200_000)
	s1 := e.acct.Slot(1)
	if r := e.f.SetMarginMode(s1, btcPerp, true); r != OK {
		t.Fatal(r)
	}
	if r := e.f.SetLeverage(s1, btcPerp, 5); r != OK {
		t.Fatal(r)
	}
	e.f.Mark(btcPerp, 50_000_00, nil)
	e.order(2, matching.Sell, 3_000, 50_000_00, matching.GTC)
	if _, r := e.order(1, matching.Buy, 3_000, 50_000_00, matching.GTC); r != OK {
		t.Fatal(r)
	}
	p := e.pos(1)
	if p.Qty != 3_000 || p.Margin != 30_000*unit {
		t.Fatalf("position %+v", p)
	}
	// equity 30,000 + 3 (P − 50,000) = 2.5 % × 3P − 1,050 at P = 40,666.66…
	if p.Liquidation != 40_666_66 {
		t.Fatalf("liquidation price %d", p.Liquidation)
	}
	due := e.f.Mark(btcPerp, p.Liquidation, nil)
	if len(due) != 1 || due[0].User != 1 {
		t.Fatalf("due %+v", due)
	}
	// A bid for the part sold, above the bankruptcy price.
	e.order(3, matching.Buy, 3_000, 40_600_00, matching.GTC)
	e.seq++
	c, keep, ok := e.f.LiquidationOrder(due[0], e.seq)
	// 50,000 ÷ 40.6667 (a contract at the mark) = 1,229 contracts kept.
	if !ok || keep != 1_229 || c.Qty != 3_000-1_229 || c.Side != matching.Sell {
		t.Fatalf("liquidation order %+v keep %d ok %v", c, keep, ok)
	}
	e.apply(&c)
	if taken, adl, _ := e.f.TakeOver(due[0], keep); taken != 0 || adl != 0 {
		t.Fatalf("taken over %d, deleveraged %d: the bid took the part sold", taken, adl)
	}
	p = e.pos(1)
	if p.Qty != 1_229 || p.Liquidation >= 40_666_66 {
		t.Fatalf("what is left %+v", p)
	}
	if again := e.f.Mark(btcPerp, 40_666_66, nil); len(again) != 0 {
		t.Fatalf("still due after the partial liquidation: %+v", again)
	}
	e.check()
	// Within the first tier there is no tier below: it closes whole.
	e.f.Mark(btcPerp, p.Liquidation, nil)
	e.seq++
	c, keep, ok = e.f.LiquidationOrder(PositionRef{User: 1, Contract: btcPerp}, e.seq)
	if !ok || keep != 0 || c.Qty != 1_229 {
		t.Fatalf("first tier: %+v keep %d ok %v", c, keep, ok)
	}
	e.apply(&c)
	e.f.TakeOver(PositionRef{User: 1, Contract: btcPerp}, keep)
	if p = e.pos(1); p.Qty != 0 {
		t.Fatalf("after the whole liquidation %+v", p)
	}
	e.check()
}
