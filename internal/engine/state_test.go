package engine

import (
	"bytes"
	"errors"
	"testing"

	"tenger/internal/matching"
	"tenger/internal/risk"
)

const btcusdt = 7

// setup lists BTC and USDT (8 decimals) and BTC/USDT with a lot of 100
// units (0.000001 BTC) and a quote unit of one USDT unit.
func setup() []Command {
	return []Command{
		{Kind: KindAddCoin, Coin: "BTC", Decimals: 8},
		{Kind: KindAddCoin, Coin: "USDT", Decimals: 8},
		{Kind: KindAddPair, Pair: PairSpec{Symbol: btcusdt, Name: "btcusdt", Base: "BTC", Quote: "USDT", LotUnits: 100, QuoteUnitUnits: 1}},
	}
}

func credit(ref string, user uint64, coin string, amount int64) Command {
	return Command{Kind: KindCredit, Ref: ref, User: user, UserID: uid(user), Coin: coin, Amount: amount}
}

func uid(user uint64) string { return string(rune('a' + user)) }

func place(id, user uint64, side matching.Side, ticks, lots int64) Command {
	return Command{Kind: KindPlace, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, UserID: user,
		Symbol: btcusdt, Side: side, Type: matching.Limit, TIF: matching.GTC, Price: ticks, Qty: lots},
		Spec: risk.OrderSpec{Maker: 100_000, Taker: 100_000}}
}

func run(t *testing.T, s *State, cmds ...Command) []Result {
	t.Helper()
	var out []Result
	for i := range cmds {
		c := cmds[i]
		out = append(out, s.Apply(&c))
		s.ResetEvents()
		if err := s.Check(); err != nil {
			t.Fatalf("after %s: %v", c.Kind, err)
		}
	}
	return out
}

func codes(rs []Result) []Code {
	var out []Code
	for _, r := range rs {
		out = append(out, r.Code)
	}
	return out
}

func TestMoneyCommandsAreIdempotent(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	got := codes(run(t, s,
		credit("dep:1", 1, "USDT", 1000),
		credit("dep:1", 1, "USDT", 1000), // a retry
		credit("dep:1", 1, "USDT", 999),  // the same ref for something else
		credit("dep:2", 1, "DOGE", 1),
		Command{Kind: KindHold, Ref: "wd:1", User: 1, UserID: uid(1), Coin: "USDT", Amount: 600},
		Command{Kind: KindHold, Ref: "wd:2", User: 1, UserID: uid(1), Coin: "USDT", Amount: 600}, // 400 left
		Command{Kind: KindDebit, Ref: "tr:1", User: 1, UserID: uid(1), Coin: "USDT", Amount: 400},
		Command{Kind: KindSettle, Ref: "wd:1", Amount: 600},
		Command{Kind: KindSettle, Ref: "wd:1", Amount: 600},  // a retry
		Command{Kind: KindRelease, Ref: "wd:1", Amount: 600}, // ended the other way
		Command{Kind: KindRelease, Ref: "wd:9", Amount: 1},
		Command{Kind: KindDebit, Ref: "tr:2", User: 2, UserID: uid(2), Coin: "USDT", Amount: 1},
	))
	want := []Code{OK, Exists, Conflict, UnknownCoin, OK, Insufficient, OK, OK, Exists, Conflict, UnknownHold, Insufficient}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("command %d: %s, want %s (all: %v)", i, got[i], want[i], got)
		}
	}
	usdt, _ := s.Coin("USDT")
	if b := s.acct.Get(1, risk.KindSpot, usdt); b.Avail != 0 || b.Held != 0 {
		t.Fatalf("balance %+v: 1000 in, 600 withdrawn, 400 out", b)
	}
}

func TestOrdersThroughRiskAndBook(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	run(t, s, credit("d1", 1, "BTC", 200_000_000), credit("d2", 2, "USDT", 10_000_000_000_000)) // 2 BTC; 100,000 USDT
	rs := run(t, s,
		place(11, 1, matching.Sell, 3_000_000, 1_000_000),                                           // 1 BTC at 30,000
		place(12, 2, matching.Buy, 3_000_000, 400_000),                                              // 0.4 of it
		place(13, 2, matching.Buy, 3_000_000, 10_000_000),                                           // 300,000 USDT: too much
		place(11, 1, matching.Sell, 3_100_000, 1),                                                   // a duplicate id
		Command{Kind: KindCancel, Order: matching.Command{OrderID: 11, UserID: 2, Symbol: btcusdt}}, // not bob's
		Command{Kind: KindAmend, Order: matching.Command{OrderID: 11, UserID: 1, Symbol: btcusdt, Qty: 100_000}},
		Command{Kind: KindCancelAll, Order: matching.Command{UserID: 1}},
		Command{Kind: KindPlace, Order: matching.Command{OrderID: 14, UserID: 1, Symbol: 99, Side: matching.Sell,
			Type: matching.Limit, TIF: matching.GTC, Price: 1, Qty: 1}},
	)
	want := []Code{OK, OK, Insufficient, Rejected, Rejected, OK, OK, UnknownPair}
	for i := range want {
		if rs[i].Code != want[i] {
			t.Fatalf("command %d: %s (%s), want %s", i, rs[i].Code, rs[i].Reason, want[i])
		}
	}
	if rs[3].Reason != matching.ReasonDuplicateOrderID || rs[4].Reason != matching.ReasonUnknownOrder {
		t.Fatalf("reasons %s and %s", rs[3].Reason, rs[4].Reason)
	}
	btc, _ := s.Coin("BTC")
	usdt, _ := s.Coin("USDT")
	// alice sold 0.4 of her 2 and has the rest back after the cancel; bob
	// paid 12,000.
	if b := s.acct.Get(1, risk.KindSpot, btc); b.Avail != 160_000_000 || b.Held != 0 {
		t.Fatalf("alice BTC %+v", b)
	}
	if b := s.acct.Get(2, risk.KindSpot, usdt); b.Avail != 10_000_000_000_000-1_200_000_000_000 || b.Held != 0 {
		t.Fatalf("bob USDT %+v", b)
	}
	if rs[7].Seq != s.Seq() {
		t.Fatalf("seq %d of %d", rs[7].Seq, s.Seq())
	}
}

