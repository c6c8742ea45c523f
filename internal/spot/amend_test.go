package spot

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	"tenger/internal/store"
)

const carol = "10000003"

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
	it, err := e.st.Get(e.ctx, orderKey(oid))
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

// TestAmendRacesFills: an amend the API accepted before the engine
// filled the order further. While the new total still leaves a valid rest
// it applies; when the fills reached the new total, or left a rest below
// the pair's minimum notional, the rest is cancelled: the user asked for
// at most that total, so the order must not go on filling its old volume
// (it used to stay in the book, the amend answered success but refused).
func TestAmendRacesFills(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "3")
	e.deposit(bob, "USDT", "100000")
	a := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	b := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	c := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	e.drain()
	// The buy is queued before the amend, so the engine fills first: 0.7
	// of a is filled when the amend to 0.5 reaches it.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.7"))
	e.amend(alice, a, "0.5")
	e.drain()
	e.wantOrder(alice, a, StatusCancelled, "0.7", "21000", "21")
	if o := e.order(alice, a); !o.Volume.Equal(dec("1")) {
		t.Fatalf("volume %s, want the order's own 1", o.Volume)
	}
	e.wantBal(alice, "BTC", "0.3", "2")
	// 0.5 of b is filled when its amend to 0.5001 arrives: a rest of
	// 0.0001 at 30000 is 3 USDT, below the minimum notional of 5.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.5"))
	e.amend(alice, b, "0.5001")
	e.drain()
	e.wantOrder(alice, b, StatusCancelled, "0.5", "15000", "15")
	e.wantBal(alice, "BTC", "0.8", "1")
	// 0.3 of c is filled when its amend to 0.8 arrives: 0.5 rests.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.3"))
	e.amend(alice, c, "0.8")
	e.drain()
	e.wantOrder(alice, c, StatusPartiallyFilled, "0.3", "9000", "9")
	if o := e.order(alice, c); !o.Volume.Equal(dec("0.8")) {
		t.Fatalf("volume %s, want 0.8", o.Volume)
	}
	e.wantBal(alice, "BTC", "1", "0.5")
	// Only c's rest is left to buy.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.9"))
	e.drain()
	e.wantOrder(alice, c, StatusFilled, "0.8", "24000", "24")
	e.wantBal(alice, "BTC", "1", "0")
	// A replay of the journal settles the same, and builds the same book.
	before, hash := snapshotBalances(e), e.eng.StateHash("btcusdt")
	e.eng = e.newEngine()
	e.drain()
	if after := snapshotBalances(e); after != before {
		t.Fatalf("replay changed balances:\n%s\n%s", before, after)
	}
	if e.eng.StateHash("btcusdt") != hash {
		t.Fatal("replay rebuilt a different book")
	}
	e.audit()
}

// TestAmendReplayAndRedelivery: replaying a journal with amends settles
// nothing twice, and a redelivered amend message changes nothing.
func TestAmendReplayAndRedelivery(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "29000", "1"))
	e.drain()
	e.amend(alice, sell, "0.8")
	e.amend(alice, sell, "0.6") // two amends of one order in one batch
	e.amend(bob, buy, "0.4")
	e.drain()
	e.wantBal(alice, "BTC", "0.4", "0.6")
	e.wantBal(bob, "USDT", "88400", "11600")
	if hold, vol := e.storedHold(sell); !hold.Equal(dec("0.6")) || !vol.Equal(dec("0.6")) {
		t.Fatalf("stored hold %s volume %s after two amends", hold, vol)
	}
	before, hash := snapshotBalances(e), e.eng.StateHash("btcusdt")
	e.eng = e.newEngine() // replays the whole journal
	e.drain()
	if after := snapshotBalances(e); after != before {
		t.Fatalf("replay changed balances:\n%s\n%s", before, after)
	}
	if e.eng.StateHash("btcusdt") != hash {
		t.Fatal("replay rebuilt a different book")
	}
	// The same amend message delivered again is sequenced again: the
	// engine sees no reduction and refuses it. (The API refuses a second
	// amend to the same volume, so the message is sent twice here.)
	e.amend(alice, sell, "0.5")
	o := e.order(alice, sell)
	cmd, err := amendCommand(mustPair(t, e, "btcusdt"), Order{ID: o.ID, Symbol: o.Symbol, Type: o.Type,
		Price: o.Price, Volume: dec("0.6"), DealVolume: o.DealVolume}, alice, "0.5")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.sendCmd(e.ctx, "btcusdt", "", &cmd); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(alice, "BTC", "0.5", "0.5")
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.5"))
	e.drain()
	e.wantOrder(alice, sell, StatusFilled, "0.5", "15000", "15")
	e.audit()
}

