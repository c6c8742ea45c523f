package spot

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/matching"
)

func (e *env) amend(uid, id, volume string) {
	e.t.Helper()
	if err := e.svc.AmendOrder(e.ctx, uid, "btcusdt", id, volume); err != nil {
		e.t.Fatalf("amend %s to %s: %v", id, volume, err)
	}
}

// storedHold reads the order's hold and volume as stored.
func (e *env) storedHold(id string) (hold, volume decimal.Decimal) {
	e.t.Helper()
	oid, _ := parseOrderID(id)
	it, err := e.raw.Get(e.ctx, orderKey(oid))
	if err != nil {
		e.t.Fatal(err)
	}
	return it.Dec("hold"), it.Dec("volume")
}

// TestAmendKeepsPriorityAndReleasesHold: a reduced sell keeps its place
// ahead of a later order at the same price, and its freed base is released
// at once; the stored volume and hold follow.
func TestAmendKeepsPriorityAndReleasesHold(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(carol, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	first := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	second := e.place(carol, limit("btcusdt", "SELL", "30000", "0.5"))
	e.drain()
	e.amend(alice, first, "0.4")
	e.drain()
	e.wantBal(alice, "BTC", "0.6", "0.4")
	if o := e.order(alice, first); !o.Volume.Equal(dec("0.4")) || o.Status != StatusNew {
		t.Fatalf("amended order %+v", o)
	}
	if hold, vol := e.storedHold(first); !hold.Equal(dec("0.4")) || !vol.Equal(dec("0.4")) {
		t.Fatalf("stored hold %s volume %s", hold, vol)
	}
	// 0.5 bought: the amended order (earlier) fills first, then 0.1 of carol's.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.5"))
	e.drain()
	e.wantOrder(alice, first, StatusFilled, "0.4", "12000", "12")
	e.wantOrder(carol, second, StatusPartiallyFilled, "0.1", "3000", "3")
	e.wantBal(alice, "BTC", "0.6", "0")
	e.wantBal(carol, "BTC", "0.5", "0.4")
	e.audit()
}

// TestAmendBuyAfterPartialFill: a partly filled buy is reduced; the hold
// keeps exactly what the rest can spend, and a cancel releases the rest.
func TestAmendBuyAfterPartialFill(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	buy := e.place(bob, limit("btcusdt", "BUY", "29000", "1"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.3"))
	e.drain()
	e.wantBal(bob, "USDT", "71000", "20300") // 29000 held, 8700 spent
	e.amend(bob, buy, "0.5")
	e.drain()
	// New hold 0.5 × 29000 = 14500, of which 8700 is spent: 5800 frozen.
	e.wantBal(bob, "USDT", "85500", "5800")
	if hold, vol := e.storedHold(buy); !hold.Equal(dec("14500")) || !vol.Equal(dec("0.5")) {
		t.Fatalf("stored hold %s volume %s", hold, vol)
	}
	e.wantOrder(bob, buy, StatusPartiallyFilled, "0.3", "8700", "0.0003")
	if err := e.svc.CancelOrder(e.ctx, bob, "btcusdt", buy); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(bob, "USDT", "91300", "0")
	e.wantOrder(bob, buy, StatusCancelled, "0.3", "8700", "0.0003")
	e.audit()
}

// TestAmendRefusals: every rule has its catalogue code; a finished order
// answers as a cancel of it would.
func TestAmendRefusals(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	cases := []struct {
		uid, sym, vol, code string
	}{
		{alice, "btcusdt", "0.6", apperr.CodeTradeAmendVolume},  // increase
		{alice, "btcusdt", "0.5", apperr.CodeTradeAmendVolume},  // same
		{alice, "btcusdt", "0.1", apperr.CodeTradeAmendVolume},  // down to the filled part
		{alice, "btcusdt", "0.05", apperr.CodeTradeAmendVolume}, // below it
		{alice, "btcusdt", "-1", apperr.CodeTradeNumber},        // as order entry: no sign or exponent
		{alice, "btcusdt", "+0.3", apperr.CodeTradeNumber},
		{alice, "btcusdt", "3e-1", apperr.CodeTradeNumber},
		{alice, "btcusdt", "0.3E0", apperr.CodeTradeNumber},
		{alice, "btcusdt", "0.3000001", apperr.CodeTradeVolumeLot},
		{alice, "btcusdt", "0.100005", apperr.CodeTradeMinQty},     // 0.000005 left
		{alice, "btcusdt", "0.10001", apperr.CodeTradeMinNotional}, // 0.00001 × 30000 = 0.3 < 5
		{alice, "btcusdt", "abc", apperr.CodeTradeNumber},
		{alice, "btcusdt", "", apperr.CodeTradeVolumeRequired},
		{alice, "ethusdt", "0.3", apperr.CodeTradeOrderNotFound}, // another pair
		{bob, "btcusdt", "0.3", apperr.CodeTradeOrderNotFound},   // not the owner
	}
	for i, c := range cases {
		err := e.svc.AmendOrder(e.ctx, c.uid, c.sym, sell, c.vol)
		var got string
		if ae := apperr.As(err); err != nil {
			got = ae.Entry.Code
		}
		if got != c.code {
			t.Errorf("case %d (%s): %v, want %s", i, c.vol, err, c.code)
		}
	}
	e.drain()
	e.wantBal(alice, "BTC", "0.5", "0.4")
	if err := e.svc.CancelOrder(e.ctx, alice, "btcusdt", sell); err != nil {
		t.Fatal(err)
	}
	e.drain()
	wantCode(t, e.svc.CancelOrder(e.ctx, alice, "btcusdt", sell), apperr.CodeTradeOrderFinished)
	wantCode(t, e.svc.AmendOrder(e.ctx, alice, "btcusdt", sell, "0.2"), apperr.CodeTradeOrderFinished)
	wantCode(t, e.svc.AmendOrder(e.ctx, alice, "", "123456", "0.2"), apperr.CodeTradeOrderNotFound)
	// Orders that never rest cannot be amended.
	for _, typ := range []string{TypeMarket, TypeIOC, TypeFOK} {
		o := Order{ID: "1", Symbol: "btcusdt", Type: typ, Price: dec("30000"), Volume: dec("1")}
		p, _ := e.cat.Pair("btcusdt")
		_, err := amendCommand(p, o, alice, "0.5")
		wantCode(t, err, apperr.CodeTradeAmendType)
	}
	e.audit()
}

// An amendment of a partly filled order comes back from the journal as it
// was applied: after a crash the order rests with what the amendment left,
// and the engine agrees with the store.
func TestAmendOfAPartlyFilledOrderSurvivesACrash(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.3"))
	e.amend(alice, sell, "0.8")
	e.wantSameAfter(e.crash, []string{alice, bob}, []string{"BTC", "USDT"})
	e.wantBal(alice, "BTC", "0.2", "0.5")
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.7"))
	e.wantOrder(alice, sell, StatusFilled, "0.8", "24000", "24")
	e.drain()
	e.audit()
}

// TestAmendRacesFills: an amend the API checked against the order before
// the engine filled it further (its process still read the order as it
// was). While the new total still leaves a valid rest it applies; when the
// fills reached the new total, or left a rest below the pair's minimum
// notional, the rest is cancelled: the user asked for at most that total,
// so the order must not go on filling its old volume.
func TestAmendRacesFills(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "3")
	e.deposit(bob, "USDT", "100000")
	a := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	b := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	c := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	// The buy reaches the engine before the amend, so 0.7 of a is filled
	// when the amend to 0.5 arrives.
	stale := e.staleService(a)
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.7"))
	if err := stale.AmendOrder(e.ctx, alice, "btcusdt", a, "0.5"); err != nil {
		t.Fatal(err)
	}
	e.wantOrder(alice, a, StatusCancelled, "0.7", "21000", "21")
	if o := e.order(alice, a); !o.Volume.Equal(dec("1")) {
		t.Fatalf("volume %s, want the order's own 1", o.Volume)
	}
	e.wantBal(alice, "BTC", "0.3", "2")
	// 0.5 of b is filled when its amend to 0.5001 arrives: a rest of
	// 0.0001 at 30000 is 3 USDT, below the minimum notional of 5.
	stale = e.staleService(b)
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.5"))
	if err := stale.AmendOrder(e.ctx, alice, "btcusdt", b, "0.5001"); err != nil {
		t.Fatal(err)
	}
	e.wantOrder(alice, b, StatusCancelled, "0.5", "15000", "15")
	e.wantBal(alice, "BTC", "0.8", "1")
	// 0.3 of c is filled when its amend to 0.8 arrives: 0.5 rests.
	stale = e.staleService(c)
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.3"))
	if err := stale.AmendOrder(e.ctx, alice, "btcusdt", c, "0.8"); err != nil {
		t.Fatal(err)
	}
	e.wantOrder(alice, c, StatusPartiallyFilled, "0.3", "9000", "9")
	if o := e.order(alice, c); !o.Volume.Equal(dec("0.8")) {
		t.Fatalf("volume %s, want 0.8", o.Volume)
	}
	e.wantBal(alice, "BTC", "1", "0.5")
	// Only c's rest is left to buy.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.9"))
	e.wantOrder(alice, c, StatusFilled, "0.8", "24000", "24")
	e.wantBal(alice, "BTC", "1", "0")
	// A restart comes back the same, and writes nothing twice.
	e.wantSameAfter(e.crash, []string{alice, bob}, []string{"BTC", "USDT"})
	e.audit()
}

// TestAmendReplayAndStaleRepeat: replaying a journal with amends writes
// nothing twice, and an amend to a volume the order already has (sent by
// a process that read the order before the first) is refused and changes
// nothing.
func TestAmendReplayAndStaleRepeat(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "29000", "1"))
	e.amend(alice, sell, "0.8")
	e.amend(alice, sell, "0.6")
	e.amend(bob, buy, "0.4")
	e.drain()
	e.wantBal(alice, "BTC", "0.4", "0.6")
	e.wantBal(bob, "USDT", "88400", "11600")
	if hold, vol := e.storedHold(sell); !hold.Equal(dec("0.6")) || !vol.Equal(dec("0.6")) {
		t.Fatalf("stored hold %s volume %s after two amends", hold, vol)
	}
	e.wantSameAfter(e.crash, []string{alice, bob}, []string{"BTC", "USDT"}) // replays the whole journal
	// The same amend sent again by a process that still reads the order
	// at 0.6: the engine sees no reduction and refuses it.
	stale := e.staleService(sell)
	e.amend(alice, sell, "0.5")
	wantCode(t, stale.AmendOrder(e.ctx, alice, "btcusdt", sell, "0.5"), apperr.CodeTradeAmendVolume)
	e.drain()
	e.wantBal(alice, "BTC", "0.5", "0.5")
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.5"))
	e.wantOrder(alice, sell, StatusFilled, "0.5", "15000", "15")
	e.drain()
	e.audit()
}

