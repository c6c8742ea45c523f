package projector

import (
	"context"
	"testing"

	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
)

const (
	btcPerp = 1<<31 | 1
	oneUSDT = 100_000_000
)

func futOrder(id, user uint64, side matching.Side, price, qty int64) engine.Command {
	return engine.Command{Kind: engine.KindPlace, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, UserID: user,
		Symbol: btcPerp, Side: side, Type: matching.Limit, TIF: matching.GTC, Price: price, Qty: qty},
		Spec: risk.OrderSpec{Kind: risk.KindFutures, Maker: 20_000, Taker: 50_000}}
}

func futCmd(kind engine.Kind, user uint64, amount int64) engine.Command {
	return engine.Command{Kind: kind, User: user, UserID: uid(user), Amount: amount, Order: matching.Command{Symbol: btcPerp}}
}

// TestFuturesProjectionAuditsClean: margin moved into the futures account,
// a 10× isolated long against a cross short, a mark that liquidates the
// long into a bid (its loss paid into settlement, the rest of its margin
// to the insurance fund as the liquidation fee), a funding round and
// margin moved back to spot: the
// store holds every futures balance as the engine does, the settlement
// balance and the insurance fund as accounts of their own, and the audit
// of the postings is clean.
func TestFuturesProjectionAuditsClean(t *testing.T) {
	e := newEnv(t)
	e.submit(engine.Command{Kind: engine.KindAddContract, Contract: engine.ContractSpec{Symbol: btcPerp, Name: "BTCUSDT", Quote: "USDT",
		TickValue: 10_000, MaxPrice: 100_000_000, Maker: 20_000, Taker: 50_000, LiqFee: 1_250_000,
		Tiers: []perp.Tier{{Cap: 50_000 * oneUSDT, MMR: 400_000, MaxLeverage: 125}, {Cap: 250_000 * oneUSDT, MMR: 500_000, MaxLeverage: 100}},
		Book:  matching.BookConfig{Symbol: btcPerp, MaxPrice: 100_000_000, MaxQty: 1_000_000}}})
	for u := uint64(1); u <= 3; u++ {
		e.submit(deposit("dep:"+uid(u), u, "USDT", 10_000*oneUSDT))
		e.submit(engine.Command{Kind: engine.KindFutTransfer, Ref: "in:" + uid(u), User: u, UserID: uid(u), Coin: "USDT",
			Amount: 6_000 * oneUSDT, Account: risk.KindFutures})
	}
	e.submit(futCmd(engine.KindFutMarginMode, 1, 1))
	e.submit(futCmd(engine.KindFutLeverage, 1, 10))
	e.submit(futCmd(engine.KindFutLeverage, 2, 10))
	e.submit(futCmd(engine.KindFutLeverage, 3, 10))
	e.submit(futOrder(1, 2, matching.Sell, 500_000, 1_000)) // 1 BTC at 50,000.0
	e.submit(futOrder(2, 1, matching.Buy, 500_000, 1_000))
	e.submit(futOrder(3, 3, matching.Buy, 451_000, 1_000)) // a bid the liquidation sells into
	e.submit(futCmd(engine.KindMark, 0, 451_500))          // below the long's 45,180.7
	e.submit(futCmd(engine.KindLiquidate, 1, 1))
	e.submit(futCmd(engine.KindLiquidate, 1, 2))
	e.eng.Read(func(s *engine.State) {
		if p, _ := s.Futures().Position(1, btcPerp, risk.PosBoth); p.Qty != 0 {
			t.Fatalf("the long was not liquidated: %+v", p)
		}
	})
	e.submit(futCmd(engine.KindMark, 0, 460_000))
	e.submit(engine.Command{Kind: engine.KindFunding, Ref: "funding:BTCUSDT:1", Amount: 10_000, Order: matching.Command{Symbol: btcPerp}})
	e.submit(engine.Command{Kind: engine.KindFutTransfer, Ref: "out:3", User: 3, UserID: uid(3), Coin: "USDT",
		Amount: 100 * oneUSDT, Account: risk.KindSpot})
	if e.err != nil {
		t.Fatal(e.err)
	}
	var settle, fund int64
	e.eng.Read(func(s *engine.State) {
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		a := s.Accounts()
		for i, c := range a.Coins() {
			for _, u := range a.Users() {
				for _, k := range []risk.Kind{risk.KindSpot, risk.KindFutures} {
					want := a.Get(u.Num, k, risk.Coin(i))
					got := e.storedBalance(Account(u.ID, k), c.Code)
					if !got.Available.Equal(units(want.Avail, c.Decimals)) || !got.Frozen.Equal(units(want.Held, c.Decimals)) {
						t.Fatalf("%s %d %s: store %s/%s, engine %d/%d", u.ID, k, c.Code, got.Available, got.Frozen, want.Avail, want.Held)
					}
				}
			}
			if c.Code == "USDT" {
				settle, fund = s.Futures().Settlement(risk.Coin(i)), s.Futures().Insurance(btcPerp)
			}
		}
	})
	// The long lost 4,900 (50,000 − 45,100) into settlement; the 100 of
	// margin left went to the fund.
	if settle != 4_900*oneUSDT || fund != 100*oneUSDT {
		t.Fatalf("settlement %d, insurance %d", settle, fund)
	}
	if got := e.storedBalance(ledger.SettlementAccount(), "USDT"); !got.Available.Equal(units(settle, 8)) {
		t.Fatalf("settlement stored %s, engine %d", got.Available, settle)
	}
	if got := e.storedBalance(ledger.InsuranceAccount("BTCUSDT"), "USDT"); !got.Available.Equal(units(fund, 8)) {
		t.Fatalf("insurance stored %s, engine %d", got.Available, fund)
	}
	rep, err := e.led.Audit(context.Background(), "BTC", "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
	t.Logf("settlement %d, insurance %d, postings %d", settle, fund, rep.Postings)
}