// The same commands from the same state give the same state.
func TestStateIsDeterministic(t *testing.T) {
	cmds := append(setup(), credit("d1", 1, "BTC", 100_000_000), credit("d2", 2, "USDT", 1_000_000_000_000))
	for i := uint64(0); i < 200; i++ {
		side := matching.Buy
		user := uint64(2)
		if i%2 == 0 {
			side, user = matching.Sell, 1
		}
		cmds = append(cmds, place(100+i, user, side, 3_000_000+int64(i%7-3)*100, int64(1000+i*10)))
		if i%5 == 0 {
			cmds = append(cmds, Command{Kind: KindCancel, Order: matching.Command{OrderID: 100 + i - 3, UserID: user, Symbol: btcusdt}})
		}
	}
	a, b := NewState(), NewState()
	run(t, a, cmds...)
	run(t, b, cmds...)
	if a.StateHash() != b.StateHash() {
		t.Fatal("two states of the same commands differ")
	}
	c := NewState()
	run(t, c, cmds[:len(cmds)-1]...)
	if c.StateHash() == a.StateHash() {
		t.Fatal("the hash did not see the last command")
	}
}

func TestStateSnapshotRestore(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	run(t, s, credit("d1", 1, "BTC", 200_000_000), credit("d2", 2, "USDT", 10_000_000_000_000),
		place(11, 1, matching.Sell, 3_000_000, 1_000_000), place(12, 2, matching.Buy, 2_900_000, 400_000),
		Command{Kind: KindHold, Ref: "wd:1", User: 2, UserID: uid(2), Coin: "USDT", Amount: 5})
	var buf bytes.Buffer
	if err := s.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := RestoreState(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if r.StateHash() != s.StateHash() || r.Seq() != s.Seq() {
		t.Fatal("the restored state differs")
	}
	more := []Command{place(13, 2, matching.Buy, 3_000_000, 100_000), {Kind: KindSettle, Ref: "wd:1", Amount: 5},
		credit("d1", 1, "BTC", 200_000_000)}
	run(t, s, more...)
	run(t, r, more...)
	if r.StateHash() != s.StateHash() {
		t.Fatal("the restored state diverged")
	}
	b := buf.Bytes()
	b[len(b)/2] ^= 1
	if _, err := RestoreState(bytes.NewReader(b)); !errors.Is(err, ErrBadSnapshot) {
		t.Fatalf("a corrupt snapshot: %v", err)
	}
}

// An amendment names the order's new total quantity: the engine turns it
// into the book's remaining quantity against the live order, refuses one
// that would not reduce it, and cancels the rest when the fills reached
// the new total.
func TestAmendTakesTheNewTotal(t *testing.T) {
	s := NewState()
	run(t, s, setup()...)
	run(t, s, credit("d1", 1, "BTC", 200_000_000), credit("d2", 2, "USDT", 10_000_000_000_000))
	amend := func(id, user uint64, total int64) Command {
		return Command{Kind: KindAmend, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, UserID: user, Symbol: btcusdt, Qty: total}}
	}
	rs := run(t, s,
		place(11, 1, matching.Sell, 3_000_000, 1_000_000), // 1 BTC
		place(12, 2, matching.Buy, 3_000_000, 400_000),    // fills 0.4 of it
		amend(11, 1, 1_000_000),                           // not a reduction: refused
		amend(11, 1, 700_000),                             // total 0.7: 0.3 left
	)
	if got := codes(rs); got[2] != Rejected || got[3] != OK {
		t.Fatalf("codes %v", got)
	}
	info, ok := s.Book(btcusdt).Order(11)
	if !ok || info.Qty != 300_000 || info.Filled != 400_000 {
		t.Fatalf("order after the amendment %+v %v", info, ok)
	}
	btc, _ := s.Coin("BTC")
	if b := s.Accounts().Get(1, risk.KindSpot, btc); b.Held != 300_000*100 || b.Avail != 200_000_000-700_000*100 {
		t.Fatalf("seller's BTC %+v", b)
	}
	// The fills reach 0.4, the new total asks 0.4: the rest is cancelled
	// and its hold released.
	rs = run(t, s, amend(11, 1, 400_000))
	if rs[0].Code != OK {
		t.Fatal(rs[0].Code)
	}
	if _, ok := s.Book(btcusdt).Order(11); ok {
		t.Fatal("the order still rests")
	}
	if b := s.Accounts().Get(1, risk.KindSpot, btc); b.Held != 0 || b.Avail != 200_000_000-400_000*100 {
		t.Fatalf("seller's BTC after the cancel %+v", b)
	}
}