// checkHolds verifies, with the store showing every command, that each
// user's frozen balance is what their open orders still hold. A sell holds
// exactly its rest (volume − dealt). A buy holds its price × its rest, plus
// the price improvement of its fills so far (what it held for them less
// what they cost: hold − dealt money − price × rest) unless an amend
// released it: between those two. An amend that released too much or too
// little, or twice, breaks it.
func checkHolds(t *testing.T, e *env, users []string, coins []string) {
	t.Helper()
	for _, u := range users {
		lo, hi := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
		open, err := e.svc.ListOpenOrders(e.ctx, u, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range open {
			oid, _ := parseOrderID(o.ID)
			it, err := e.raw.Get(e.ctx, orderKey(oid))
			if err != nil {
				t.Fatal(err)
			}
			if o.Type == TypeMarket || !o.Volume.GreaterThan(o.DealVolume) {
				t.Fatalf("open %s order %s: volume %s, dealt %s", o.Type, o.ID, o.Volume, o.DealVolume)
			}
			rest := o.Volume.Sub(o.DealVolume)
			coin, least, most := it.Str("holdCoin"), rest, rest
			if o.Side == "BUY" {
				least, most = o.Price.Mul(rest), it.Dec("hold").Sub(o.DealMoney)
			}
			lo[coin], hi[coin] = lo[coin].Add(least), hi[coin].Add(most)
		}
		for _, c := range coins {
			if f := e.balance(u, c).Frozen; f.LessThan(lo[c]) || f.GreaterThan(hi[c]) {
				t.Fatalf("%s %s frozen %s, open orders hold %s to %s", u, c, f, lo[c], hi[c])
			}
		}
	}
}

// TestRandomAmendsAndRestarts is the property test of amends, cancels and
// restarts together: random orders of every resting kind, amends (valid
// and not), cancels, clean restarts (from a snapshot) and crashes (the
// journal replayed). After every drain the store agrees with the engine and
// the frozen balances equal what the open orders hold; every restart gives
// the same engine; at the end, with everything cancelled, nothing stays
// frozen, holdings plus fees equal the deposits, and the ledger audit is
// clean.
func TestRandomAmendsAndRestarts(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { randomAmends(t, seed, 300) })
	}
}