// TestAmendOlderSettledAfterNewer: when an older amend of an order is
// settled after a newer one (concurrent jobs of one batch), its release
// still happens and the newer volume and hold stay.
func TestAmendOlderSettledAfterNewer(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	e.drain()
	e.amend(alice, sell, "0.5")
	e.drain()
	oid, _ := parseOrderID(sell)
	it, err := e.st.Get(e.ctx, orderKey(oid))
	if err != nil {
		t.Fatal(err)
	}
	newer := uint64(it.Int("amendSeq"))
	// An older amend (1 → 0.9) that was never settled.
	sym := symbolNum("btcusdt")
	cmd := matching.Command{Kind: matching.CmdAmend, Seq: newer - 1, OrderID: oid, UserID: userNum(alice), Symbol: sym,
		Qty: 900000, Quote: 900000, StopPrice: 1000000}
	ev := matching.Event{Kind: matching.EvAmended, Seq: newer - 1, OrderID: oid, UserID: userNum(alice), Symbol: sym,
		Side: matching.Sell, Price: 3000000, Qty: 900000}
	j, err := e.eng.set.amended(e.ctx, &cmd, &ev)
	if err != nil || j == nil {
		t.Fatalf("amended: %v", err)
	}
	if err := j(e.ctx); err != nil {
		t.Fatal(err)
	}
	if hold, vol := e.storedHold(sell); !hold.Equal(dec("0.5")) || !vol.Equal(dec("0.5")) {
		t.Fatalf("older amend overwrote the newer one: hold %s volume %s", hold, vol)
	}
	// Its own release (0.1) went through.
	e.wantBal(alice, "BTC", "0.6", "0.4")
}

