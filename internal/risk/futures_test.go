package risk

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"tenger/internal/matching"
	"tenger/internal/perp"
)

const (
	unit     = 100_000_000 // engine units of 1 USDT
	btcPerp  = 7           // the contract's book symbol
	tickVal  = 1_000       // 0.001 BTC a contract, 0.01 USDT a tick
	maxPrice = 1_000_000_00
)

// futEnv runs futures orders through R1, a real book and R2.
type futEnv struct {
	t     testing.TB
	acct  *Accounts
	f     *Futures
	book  *matching.Book
	out   *matching.EventBuffer
	usdt  Coin
	seq   uint64
	netIn int64
	adl   int64 // contracts auto-deleveraged
}

func newFutEnv(t testing.TB, users int) *futEnv {
	t.Helper()
	e := &futEnv{t: t, acct: NewAccounts(users + 2), out: matching.NewEventBuffer(1024)}
	e.usdt, _ = e.acct.AddCoin(CoinInfo{Code: "USDT", Decimals: 8})
	e.f = NewFutures(e.acct)
	tiers, err := perp.NewTiers([]perp.Tier{
		{Cap: 50_000 * unit, MMR: 400_000, MaxLeverage: 125},
		{Cap: 250_000 * unit, MMR: 500_000, MaxLeverage: 100},
		{Cap: 1_000_000 * unit, MMR: 1_000_000, MaxLeverage: 50},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.f.AddContract(FuturesContract{ID: btcPerp, Quote: e.usdt, TickValue: tickVal, MaxPrice: maxPrice, Tiers: tiers,
		Maker: 20_000, Taker: 50_000, LiqFee: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	for u := 1; u <= users; u++ {
		e.acct.Register(uint64(u), "u")
	}
	e.book = matching.NewBook(matching.BookConfig{Symbol: btcPerp, InitialOrders: 1 << 10, InitialLevels: 1 << 8}, e.out)
	return e
}

// fund deposits USDT to a user's spot account and moves it to futures.
func (e *futEnv) fund(user uint64, usdt int64) {
	e.t.Helper()
	s := e.acct.Slot(user)
	if err := e.acct.Credit(s, KindSpot, e.usdt, usdt*unit); err != nil {
		e.t.Fatal(err)
	}
	if r := e.f.Transfer(s, e.usdt, usdt*unit); r != OK {
		e.t.Fatalf("transfer in: %s", r)
	}
	e.netIn += usdt * unit
}

// order places a limit order (GTC, or IOC) and answers R1's result.
func (e *futEnv) order(user uint64, side matching.Side, qty, price int64, tif matching.TimeInForce) (uint64, Result) {
	e.seq++
	c := matching.Command{Kind: matching.CmdPlace, OrderID: e.seq, UserID: user, Symbol: btcPerp, Side: side, Type: matching.Limit,
		TIF: tif, Price: price, Qty: qty}
	if r := e.f.Place(&c, FuturesSpec{Maker: 20_000, Taker: 50_000}); r != OK {
		return 0, r
	}
	e.apply(&c)
	return c.OrderID, OK
}

func (e *futEnv) cancel(user, id uint64) {
	e.apply(&matching.Command{Kind: matching.CmdCancel, OrderID: id, UserID: user, Symbol: btcPerp})
}

func (e *futEnv) apply(c *matching.Command) {
	e.seq++
	c.Seq = e.seq
	e.book.Apply(c)
	e.f.Settle(e.out.Events)
	e.out.Reset()
}

// check holds every invariant and the conservation of money.
func (e *futEnv) check() {
	e.t.Helper()
	if err := e.f.CheckFutures(); err != nil {
		e.t.Fatal(err)
	}
	if got := e.f.Total(e.usdt); got != e.netIn {
		e.t.Fatalf("futures money %d, transferred in %d", got, e.netIn)
	}
}

// liquidate does what the engine does with a position a mark made
// liquidatable: cancel the user's orders in the contract, send the
// liquidation order, hand what is left to the fund.
func (e *futEnv) liquidate(user uint64) (taken int64) {
	e.t.Helper()
	e.apply(&matching.Command{Kind: matching.CmdCancelAll, UserID: user, Symbol: btcPerp})
	e.seq++
	c, keep, ok := e.f.LiquidationOrder(PositionRef{User: user, Contract: btcPerp}, e.seq)
	if !ok {
		return 0
	}
	e.apply(&c)
	taken, adl, _ := e.f.TakeOver(PositionRef{User: user, Contract: btcPerp}, keep)
	e.adl += adl
	return taken
}

func (e *futEnv) pos(user uint64) PositionView {
	v, _ := e.f.Position(user, btcPerp, PosBoth)
	return v
}

// The worked example through the book: an isolated 10× long of 1 BTC at
// 50,000 holds 5,000 USDT and liquidates at 45,180.72; closing it higher
// realizes the profit; fees go to the fee account; money is conserved.
func TestFuturesIsolatedLong(t *testing.T) {
	e := newFutEnv(t, 3)
	for u := uint64(1); u <= 3; u++ {
		e.fund(u, 10_000)
	}
	s1 := e.acct.Slot(1)
	if r := e.f.SetMarginMode(s1, btcPerp, true); r != OK {
		t.Fatal(r)
	}
	if r := e.f.SetLeverage(s1, btcPerp, 10); r != OK {
		t.Fatal(r)
	}
	if r := e.f.SetLeverage(s1, btcPerp, 126); r != LeverageTooHigh {
		t.Fatalf("126×: %s", r)
	}
	e.f.SetLeverage(e.acct.Slot(2), btcPerp, 10)
	// User 2 rests a sell of 1 BTC at 50,000; user 1 takes it.
	if _, r := e.order(2, matching.Sell, 1_000, 50_000_00, matching.GTC); r != OK {
		t.Fatal(r)
	}
	// 10× of 1 BTC needs 5,000 margin and a 25 USDT taker fee: 20 BTC does not fit 10,000.
	if _, r := e.order(1, matching.Buy, 20_000, 50_000_00, matching.GTC); r != Insufficient {
		t.Fatalf("20 BTC: %s", r)
	}
	if _, r := e.order(1, matching.Buy, 1_000, 50_000_00, matching.GTC); r != OK {
		t.Fatal(r)
	}
	p := e.pos(1)
	if p.Qty != 1_000 || p.Cost != 50_000*unit || p.Margin != 5_000*unit || !p.Isolated {
		t.Fatalf("position %+v", p)
	}
	// Reduce-only: no more than the position closes; never from flat.
	ro := func(user uint64, side matching.Side, qty int64) Result {
		e.seq++
		c := matching.Command{Kind: matching.CmdPlace, OrderID: e.seq, UserID: user, Symbol: btcPerp, Side: side, Type: matching.Limit,
			TIF: matching.GTC, Price: 60_000_00, Qty: qty}
		return e.f.Place(&c, FuturesSpec{Maker: 20_000, Taker: 50_000, ReduceOnly: true})
	}
	if r := ro(1, matching.Sell, 1_001); r != ReduceOnly {
		t.Fatalf("reduce-only beyond the position: %s", r)
	}
	if r := ro(1, matching.Buy, 1); r != ReduceOnly {
		t.Fatalf("reduce-only adding to the position: %s", r)
	}
	if r := ro(3, matching.Sell, 1); r != ReduceOnly {
		t.Fatalf("reduce-only from flat: %s", r)
	}
	e.f.Mark(btcPerp, 50_000_00, nil)
	if p = e.pos(1); p.Liquidation != 45_180_72 {
		t.Fatalf("liquidation price %d, want 45,180.72", p.Liquidation)
	}
	// Taker fee 0.05 % of 50,000 = 25; maker 0.02 % = 10.
	if b := e.acct.At(s1, KindFutures, e.usdt); b.Avail != 10_000*unit-5_000*unit-25*unit || b.Held != 5_000*unit {
		t.Fatalf("user 1 balance %+v", b)
	}
	if fees := e.acct.At(e.f.fees, KindFutures, e.usdt).Avail; fees != 35*unit {
		t.Fatalf("fees %d", fees)
	}
	e.check()
	// The mark falls: at 45,180.73 nothing is due; at 45,180.72 the long is.
	if due := e.f.Mark(btcPerp, 45_180_73, nil); len(due) != 0 {
		t.Fatalf("due above the price: %+v", due)
	}
	if due := e.f.Mark(btcPerp, 45_180_72, nil); len(due) != 1 || due[0].User != 1 || due[0].Qty != 1_000 {
		t.Fatalf("due at the price: %+v", due)
	}
	// Back up; user 3 buys it from user 1 at 55,000: user 1 realizes 5,000.
	e.f.Mark(btcPerp, 55_000_00, nil)
	if _, r := e.order(3, matching.Buy, 1_000, 55_000_00, matching.GTC); r != OK {
		t.Fatal(r)
	}
	e.f.TakeFees()
	e.f.ClearChanged()
	if _, r := e.order(1, matching.Sell, 1_000, 55_000_00, matching.GTC); r != OK {
		t.Fatal(r)
	}
	// The trade's record: user 3 bought as maker (0.02 % of 55,000 = 11),
	// user 1 sold as taker (27.5) and realized 5,000.
	if got := e.f.TakeFees(); !slices.Equal(got, []TradeFee{{Buy: 11 * unit, Sell: 27_50_000_000, SellPnL: 5_000 * unit}}) {
		t.Fatalf("trade fees %+v", got)
	}
	var changed []PositionState
	e.f.PositionsChanged(func(p PositionState) { changed = append(changed, p) })
	if len(changed) != 2 || changed[1].User != 3 || changed[1].Qty != 1_000 || changed[1].Cost != 55_000*unit ||
		changed[0].User != 1 || changed[0].Qty != 0 || !changed[0].Isolated || changed[0].Leverage != 10 {
		t.Fatalf("positions changed %+v", changed)
	}
	var sys []SystemChange
	sys = append(sys, e.f.SystemChanged()...)
	if len(sys) != 1 || sys[0].Contract != 0 || sys[0].Before != 0 || sys[0].Now != -5_000*unit {
		t.Fatalf("system balances changed %+v", sys)
	}
	if p = e.pos(1); p.Qty != 0 || p.Margin != 0 {
		t.Fatalf("closed %+v", p)
	}
	// 10,000 − 25 (open) + 5,000 profit − 27.5 (close, 0.05 % of 55,000).
	if b := e.acct.At(s1, KindFutures, e.usdt); b.Avail != 14_947_50_000_000 || b.Held != 0 {
		t.Fatalf("after the close %+v", b)
	}
	// User 2 is short at 50,000 and user 3 long at 55,000: the settlement balance is owed the 5,000 paid out.
	if e.f.Settlement(e.usdt) != -5_000*unit {
		t.Fatalf("settlement %d", e.f.Settlement(e.usdt))
	}
	e.check()
	// Out of futures: no more than available.
	if r := e.f.Transfer(s1, e.usdt, -15_000*unit); r != Insufficient {
		t.Fatalf("too much out: %s", r)
	}
	if r := e.f.Transfer(s1, e.usdt, -14_000*unit); r != OK {
		t.Fatal(r)
	}
	e.netIn -= 14_000 * unit
	e.check()
}

// A funding round at 0.01 %: the long pays 5 USDT, the short receives 5.
func TestFuturesFunding(t *testing.T) {
	e := newFutEnv(t, 2)
	e.fund(1, 10_000)
	e.fund(2, 10_000)
	e.order(2, matching.Sell, 1_000, 50_000_00, matching.GTC)
	e.order(1, matching.Buy, 1_000, 50_000_00, matching.GTC)
	e.f.Mark(btcPerp, 50_000_00, nil)
	before1 := e.acct.At(e.acct.Slot(1), KindFutures, e.usdt).Avail
	before2 := e.acct.At(e.acct.Slot(2), KindFutures, e.usdt).Avail
	if err := e.f.Fund(btcPerp, 10_000); err != nil {
		t.Fatal(err)
	}
	if d := before1 - e.acct.At(e.acct.Slot(1), KindFutures, e.usdt).Avail; d != 5*unit {
		t.Fatalf("the long paid %d", d)
	}
	if d := e.acct.At(e.acct.Slot(2), KindFutures, e.usdt).Avail - before2; d != 5*unit {
		t.Fatalf("the short received %d", d)
	}
	e.check()
}

// futSim drives a futEnv with random orders, cancels, leverage and mode
// changes, margin moves, transfers, mark moves (liquidating what they
// reach, as the engine will) and funding rounds, checking after each step.
type futSim struct {
	t    testing.TB
	e    *futEnv
	pcg  *rand.PCG
	r    *rand.Rand
	mark int64
	live []struct{ user, id uint64 }
	// What the steps reached.
	due, liquidated, takenOver, partial int
}

func newFutSim(t testing.TB, seed uint64) *futSim {
	pcg := rand.NewPCG(seed, 99)
	sim := &futSim{t: t, e: newFutEnv(t, 6), pcg: pcg, r: rand.New(pcg), mark: 50_000_00}
	for u := uint64(1); u <= 6; u++ {
		sim.e.fund(u, 2_000+sim.r.Int64N(20_000))
	}
	sim.e.f.Mark(btcPerp, sim.mark, nil)
	return sim
}

func (sim *futSim) step(n int) {
	t, e, r := sim.t, sim.e, sim.r
	u := uint64(1 + r.IntN(6))
	s := e.acct.Slot(u)
	switch op := r.IntN(20); {
	case op < 10:
		side := matching.Buy
		if r.IntN(2) == 0 {
			side = matching.Sell
		}
		price := sim.mark + (r.Int64N(201)-100)*50_00
		tif := matching.GTC
		if r.IntN(3) == 0 {
			tif = matching.IOC
		}
		if id, res := e.order(u, side, 1+r.Int64N(800), price, tif); res == OK && tif == matching.GTC {
			sim.live = append(sim.live, struct{ user, id uint64 }{u, id})
		}
	case op < 12 && len(sim.live) > 0:
		j := r.IntN(len(sim.live))
		e.cancel(sim.live[j].user, sim.live[j].id)
		sim.live = slices.Delete(sim.live, j, j+1)
	case op < 13:
		e.f.SetLeverage(s, btcPerp, 1+r.Int64N(50))
	case op < 14:
		e.f.SetMarginMode(s, btcPerp, r.IntN(2) == 0)
	case op < 15:
		e.f.AdjustMargin(s, btcPerp, PosBoth, (r.Int64N(2_001)-1_000)*unit)
	case op < 16:
		amt := (r.Int64N(3_001) - 1_000) * unit
		if amt > 0 {
			e.acct.Credit(s, KindSpot, e.usdt, amt)
		}
		if e.f.Transfer(s, e.usdt, amt) == OK {
			e.netIn += amt
		}
	case op < 19:
		sim.mark = max(sim.mark+(r.Int64N(2_001)-1_000)*100, 1_000_00)
		sim.tick(n)
	default:
		if err := e.f.Fund(btcPerp, r.Int64N(20_001)-10_000); err != nil {
			t.Fatal(err)
		}
	}
	e.check()
}

// tick moves the mark: the positions it answers are exactly those
// liquidatable at it (checked against every position), and each is
// liquidated (or saved by the cancel of its user's orders).
func (sim *futSim) tick(n int) {
	t, e, mark := sim.t, sim.e, sim.mark
	due := e.f.Mark(btcPerp, mark, nil)
	var want []uint64
	for i := range e.f.pos {
		p := &e.f.pos[i]                      // walletFor tells the position from the others by its address
		if p.qty == 0 || p.slot == e.f.fund { // the fund is never liquidated
			continue
		}
		liq, err := p.perp().Liquidatable(mark, e.f.walletFor(p), tickVal, e.f.cons[0].Tiers)
		if err != nil {
			t.Fatal(err)
		}
		if liq {
			want = append(want, e.acct.users[p.slot].Num)
		}
	}
	var got []uint64
	for _, d := range due {
		got = append(got, d.User)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("step %d mark %d: due %v, liquidatable %v", n, mark, got, want)
	}
	sim.due += len(due)
	for _, d := range due {
		// A partial liquidation (tier by tier) may leave it due when it
		// sold below the mark: it is liquidated again, smaller each time.
		for round := 0; ; round++ {
			before := e.pos(d.User)
			if e.liquidate(d.User) != 0 {
				sim.takenOver++
			}
			p := e.pos(d.User)
			if p.Qty == 0 {
				sim.liquidated++
				break
			}
			if (p.Qty > 0 && p.Liquidation < mark) || (p.Qty < 0 && p.Liquidation > mark) {
				if round > 0 || absQty(p.Qty) < absQty(before.Qty) {
					sim.partial++
				}
				break // saved (its orders cancelled, or the part sold)
			}
			if absQty(p.Qty) >= absQty(before.Qty) || round == 8 {
				t.Fatalf("step %d: user %d still holds %+v after its liquidation (round %d, before %+v)", n, d.User, p, round, before)
			}
		}
	}
	sim.live = slices.DeleteFunc(sim.live, func(o struct{ user, id uint64 }) bool {
		return slices.ContainsFunc(due, func(d PositionRef) bool { return d.User == o.user })
	})
}

// Random steps among a few users: after every step no balance is
// negative, holds match orders and positions, money is conserved, and a
// mark tick answers exactly the positions liquidatable at it.
func TestFuturesProperty(t *testing.T) {
	var due, liquidated, takenOver, partial int
	var deleveraged int64
	for seed := uint64(1); seed <= 8; seed++ {
		sim := newFutSim(t, seed)
		for n := range 3_000 {
			sim.step(n)
		}
		e := sim.e
		if e.acct.At(e.f.fees, KindFutures, e.usdt).Avail == 0 || e.f.Settlement(e.usdt) == 0 {
			t.Fatalf("seed %d: no trade happened", seed)
		}
		due, liquidated, takenOver, partial = due+sim.due, liquidated+sim.liquidated, takenOver+sim.takenOver, partial+sim.partial
		deleveraged += e.adl
	}
	if due == 0 || liquidated == 0 || takenOver == 0 || deleveraged == 0 {
		t.Fatalf("liquidatable %d, liquidated %d, taken over %d, contracts deleveraged %d: the test must reach all four",
			due, liquidated, takenOver, deleveraged)
	}
	t.Logf("liquidatable answers: %d, liquidated: %d, partly: %d, taken over by the fund: %d, contracts auto-deleveraged: %d",
		due, liquidated, partial, takenOver, deleveraged)
}

// A snapshot of the accounts, the futures stage and the book taken half
// way, restored, and both engines given the same second half: they end
// with equal state hashes (the futures', the accounts' and the book's).
func TestFuturesSnapshotReplays(t *testing.T) {
	a := newFutSim(t, 21)
	for n := range 1_500 {
		a.step(n)
	}
	var fs, bs, as bytes.Buffer
	spot := NewSpot(a.e.acct, 16)
	if err := a.e.f.Snapshot(&fs); err != nil {
		t.Fatal(err)
	}
	if err := a.e.book.Snapshot(&bs); err != nil {
		t.Fatal(err)
	}
	if err := spot.Snapshot(&as); err != nil {
		t.Fatal(err)
	}
	spot2, err := RestoreSpot(bytes.NewReader(as.Bytes()), 16)
	if err != nil {
		t.Fatal(err)
	}
	f2, err := RestoreFutures(bytes.NewReader(fs.Bytes()), spot2.Accounts())
	if err != nil {
		t.Fatal(err)
	}
	if f2.StateHash() != a.e.f.StateHash() {
		t.Fatal("the restored futures state hashes differently")
	}
	b := &futSim{t: t, mark: a.mark, live: slices.Clone(a.live)}
	b.e = &futEnv{t: t, acct: spot2.Accounts(), f: f2, out: matching.NewEventBuffer(1024), usdt: a.e.usdt, seq: a.e.seq, netIn: a.e.netIn}
	b.e.book = matching.NewBook(matching.BookConfig{Symbol: btcPerp, InitialOrders: 1 << 10, InitialLevels: 1 << 8}, b.e.out)
	if err := b.e.book.Restore(bytes.NewReader(bs.Bytes())); err != nil {
		t.Fatal(err)
	}
	state, _ := a.pcg.MarshalBinary()
	b.pcg = &rand.PCG{}
	if err := b.pcg.UnmarshalBinary(state); err != nil {
		t.Fatal(err)
	}
	b.r = rand.New(b.pcg)
	b.e.check()
	for n := 1_500; n < 3_000; n++ {
		a.step(n)
		b.step(n)
	}
	if a.e.f.StateHash() != b.e.f.StateHash() {
		t.Fatal("the futures states diverged after the restore")
	}
	if a.e.book.StateHash() != b.e.book.StateHash() {
		t.Fatal("the books diverged after the restore")
	}
	if spot.StateHash() != spot2.StateHash() { // spot2 holds b's accounts
		t.Fatal("the accounts diverged after the restore")
	}
	if b.liquidated == 0 {
		t.Fatal("the replayed half liquidated nothing: it checks too little")
	}
	// A corrupt snapshot is refused.
	bad := slices.Clone(fs.Bytes())
	bad[len(bad)/2] ^= 1
	if _, err := RestoreFutures(bytes.NewReader(bad), spot2.Accounts()); err == nil {
		t.Fatal("a corrupt futures snapshot was restored")
	}
}

// isolatedLong is the worked example among users funded with 10,000 USDT
// each: user 1 isolated 10× long 1 BTC at 50,000 from user 2 (cross, 20×).
func isolatedLong(t testing.TB, users int) *futEnv {
	e := newFutEnv(t, users)
	for u := uint64(1); u <= uint64(users); u++ {
		e.fund(u, 10_000)
	}
	s1 := e.acct.Slot(1)
	if e.f.SetMarginMode(s1, btcPerp, true) != OK || e.f.SetLeverage(s1, btcPerp, 10) != OK {
		t.Fatal("user 1's settings")
	}
	e.order(2, matching.Sell, 1_000, 50_000_00, matching.GTC)
	e.order(1, matching.Buy, 1_000, 50_000_00, matching.GTC)
	return e
}

// A liquidation through the book: the isolated 10× long of the worked
// example is due at 45,180.72 and sold to a bid above its bankruptcy
// price (45,000): it loses its margin, the 1 % liquidation fee and the
// loss beyond the margin settle with the insurance fund. Without a bid,
// the fund takes the position over at 45,000 and later sells it at a profit.
func TestFuturesLiquidation(t *testing.T) {
	for _, bid := range []bool{true, false} {
		e := isolatedLong(t, 4)
		s1 := e.acct.Slot(1)
		// User 1's other order, cancelled by the liquidation (its hold comes back).
		e.order(1, matching.Buy, 10, 40_000_00, matching.GTC)
		if bid {
			e.order(3, matching.Buy, 1_000, 45_100_00, matching.GTC)
		} else if r := e.f.AddInsurance(e.acct.Slot(4), btcPerp, 1_000*unit); r != OK { // a fund to take it over
			t.Fatal(r)
		}
		if due := e.f.Mark(btcPerp, 45_150_00, nil); len(due) != 1 || due[0].User != 1 {
			t.Fatalf("due %+v", due)
		}
		free := e.acct.At(s1, KindFutures, e.usdt).Avail
		taken := e.liquidate(1)
		if p := e.pos(1); p.Qty != 0 || p.Margin != 0 {
			t.Fatalf("liquidated position %+v", p)
		}
		b := e.acct.At(s1, KindFutures, e.usdt)
		if b.Held != 0 || b.Avail < free {
			t.Fatalf("user 1 after: %+v (free before %d): only the isolated margin may be lost", b, free)
		}
		if bid {
			// Sold at 45,100: a loss of 4,900 and a fee of 451 against 5,000 of margin: the fund pays 351 of it from the 451.
			if taken != 0 || e.pos(3).Qty != 1_000 || e.f.Insurance(btcPerp) != 100*unit {
				t.Fatalf("taken %d, buyer %+v, fund %d", taken, e.pos(3), e.f.Insurance(btcPerp))
			}
		} else {
			// Nobody bid: the fund holds the long at the bankruptcy price, 45,000.
			fp, _ := e.f.Position(FundUser, btcPerp, PosBoth)
			if taken != 1_000 || fp.Qty != 1_000 || fp.Cost != 45_000*unit || e.f.Insurance(btcPerp) != 1_000*unit {
				t.Fatalf("taken %d, fund position %+v, fund %d", taken, fp, e.f.Insurance(btcPerp))
			}
			// The fund's long is sold to user 4 at 46,000: 1,000 to the fund.
			e.order(4, matching.Buy, 1_000, 46_000_00, matching.GTC)
			e.seq++
			sell := matching.Command{Kind: matching.CmdPlace, OrderID: e.seq, UserID: FundUser, Symbol: btcPerp, Side: matching.Sell,
				Type: matching.Limit, TIF: matching.IOC, Price: 46_000_00, Qty: 1_000}
			if r := e.f.Place(&sell, FuturesSpec{}); r != OK {
				t.Fatalf("the fund's sell: %s", r)
			}
			e.apply(&sell)
			if e.f.Insurance(btcPerp) != 2_000*unit {
				t.Fatalf("fund after selling %d", e.f.Insurance(btcPerp))
			}
		}
		e.check()
	}
}

// With an empty insurance fund and no bid, the liquidated long is
// auto-deleveraged against the short that profits most: user 2, short 1
// BTC at 50,000, is closed at the bankruptcy price, 45,000, and realizes
// 5,000 with no fee; the fund takes nothing.
func TestFuturesAutoDeleverage(t *testing.T) {
	e := isolatedLong(t, 3)
	if due := e.f.Mark(btcPerp, 45_150_00, nil); len(due) != 1 {
		t.Fatalf("due %+v", due)
	}
	before := *e.acct.At(e.acct.Slot(2), KindFutures, e.usdt)
	if taken := e.liquidate(1); taken != 0 || e.adl != 1_000 {
		t.Fatalf("taken %d, deleveraged %d", taken, e.adl)
	}
	if p1, p2 := e.pos(1), e.pos(2); p1.Qty != 0 || p2.Qty != 0 {
		t.Fatalf("positions after ADL: %+v %+v", p1, p2)
	}
	after := *e.acct.At(e.acct.Slot(2), KindFutures, e.usdt)
	// User 2's margin (2,500 at 20×) comes back with the 5,000 profit.
	if after.Held != 0 || after.Avail != before.Avail+before.Held+5_000*unit {
		t.Fatalf("user 2: before %+v, after %+v", before, after)
	}
	if _, ok := e.f.Position(FundUser, btcPerp, PosBoth); ok {
		t.Fatal("the fund took a position")
	}
	e.check()
}