func randomAmends(t *testing.T, seed int64, n int) {
	e := newEnv(t)
	rng := rand.New(rand.NewSource(seed))
	users := []string{"10000021", "10000022", "10000023"}
	coins := []string{"BTC", "USDT"}
	for _, u := range users {
		e.deposit(u, "BTC", "5")
		e.deposit(u, "USDT", "200000")
	}
	type placed struct{ uid, id string }
	var orders []placed
	qty := func() string { return decimal.New(int64(20+rng.Intn(5000)), -5).String() }
	price := func() string { return decimal.NewFromInt(int64(29950 + 10*rng.Intn(11))).String() }
	amended, crashes, trades := 0, 0, 0
	for i := 0; i < n; i++ {
		u := users[rng.Intn(len(users))]
		side := []string{"BUY", "SELL"}[rng.Intn(2)]
		switch k := rng.Intn(20); {
		case k < 8:
			var r PlaceRequest
			switch rng.Intn(6) {
			case 0:
				r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypePostOnly, Price: price(), Volume: qty()}
			case 1:
				r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypeStopLimit, Price: price(), StopPrice: price(), Volume: qty()}
			case 2:
				r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypeIOC, Price: price(), Volume: qty()}
			default:
				r = limit("btcusdt", side, price(), qty())
			}
			id, err := e.svc.PlaceOrder(e.ctx, u, r)
			if err != nil {
				switch apperr.As(err).Entry.Code {
				case apperr.CodeTradeInsufficient, apperr.CodeTradeMinNotional, apperr.CodeTradeStopReached:
				default:
					t.Fatalf("place %+v: %v", r, err)
				}
				continue
			}
			orders = append(orders, placed{u, id})
		case k < 14 && len(orders) > 0:
			p := orders[rng.Intn(len(orders))]
			o := e.order(p.uid, p.id)
			// Mostly valid reductions; sometimes an increase or less than filled.
			v := o.DealVolume.Add(o.Volume.Sub(o.DealVolume).Mul(decimal.NewFromFloat(rng.Float64()))).Truncate(6)
			if rng.Intn(6) == 0 {
				v = o.Volume.Add(dec("0.001"))
			}
			err := e.svc.AmendOrder(e.ctx, p.uid, "btcusdt", p.id, v.String())
			if err == nil {
				amended++
			} else {
				switch apperr.As(err).Entry.Code {
				case apperr.CodeTradeAmendVolume, apperr.CodeTradeOrderFinished, apperr.CodeTradeMinQty,
					apperr.CodeTradeMinNotional, apperr.CodeTradeAmendType:
				default:
					t.Fatalf("amend %s to %s: %v", p.id, v, err)
				}
			}
		case k < 16 && len(orders) > 0:
			p := orders[rng.Intn(len(orders))]
			_ = e.svc.CancelOrder(e.ctx, p.uid, "btcusdt", p.id) // may be finished
		case k == 16:
			e.drain()
			checkHolds(t, e, users, coins)
			e.wantSameAfter(e.restart, users, coins) // from the snapshot written at the stop
		case k == 17:
			e.drain()
			checkHolds(t, e, users, coins)
			e.wantSameAfter(e.crash, users, coins) // the journal since the last snapshot is replayed
			crashes++
		default:
			e.drain()
			checkHolds(t, e, users, coins)
		}
	}
	e.drain()
	checkHolds(t, e, users, coins)
	for _, p := range orders {
		if e.order(p.uid, p.id).DealVolume.IsPositive() {
			trades++
		}
	}
	if amended < 10 || crashes < 3 || trades < 10 {
		t.Fatalf("weak workload: %d amends, %d crashes, %d orders traded", amended, crashes, trades)
	}
	for _, u := range users {
		if err := e.svc.CancelAll(e.ctx, u, ""); err != nil {
			t.Fatal(err)
		}
	}
	e.drain()
	sum := map[string]decimal.Decimal{}
	for _, u := range users {
		for _, c := range coins {
			b, _ := e.led.Balance(e.ctx, spotAccount(u), c)
			if !b.Frozen.IsZero() {
				t.Fatalf("%s keeps %s %s frozen with no open order", u, b.Frozen, c)
			}
			sum[c] = sum[c].Add(b.Total())
		}
	}
	for _, c := range coins {
		fee := e.balance("FEES", c)
		want := dec("15")
		if c == "USDT" {
			want = dec("600000")
		}
		if got := sum[c].Add(fee.Total()); !got.Equal(want) {
			t.Fatalf("%s: users %s + fees %s = %s, deposited %s", c, sum[c], fee.Total(), got, want)
		}
	}
	e.audit()
}