// checkHolds verifies, with every command settled, that each user's frozen
// balance is exactly what their open orders still hold: hold − spent
// (quote spent for a buy, base sold for a sell). An amend that released too
// much or too little, or twice, breaks it.
func checkHolds(t *testing.T, e *env, users []string, coins []string) {
	t.Helper()
	for _, u := range users {
		want := map[string]decimal.Decimal{}
		open, err := e.svc.ListOpenOrders(e.ctx, u, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range open {
			oid, _ := parseOrderID(o.ID)
			it, err := e.st.Get(e.ctx, orderKey(oid))
			if err != nil {
				t.Fatal(err)
			}
			spent := o.DealVolume
			if o.Side == "BUY" {
				spent = o.DealMoney
			}
			want[it.Str("holdCoin")] = want[it.Str("holdCoin")].Add(it.Dec("hold").Sub(spent))
			if o.Type != TypeMarket && !o.Volume.GreaterThan(o.DealVolume) {
				t.Fatalf("open order %s: volume %s, dealt %s", o.ID, o.Volume, o.DealVolume)
			}
		}
		for _, c := range coins {
			b, err := e.led.Balance(e.ctx, spotAccount(u), c)
			if err != nil {
				t.Fatal(err)
			}
			if !b.Frozen.Equal(want[c]) {
				t.Fatalf("%s %s frozen %s, open orders hold %s", u, c, b.Frozen, want[c])
			}
		}
	}
}

// sameBooks compares the books of a recovered engine with those of the
// engine before the restart. A rebuilt book cannot know the seq of the
// last command its book applied (a refused cancel leaves no trace in the
// store), so the old book's last seq is aligned first; every order, its
// place, remaining and filled quantities, the last price and the last
// trade id must be equal.
func sameBooks(t *testing.T, old, cur *Engine) {
	t.Helper()
	for sym, id := range cur.bySym {
		ob, nb := old.books.Book(id), cur.books.Book(id)
		if cur.rebuilt {
			if nb.LastSeq() < ob.LastSeq() {
				t.Fatalf("%s: rebuilt at seq %d, before the old book's %d", sym, nb.LastSeq(), ob.LastSeq())
			}
			ob.SetMarks(nb.LastSeq(), ob.LastPrice(), ob.LastTradeID())
		}
		if ob.StateHash() != nb.StateHash() {
			var a, b []matching.OrderInfo
			ob.ForEachOrder(func(o matching.OrderInfo) { a = append(a, o) })
			nb.ForEachOrder(func(o matching.OrderInfo) { b = append(b, o) })
			t.Fatalf("%s differs after restart (rebuilt %v): price %d/%d trade %d/%d\nbefore %+v\nafter  %+v", sym, cur.rebuilt,
				ob.LastPrice(), nb.LastPrice(), ob.LastTradeID(), nb.LastTradeID(), a, b)
		}
	}
}

// TestRandomAmendsRestartsAndRebuilds is the property test of the three
// features together: random orders of every resting kind, amends (valid
// and not), cancels, restarts that replay the journal and restarts that
// lost it (rebuilt from the store). After every drain the frozen balances
// equal what the open orders hold; every restart gives the same books; at
// the end, with everything cancelled, nothing stays frozen, holdings plus
// fees equal the deposits, and the ledger audit is clean.
func TestRandomAmendsRestartsAndRebuilds(t *testing.T) {
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
	amended, rebuilds, trades := 0, 0, 0
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
			old := e.eng
			e.eng = e.newEngine() // restart on the journal (or a rebuild after a lost one)
			sameBooks(t, old, e.eng)
		case k == 17:
			e.drain()
			checkHolds(t, e, users, coins)
			old := e.eng
			e.journal = &matching.MemoryJournal{} // the journal is lost
			e.eng = e.newEngine()
			if !e.eng.rebuilt {
				t.Fatal("no journal, but the engine did not rebuild from the store")
			}
			rebuilds++
			sameBooks(t, old, e.eng)
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
	if amended < 10 || rebuilds < 3 || trades < 10 {
		t.Fatalf("weak workload: %d amends, %d rebuilds, %d orders traded", amended, rebuilds, trades)
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
		fee, _ := e.led.Balance(e.ctx, ledger.FeeAccount(), c)
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
	cat := newCatalogue()
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

// TestAmendsBeforeTheEngineApplies: a second amend sent before the engine
// applied the first is judged against the first (an amend never increases
// an order), so no amend is answered success that the engine then drops.
func TestAmendsBeforeTheEngineApplies(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	id := e.place(alice, limit("btcusdt", "SELL", "30000", "0.002"))
	e.drain()
	e.amend(alice, id, "0.0005")
	// Not drained: the engine has not applied 0.0005 yet.
	for _, v := range []string{"0.0019", "0.0005", "0.001"} {
		err := e.svc.AmendOrder(e.ctx, alice, "btcusdt", id, v)
		if ae := apperr.As(err); ae == nil || ae.Entry.Code != apperr.CodeTradeAmendVolume {
			t.Fatalf("amend to %s after 0.0005: %v", v, err)
		}
	}
	e.amend(alice, id, "0.0004")
	e.drain()
	if o := e.order(alice, id); !o.Volume.Equal(dec("0.0004")) {
		t.Fatalf("volume %s, want 0.0004", o.Volume)
	}
	e.wantBal(alice, "BTC", "0.9996", "0.0004")
	e.audit()
}

func mustPair(t *testing.T, e *env, symbol string) markets.Pair {
	t.Helper()
	p, ok := e.svc.cat.Pair(symbol)
	if !ok {
		t.Fatalf("no pair %s", symbol)
	}
	return p
}

// cancelledCtxQueue refuses sends when the caller's context is cancelled,
// as the embedded queue and SQS do.
type cancelledCtxQueue struct{ queue.Queue }

func (q cancelledCtxQueue) Send(ctx context.Context, m queue.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return q.Queue.Send(ctx, m)
}

// cancelAfterTransact ends the caller's context once a transaction is stored.
type cancelAfterTransact struct {
	store.Store
	cancel func()
}

func (s cancelAfterTransact) Transact(ctx context.Context, ops []store.Op) error {
	err := s.Store.Transact(ctx, ops)
	s.cancel()
	return err
}

// outbox lists the symbol's outbox records.
func (e *env) outbox(symbol string) []store.Item {
	e.t.Helper()
	page, err := e.st.Query(e.ctx, store.Query{PK: pkOutbox + symbol})
	if err != nil {
		e.t.Fatal(err)
	}
	return page.Items
}

// An accepted amend whose command the API never sent (its process died,
// or the queue refused it) is sent by the engine's sweep from its outbox
// record, and applied once however often it is sent; the record goes when
// the engine has sequenced the amend, applied or refused. A client that
// hangs up once the amend is stored does not stop its sending.
func TestAmendNotSentIsSweptFromOutbox(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.drain()
	down := New(Options{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: failingQueue{e.q}})
	if err := down.AmendOrder(e.ctx, alice, "btcusdt", sell, "0.3"); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(alice, "BTC", "0.5", "0.5") // not applied yet
	recs := e.outbox("btcusdt")
	if len(recs) != 1 {
		t.Fatalf("%d outbox records, want the amend's", len(recs))
	}
	// Its deduplication id names the request (order, new total in lots,
	// time), so resends of it are duplicates and a later request is not.
	if want := fmt.Sprintf("amend:%s:300000:%d", sell, recs[0].Int("at")); recs[0].Str("dedup") != want {
		t.Fatalf("dedup id %q, want %q", recs[0].Str("dedup"), want)
	}
	for range 2 { // the second sweep is a duplicate send
		if err := e.eng.sweep(e.ctx, true); err != nil {
			t.Fatal(err)
		}
		e.drain()
		e.wantBal(alice, "BTC", "0.7", "0.3")
		if n := len(e.outbox("btcusdt")); n != 0 {
			t.Fatalf("%d outbox records after the amend was applied", n)
		}
	}
	// The caller hangs up right after the amend is stored: it is still
	// sent and applied.
	ctx, cancel := context.WithCancel(e.ctx)
	hungUp := New(Options{Store: cancelAfterTransact{e.st, cancel}, Ledger: e.led, Markets: e.cat, Orders: cancelledCtxQueue{e.q}})
	if err := hungUp.AmendOrder(ctx, alice, "btcusdt", sell, "0.25"); err != nil {
		t.Fatal(err)
	}
	e.drain()
	e.wantBal(alice, "BTC", "0.75", "0.25")
	// An unsent amend the order's end overtook: the engine refuses it when
	// the sweep sends it, and its record goes.
	if err := down.AmendOrder(e.ctx, alice, "btcusdt", sell, "0.2"); err != nil {
		t.Fatal(err)
	}
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.25"))
	e.drain()
	e.wantOrder(alice, sell, StatusFilled, "0.25", "7500", "7.5")
	if err := e.eng.sweep(e.ctx, true); err != nil {
		t.Fatal(err)
	}
	e.drain()
	if n := len(e.outbox("btcusdt")); n != 0 {
		t.Fatalf("%d outbox records after the refused amend", n)
	}
	e.wantBal(alice, "BTC", "0.75", "0")
	e.audit()
}
