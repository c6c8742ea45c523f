package projector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
	"tenger/internal/store/embedded"
)

// TestFuturesRandomWorkload drives the engine and its projection with
// random futures traffic: half the users in hedge position mode (a long
// and a short position each, orders naming theirs), transfers in and out,
// leverage and margin mode, limit, IOC and reduce-only orders, cancels,
// trigger orders, marks that
// wander (with the liquidations they make due, in their two steps, and
// the triggers they reach, fired), isolated margin moves and funding
// rounds. After it: the engine's invariants hold (no balance negative, the
// holds are what orders and positions hold), money is conserved (Σ
// wallets + fees + settlement + insurance = transferred in), the store
// shows every balance as the engine holds it, the ledger's audit is clean,
// and an engine opened again from the journal alone reaches the same
// state hash.
func TestFuturesRandomWorkload(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { futuresWorkload(t, seed, 1500) })
	}
}

func futuresWorkload(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dir := t.TempDir()
	var batches []*engine.Batch
	p := New(Options{Store: st, Counter: chainCounter})
	var perr error
	open := func(deliver bool) *engine.Engine {
		e, err := engine.Open(ctx, engine.Options{Dir: dir, Policy: journal.NoFsync, Log: zerolog.Nop(), MaxBatch: 16,
			Deliver: func(b *engine.Batch) {
				if !deliver {
					return
				}
				batches = append(batches, b)
				if err := p.Apply(ctx, b); err != nil && perr == nil {
					perr = err
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	e := open(true)
	rng := rand.New(rand.NewPCG(seed, seed*7+1))
	const users = 8
	var transferred int64
	submit := func(c engine.Command) engine.Result {
		r := e.Submit(ctx, c)
		if c.Kind == engine.KindFutTransfer && (r.Code == engine.OK) {
			if c.Account == risk.KindFutures {
				transferred += c.Amount
			} else {
				transferred -= c.Amount
			}
		}
		return r
	}
	for _, c := range []engine.Command{{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8}, {Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8},
		{Kind: engine.KindAddContract, Contract: engine.ContractSpec{Symbol: btcPerp, Name: "BTCUSDT", Quote: "USDT", TickValue: 10_000,
			MaxPrice: 100_000_000, Maker: 20_000, Taker: 50_000, LiqFee: 1_250_000, ADLFloor: 0,
			Tiers: []perp.Tier{{Cap: 50_000 * oneUSDT, MMR: 400_000, MaxLeverage: 125}, {Cap: 250_000 * oneUSDT, MMR: 500_000, MaxLeverage: 100},
				{Cap: 1_000_000 * oneUSDT, MMR: 1_000_000, MaxLeverage: 50}},
			Book: matching.BookConfig{Symbol: btcPerp, MaxPrice: 100_000_000, MaxQty: 1_000_000}}}} {
		e.Submit(ctx, c)
	}
	for u := uint64(1); u <= users; u++ {
		e.Submit(ctx, deposit("dep:"+uid(u), u, "USDT", 20_000*oneUSDT))
		submit(engine.Command{Kind: engine.KindFutTransfer, Ref: "in0:" + uid(u), User: u, UserID: uid(u), Coin: "USDT",
			Amount: 5_000 * oneUSDT, Account: risk.KindFutures})
		e.Submit(ctx, futCmd(engine.KindFutLeverage, u, 1+rng.Int64N(20)))
		if u > users/2 {
			if r := e.Submit(ctx, engine.Command{Kind: engine.KindPositionMode, User: u, UserID: uid(u), Amount: 1}); r.Code != engine.OK {
				t.Fatalf("hedge mode: %v", r.Code)
			}
		}
	}
	// posSide is a side of a hedge user's (the order's side, or the
	// other: a closing order), PosBoth for the others.
	posSide := func(u uint64, side matching.Side) risk.PosSide {
		if u <= users/2 {
			return risk.PosBoth
		}
		long := side == matching.Buy
		if rng.IntN(3) == 0 {
			long = !long
		}
		if long {
			return risk.PosLong
		}
		return risk.PosShort
	}
	mark := int64(500_000) // 50,000.0
	e.Submit(ctx, futCmd(engine.KindMark, 0, mark))
	var due []risk.PositionRef
	var reached []engine.TriggerRef
	nextID, funding := uint64(1), 0
	counts := map[engine.Code]int{}
	liquidated, fired := 0, 0
	for i := 0; i < steps; i++ {
		u := 1 + rng.Uint64N(users)
		var c engine.Command
		switch op := rng.IntN(100); {
		case op < 45:
			side := matching.Buy
			if rng.IntN(2) == 0 {
				side = matching.Sell
			}
			c = futOrder(nextID, u, side, mark+rng.Int64N(4_000)-2_000, 1+rng.Int64N(400))
			nextID++
			if rng.IntN(4) == 0 {
				c.Order.TIF = matching.IOC
			}
			c.Spec.ReduceOnly = rng.IntN(8) == 0
			c.Spec.PosSide = posSide(u, side)
		case op < 52:
			c = engine.Command{Kind: engine.KindCancel, User: u, UserID: uid(u), Order: matching.Command{OrderID: 1 + rng.Uint64N(nextID),
				UserID: u, Symbol: btcPerp}}
		case op < 60:
			// The mark wanders, sometimes far.
			mark = max(mark+rng.Int64N(12_000)-6_000, 100_000)
			if rng.IntN(20) == 0 {
				mark = max(mark+rng.Int64N(100_000)-50_000, 100_000)
			}
			c = futCmd(engine.KindMark, 0, mark)
		case op < 65:
			account := risk.KindFutures
			if rng.IntN(2) == 0 {
				account = risk.KindSpot
			}
			c = engine.Command{Kind: engine.KindFutTransfer, Ref: fmt.Sprintf("t%d", i), User: u, UserID: uid(u), Coin: "USDT",
				Amount: 1 + rng.Int64N(2_000*oneUSDT), Account: account}
		case op < 70:
			c = futCmd(engine.KindFutLeverage, u, 1+rng.Int64N(30))
		case op < 73:
			c = futCmd(engine.KindFutMarginMode, u, rng.Int64N(2))
		case op < 77:
			c = futCmd(engine.KindFutMargin, u, rng.Int64N(600*oneUSDT)-300*oneUSDT)
			c.Spec.PosSide = posSide(u, matching.Buy)
		case op < 80:
			funding++
			c = engine.Command{Kind: engine.KindFunding, Ref: fmt.Sprintf("funding:%d", funding), Amount: rng.Int64N(60_000) - 30_000,
				Order: matching.Command{Symbol: btcPerp}}
		case op < 90:
			c = futOrder(nextID, u, matching.Sell, 0, 0)
			nextID++
			c.Kind, c.Order.Type, c.Order.TIF = engine.KindTrigger, matching.Market, matching.IOC
			c.Trigger = engine.TriggerSpec{Price: mark + rng.Int64N(20_000) - 10_000, Close: rng.IntN(2) == 0, ByLast: rng.IntN(3) == 0}
			c.Trigger.Above = c.Trigger.Price > mark
			if !c.Trigger.Close {
				c.Order.Qty = 1 + rng.Int64N(100)
				if rng.IntN(2) == 0 {
					c.Order.Side = matching.Buy
				}
			}
			c.Spec.PosSide = posSide(u, c.Order.Side)
		default:
			c = engine.Command{Kind: engine.KindTriggerCancel, User: u, UserID: uid(u), Order: matching.Command{OrderID: 1 + rng.Uint64N(nextID),
				Symbol: btcPerp}}
		}
		counts[submit(c).Code]++
		// What the batches asked for: liquidations (two steps) and fires.
		for _, b := range batches {
			due = append(due, b.Liquidatable...)
			reached = append(reached, b.Triggered...)
		}
		batches = batches[:0]
		for len(due) > 0 || len(reached) > 0 {
			for _, d := range due {
				for _, step := range []int64{1, 2} {
					l := futCmd(engine.KindLiquidate, d.User, step)
					l.Spec.PosSide = d.Side
					submit(l)
				}
				liquidated++
			}
			for _, r := range reached {
				if submit(engine.Command{Kind: engine.KindTriggerFire, Order: matching.Command{OrderID: r.ID, Symbol: btcPerp}}).Code != engine.UnknownOrder {
					fired++
				}
			}
			due, reached = due[:0], reached[:0]
			for _, b := range batches {
				due = append(due, b.Liquidatable...)
				reached = append(reached, b.Triggered...)
			}
			batches = batches[:0]
		}
	}
	if perr != nil {
		t.Fatal(perr)
	}
	var hash uint64
	var usdtCoin risk.Coin
	e.Read(func(s *engine.State) {
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		usdtCoin, _ = s.Coin("USDT")
		if got := s.Futures().Total(usdtCoin); got != transferred {
			t.Fatalf("futures money %d, transferred in %d", got, transferred)
		}
		hash = s.StateHash()
		a := s.Accounts()
		for _, u := range a.Users() {
			for _, k := range []risk.Kind{risk.KindSpot, risk.KindFutures} {
				want := a.Get(u.Num, k, usdtCoin)
				b, err := ledger.New(st, nil).Balance(ctx, Account(u.ID, k), "USDT")
				if err != nil {
					t.Fatal(err)
				}
				if !b.Available.Equal(units(want.Avail, 8)) || !b.Frozen.Equal(units(want.Held, 8)) {
					t.Fatalf("%s %d: store %s/%s, engine %d/%d", u.ID, k, b.Available, b.Frozen, want.Avail, want.Held)
				}
			}
		}
	})
	rep, err := ledger.New(st, nil).Audit(ctx, "USDT", "BTC")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit: %v %v", rep.Problems, err)
	}
	// The journal alone gives the same state.
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := open(false)
	defer e2.Close()
	e2.Read(func(s *engine.State) {
		if s.StateHash() != hash {
			t.Fatal("the journal's replay reaches another state")
		}
	})
	if liquidated == 0 || fired == 0 {
		t.Fatalf("the workload liquidated %d and fired %d: it tests too little", liquidated, fired)
	}
	var insurance, settlement int64
	e2.Read(func(s *engine.State) {
		insurance, settlement = s.Futures().Insurance(btcPerp), s.Futures().Settlement(usdtCoin)
	})
	t.Logf("seed %d: %d steps, %d liquidations, %d triggers fired, results %v; insurance %d, settlement %d", seed, steps, liquidated, fired,
		counts, insurance, settlement)
}