// FuzzAmendCommand: the amend validator never panics, answers only with
// catalogue codes, and what it accepts is a strict reduction on the grid
// that leaves at least the minimums.
func FuzzAmendCommand(f *testing.F) {
	f.Add("1", "0", "30000", "0.5", "SELL")
	f.Add("0.5", "0.2", "29999.99", "0.3", "BUY")
	f.Add("0.001", "0", "1", "0.0005", "BUY")
	f.Add("2", "1.5", "30000", "1e-9", "SELL")
	f.Add("2", "1.5", "30000", "1.500001", "SELL")
	cat := markets.Defaults()
	p, _ := cat.Pair("btcusdt")
	cfg := symbolConfig(p)
	bc, _ := cfg.BookConfig(symbolNum(p.Symbol))
	f.Fuzz(func(t *testing.T, volume, deal, price, newVol, side string) {
		vol, err1 := decimal.NewFromString(volume)
		dv, err2 := decimal.NewFromString(deal)
		pr, err3 := decimal.NewFromString(price)
		if err1 != nil || err2 != nil || err3 != nil || vol.NumDigits() > 30 || dv.NumDigits() > 30 || pr.NumDigits() > 30 {
			return
		}
		o := Order{ID: "42", Symbol: "btcusdt", Side: side, Type: TypeLimit, Price: pr, Volume: vol, DealVolume: dv}
		cmd, err := amendCommand(p, o, alice, newVol)
		if err != nil {
			if apperr.As(err).Entry.Code == apperr.CodeInternal {
				t.Fatalf("error outside the catalogue: %v", err)
			}
			return
		}
		nv := cfg.FromLots(cmd.Qty)
		if cmd.Kind != matching.CmdAmend || cmd.OrderID != 42 || cmd.Price != 0 {
			t.Fatalf("command %+v", cmd)
		}
		if !nv.LessThan(vol) || !nv.GreaterThan(dv) {
			t.Fatalf("accepted %s for an order of %s with %s filled", nv, vol, dv)
		}
		ticks, err := cfg.ToTicks(pr)
		if err != nil {
			t.Fatalf("accepted an off-grid price %s", pr)
		}
		rem, err := cfg.ToLots(nv.Sub(dv))
		if err != nil || rem < bc.MinQty || ticks*rem < bc.MinNotional {
			t.Fatalf("accepted a remainder %s below the minimums (%v)", nv.Sub(dv), err)
		}
	})
}

// TestAmendsBeforeTheStoreShowsTheFirst: amends sent by a process that
// does not see the first amend yet (the store shows it a moment after the
// engine applied it) are judged by the engine against the live order: one
// that would not reduce it further is refused, so no amend is answered
// success that the engine then drops.
func TestAmendsBeforeTheStoreShowsTheFirst(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	id := e.place(alice, limit("btcusdt", "SELL", "30000", "0.002"))
	stale := e.staleService(id) // it sees the order at 0.002
	e.amend(alice, id, "0.0005")
	for _, v := range []string{"0.0019", "0.0005", "0.001"} {
		err := stale.AmendOrder(AckAtJournal(e.ctx), alice, "btcusdt", id, v)
		if ae := apperr.As(err); ae == nil || ae.Entry.Code != apperr.CodeTradeAmendVolume {
			t.Fatalf("amend to %s after 0.0005: %v", v, err)
		}
	}
	if err := stale.AmendOrder(AckAtJournal(e.ctx), alice, "btcusdt", id, "0.0004"); err != nil {
		t.Fatal(err)
	}
	e.drain()
	if o := e.order(alice, id); !o.Volume.Equal(dec("0.0004")) {
		t.Fatalf("volume %s, want 0.0004", o.Volume)
	}
	e.wantBal(alice, "BTC", "0.9996", "0.0004")
	e.audit()
}
