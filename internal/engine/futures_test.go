package engine

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"tenger/internal/matching"
	"tenger/internal/perp"
	"tenger/internal/risk"
)

const (
	btcPerp = 1<<31 | 1
	usdt    = 100_000_000 // engine units of 1 USDT
)

// contract is BTCUSDT as the default catalogue has it: 0.001 BTC a
// contract on a 0.1 tick (10,000 units a tick), Binance's first tiers.
func contract() Command {
	return Command{Kind: KindAddContract, Contract: ContractSpec{Symbol: btcPerp, Name: "BTCUSDT", Quote: "USDT", TickValue: 10_000,
		MaxPrice: 10_000_000_0, Maker: 20_000, Taker: 50_000, LiqFee: 1_250_000,
		Tiers: []perp.Tier{{Cap: 50_000 * usdt, MMR: 400_000, MaxLeverage: 125}, {Cap: 250_000 * usdt, MMR: 500_000, MaxLeverage: 100}},
		Book:  matching.BookConfig{Symbol: btcPerp, MaxPrice: 10_000_000_0, MaxQty: 1_000_000}}}
}

func futOrder(id, user uint64, side matching.Side, price, qty int64, tif matching.TimeInForce) Command {
	return Command{Kind: KindPlace, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, UserID: user,
		Symbol: btcPerp, Side: side, Type: matching.Limit, TIF: tif, Price: price, Qty: qty},
		Spec: risk.OrderSpec{Kind: risk.KindFutures, Maker: 20_000, Taker: 50_000}}
}

func futCmd(kind Kind, user uint64, amount int64) Command {
	return Command{Kind: kind, User: user, UserID: uid(user), Amount: amount, Order: matching.Command{Symbol: btcPerp}}
}

// apply runs commands, checking the invariants after each, and answers
// their codes and the positions the marks among them made liquidatable.
func apply(t *testing.T, s *State, cmds ...Command) ([]Code, []risk.PositionRef) {
	t.Helper()
	var codes []Code
	var due []risk.PositionRef
	for i := range cmds {
		c := cmds[i]
		codes = append(codes, s.Apply(&c).Code)
		due = append(due, s.Liquidatable()...)
		s.ResetEvents()
		if err := s.Check(); err != nil {
			t.Fatalf("after %s: %v", c.Kind, err)
		}
	}
	return codes, due
}

// The engine's futures commands: a contract listed, margin moved in from
// spot once per Ref, leverage and mode set, an isolated 10× long opened
// against a short through the book, a mark that makes it liquidatable,
// its liquidation in two steps (its other orders cancelled; the IOC at the
// bankruptcy price and the take-over of the rest by auto-deleveraging),
// funding once per Ref; then the same state through a snapshot.
func TestFuturesCommands(t *testing.T) {
	s := NewState()
	cmds := append(setup(), contract(),
		credit("dep:1", 1, "USDT", 10_000*usdt), credit("dep:2", 2, "USDT", 10_000*usdt))
	got, _ := apply(t, s, cmds...)
	if !slices.Equal(got, []Code{OK, OK, OK, OK, OK, OK}) {
		t.Fatalf("set-up %v", got)
	}
	in := func(ref string, user uint64, amount int64, account risk.Kind) Command {
		return Command{Kind: KindFutTransfer, Ref: ref, User: user, UserID: uid(user), Coin: "USDT", Amount: amount, Account: account}
	}
	got, _ = apply(t, s,
		in("ft:1", 1, 6_000*usdt, risk.KindFutures), in("ft:1", 1, 6_000*usdt, risk.KindFutures), in("ft:1", 1, 1, risk.KindFutures),
		in("ft:2", 2, 6_000*usdt, risk.KindFutures), in("ft:3", 3, 1, risk.KindFutures),
		futCmd(KindFutMarginMode, 1, 1), futCmd(KindFutLeverage, 1, 10), futCmd(KindFutLeverage, 1, 126),
		futCmd(KindFutLeverage, 2, 10),
		futOrder(1, 2, matching.Sell, 500_000, 1_000, matching.GTC), // 1 BTC at 50,000.0
		futOrder(2, 1, matching.Buy, 500_000, 1_000, matching.GTC),
		futOrder(3, 1, matching.Buy, 400_000, 10, matching.GTC), // rests; cancelled by the liquidation
		futCmd(KindFutMarginMode, 1, 0),                         // a position: locked
		Command{Kind: KindAmend, User: 1, UserID: uid(1), Order: matching.Command{OrderID: 3, UserID: 1, Symbol: btcPerp, Qty: 5}},
	)
	want := []Code{OK, Exists, Conflict, OK, Insufficient, OK, OK, LeverageTooHigh, OK, OK, OK, OK, ModeLocked, Invalid}
	if !slices.Equal(got, want) {
		t.Fatalf("codes %v, want %v", got, want)
	}
	p, _ := s.fut.Position(1, btcPerp, risk.PosBoth)
	if p.Qty != 1_000 || p.Margin != 5_000*usdt || !p.Isolated {
		t.Fatalf("position %+v", p)
	}
	// The mark falls to 45,150.0: user 1 is liquidatable (at 45,180.7).
	got, due := apply(t, s, futCmd(KindMark, 0, 451_500))
	if got[0] != OK || len(due) != 1 || due[0].User != 1 {
		t.Fatalf("mark %v, due %+v", got, due)
	}
	before := s.StateHash()
	var snap bytes.Buffer
	if err := s.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	s2, err := RestoreState(bytes.NewReader(snap.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if s2.StateHash() != before {
		t.Fatal("the restored state hashes differently")
	}
	rest := []Command{
		futCmd(KindLiquidate, 1, 1), futCmd(KindLiquidate, 1, 2),
		futCmd(KindMark, 0, 460_000),
		{Kind: KindFunding, Ref: "funding:1", Amount: 10_000, Order: matching.Command{Symbol: btcPerp}},
		{Kind: KindFunding, Ref: "funding:1", Amount: 10_000, Order: matching.Command{Symbol: btcPerp}},
		in("ft:4", 2, 1_000*usdt, risk.KindSpot),
	}
	for _, st := range []*State{s, s2} {
		got, _ := apply(t, st, rest...)
		if !slices.Equal(got, []Code{OK, OK, OK, OK, Exists, OK}) {
			t.Fatalf("liquidation, funding, transfer out: %v", got)
		}
	}
	if s.StateHash() != s2.StateHash() {
		t.Fatal("the restored engine diverged")
	}
	// Nobody bid and the fund is empty: the short was deleveraged at the bankruptcy price, 45,000.0.
	p1, _ := s.fut.Position(1, btcPerp, risk.PosBoth)
	p2, _ := s.fut.Position(2, btcPerp, risk.PosBoth)
	if p1.Qty != 0 || p2.Qty != 0 {
		t.Fatalf("after the liquidation: %+v %+v", p1, p2)
	}
	if b := s.acct.Get(1, risk.KindFutures, s.coins["USDT"]); b.Held != 0 {
		t.Fatalf("user 1's futures balance %+v", b)
	}
	if b := s.acct.Get(2, risk.KindSpot, s.coins["USDT"]); b.Avail != 5_000*usdt {
		t.Fatalf("user 2's spot balance after 1,000 out %+v", b)
	}
}

// A pair and a contract never share a symbol.
func TestContractSymbolsAreTheirOwn(t *testing.T) {
	s := NewState()
	apply(t, s, setup()...)
	k := contract()
	k.Contract.Symbol = btcusdt
	p := Command{Kind: KindAddPair, Pair: PairSpec{Symbol: btcPerp, Name: "x", Base: "BTC", Quote: "USDT", LotUnits: 1, QuoteUnitUnits: 1}}
	got, _ := apply(t, s, k, contract(), contract(), p, futCmd(KindMark, 0, 1), Command{Kind: KindMark, Amount: 1, Order: matching.Command{Symbol: 99}})
	if !slices.Equal(got, []Code{Invalid, OK, Exists, Invalid, OK, UnknownPair}) {
		t.Fatalf("codes %v", got)
	}
}

// Every futures command survives the journal's encoding.
func TestFuturesCommandCodec(t *testing.T) {
	cmds := []Command{contract(), futOrder(9, 3, matching.Sell, 1, 2, matching.IOC),
		{Kind: KindFutTransfer, Ref: "ft:9", User: 3, UserID: "c", Coin: "USDT", Amount: 5, Account: risk.KindSpot}}
	for _, k := range []Kind{KindFutLeverage, KindFutMarginMode, KindFutMargin, KindMark, KindLiquidate} {
		cmds = append(cmds, futCmd(k, 3, -7))
	}
	cmds = append(cmds, Command{Kind: KindFunding, Ref: "funding:9", Amount: -30, Order: matching.Command{Symbol: btcPerp}})
	for i := range cmds {
		c := cmds[i]
		c.Order.Kind = bookKind(c.Kind)
		var back Command
		if err := DecodeCommand(AppendCommand(nil, &c), &back); err != nil {
			t.Fatalf("%s: %v", c.Kind, err)
		}
		if c.Kind != KindPlace { // an order's book command carries only what the codec keeps of it
			if !reflect.DeepEqual(back, c) {
				t.Fatalf("%s: %+v, want %+v", c.Kind, back, c)
			}
		}
	}
	// A reduce-only order keeps its flag and its account.
	ro := futOrder(10, 3, matching.Buy, 1, 2, matching.GTC)
	ro.Spec.ReduceOnly = true
	var back Command
	if err := DecodeCommand(AppendCommand(nil, &ro), &back); err != nil || back.Spec != ro.Spec {
		t.Fatalf("reduce-only: %+v, %v", back.Spec, err)
	}
	// Hedge mode: an order's, a margin change's and a liquidation's
	// position side, and the mode itself.
	for _, side := range []risk.PosSide{risk.PosLong, risk.PosShort} {
		o := futOrder(11, 3, matching.Sell, 1, 2, matching.GTC)
		o.Spec.PosSide, o.Spec.ReduceOnly = side, true
		if err := DecodeCommand(AppendCommand(nil, &o), &back); err != nil || back.Spec != o.Spec {
			t.Fatalf("order on side %d: %+v, %v", side, back.Spec, err)
		}
		for _, k := range []Kind{KindFutMargin, KindLiquidate} {
			c := futCmd(k, 3, 2)
			c.Spec.PosSide = side
			if err := DecodeCommand(AppendCommand(nil, &c), &back); err != nil || !reflect.DeepEqual(back, c) {
				t.Fatalf("%s on side %d: %+v, %v", k, side, back, err)
			}
		}
	}
	mode := Command{Kind: KindPositionMode, User: 3, UserID: "c", Amount: 1}
	if err := DecodeCommand(AppendCommand(nil, &mode), &back); err != nil || !reflect.DeepEqual(back, mode) {
		t.Fatalf("position mode: %+v, %v", back, err)
	}
	// One-way commands encode as before hedge mode (journals written then
	// read the same).
	if m := futCmd(KindFutMargin, 3, 2); len(AppendCommand(nil, &m)) != len(AppendCommand(nil, &Command{Kind: KindMark, Order: m.Order}))+len(m.UserID) {
		t.Fatal("a one-way margin change's encoding grew")
	}
}

// Hedge mode in the engine: the mode command (refused with armed
// triggers or anything open), a long and a short of one user at once,
// and a close trigger of the short side firing into a resting order.
func TestHedgeModeEngine(t *testing.T) {
	s := NewState()
	apply(t, s, append(setup(), contract(), credit("dep:1", 1, "USDT", 20_000*usdt), credit("dep:2", 2, "USDT", 20_000*usdt))...)
	for u := uint64(1); u <= 2; u++ {
		apply(t, s, Command{Kind: KindFutTransfer, Ref: "ft:" + uid(u), User: u, UserID: uid(u), Coin: "USDT", Amount: 15_000 * usdt,
			Account: risk.KindFutures}, futCmd(KindFutLeverage, u, 10))
	}
	apply(t, s, futCmd(KindMark, 0, 500_000), Command{Kind: KindPositionMode, User: 1, UserID: uid(1), Amount: 1})
	side := func(c Command, ps risk.PosSide) Command { c.Spec.PosSide = ps; return c }
	if r := s.Apply(&[]Command{futOrder(1, 1, matching.Buy, 500_000, 1_000, matching.GTC)}[0]); r.Code != PositionSide {
		t.Fatalf("a one-way order in hedge mode: %s", r.Code)
	}
	if codes, _ := apply(t, s, futOrder(2, 2, matching.Sell, 500_000, 1_000, matching.GTC),
		side(futOrder(3, 1, matching.Buy, 500_000, 1_000, matching.GTC), risk.PosLong), futOrder(4, 2, matching.Buy, 500_000, 500, matching.GTC),
		side(futOrder(5, 1, matching.Sell, 500_000, 500, matching.GTC), risk.PosShort)); !slices.Equal(codes, []Code{OK, OK, OK, OK}) {
		t.Fatalf("orders %v", codes)
	}
	if l, _ := s.fut.Position(1, btcPerp, risk.PosLong); l.Qty != 1_000 {
		t.Fatalf("long %+v", l)
	}
	if sh, _ := s.fut.Position(1, btcPerp, risk.PosShort); sh.Qty != -500 {
		t.Fatalf("short %+v", sh)
	}
	if r := s.Apply(&Command{Kind: KindPositionMode, User: 1, UserID: uid(1), At: 1}); r.Code != ModeLocked {
		t.Fatalf("mode with positions: %s", r.Code)
	}
	// A stop of the short (closing it whole when the mark rises to
	// 51,000), fired into user 2's ask.
	stop := side(futOrder(6, 1, matching.Buy, 0, 0, matching.IOC), risk.PosShort)
	stop.Kind, stop.Order.Type, stop.Trigger = KindTrigger, matching.Market, TriggerSpec{Price: 510_000, Above: true, Close: true}
	if codes, _ := apply(t, s, stop, futOrder(7, 2, matching.Sell, 510_000, 2_000, matching.GTC)); !slices.Equal(codes, []Code{OK, OK}) {
		t.Fatalf("stop and ask: %v", codes)
	}
	mark := futCmd(KindMark, 0, 510_000)
	s.Apply(&mark)
	if got := s.Triggered(); len(got) != 1 || got[0].ID != 6 {
		t.Fatalf("triggered %+v", got)
	}
	s.ResetEvents()
	apply(t, s, Command{Kind: KindTriggerFire, Order: matching.Command{OrderID: 6, Symbol: btcPerp}})
	if sh, _ := s.fut.Position(1, btcPerp, risk.PosShort); sh.Qty != 0 {
		t.Fatalf("short after its stop %+v", sh)
	}
	if l, _ := s.fut.Position(1, btcPerp, risk.PosLong); l.Qty != 1_000 {
		t.Fatalf("the long moved: %+v", l)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// Trigger orders: a stop-loss and a take-profit closing a long, armed by
// the mark; one already reached is refused; another user cannot cancel
// them; the mark reaching the stop answers it (again at the next mark
// until fired), the snapshot keeps it, and firing it closes the position
// into a resting bid, once.
func TestTriggerOrders(t *testing.T) {
	s := NewState()
	apply(t, s, append(setup(), contract(), credit("dep:1", 1, "USDT", 10_000*usdt), credit("dep:2", 2, "USDT", 10_000*usdt),
		credit("dep:3", 3, "USDT", 10_000*usdt))...)
	for u := uint64(1); u <= 3; u++ {
		apply(t, s, Command{Kind: KindFutTransfer, Ref: "ft:" + uid(u), User: u, UserID: uid(u), Coin: "USDT", Amount: 8_000 * usdt,
			Account: risk.KindFutures}, futCmd(KindFutLeverage, u, 10))
	}
	apply(t, s, futCmd(KindMark, 0, 500_000),
		futOrder(1, 2, matching.Sell, 500_000, 1_000, matching.GTC), futOrder(2, 1, matching.Buy, 500_000, 1_000, matching.GTC))
	arm := func(id, user uint64, price int64, above, close bool) Command {
		c := futOrder(id, user, matching.Sell, 0, 0, matching.IOC)
		c.Kind, c.Order.Type = KindTrigger, matching.Market
		c.Trigger = TriggerSpec{Price: price, Above: above, Close: close}
		return c
	}
	cancel := func(id, user uint64) Command {
		return Command{Kind: KindTriggerCancel, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, Symbol: btcPerp}}
	}
	got, _ := apply(t, s, arm(100, 1, 490_000, false, true), arm(101, 1, 520_000, true, true), arm(102, 1, 500_000, false, true),
		arm(100, 1, 480_000, false, true), cancel(101, 2), cancel(101, 1), cancel(101, 1))
	if want := []Code{OK, OK, WouldTrigger, Exists, UnknownOrder, OK, UnknownOrder}; !slices.Equal(got, want) {
		t.Fatalf("codes %v, want %v", got, want)
	}
	apply(t, s, futOrder(3, 3, matching.Buy, 489_000, 1_000, matching.GTC))
	var reached []TriggerRef
	mark := func(st *State, price int64) []TriggerRef {
		c := futCmd(KindMark, 0, price)
		st.Apply(&c)
		out := append([]TriggerRef(nil), st.Triggered()...)
		st.ResetEvents()
		return out
	}
	if reached = mark(s, 495_000); len(reached) != 0 {
		t.Fatalf("reached above the stop: %+v", reached)
	}
	if reached = mark(s, 489_500); len(reached) != 1 || reached[0].ID != 100 || reached[0].User != 1 {
		t.Fatalf("reached %+v", reached)
	}
	if again := mark(s, 489_600); len(again) != 1 || again[0].ID != 100 {
		t.Fatalf("not answered again before it fired: %+v", again)
	}
	var snap bytes.Buffer
	if err := s.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	s2, err := RestoreState(bytes.NewReader(snap.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if s2.StateHash() != s.StateHash() {
		t.Fatal("the restored state hashes differently")
	}
	fire := Command{Kind: KindTriggerFire, Order: matching.Command{OrderID: 100, Symbol: btcPerp}}
	for _, st := range []*State{s, s2} {
		got, _ := apply(t, st, fire, fire)
		if !slices.Equal(got, []Code{OK, UnknownOrder}) {
			t.Fatalf("fire: %v", got)
		}
		if p, _ := st.fut.Position(1, btcPerp, risk.PosBoth); p.Qty != 0 {
			t.Fatalf("the stop did not close the long: %+v", p)
		}
		if p, _ := st.fut.Position(3, btcPerp, risk.PosBoth); p.Qty != 1_000 {
			t.Fatalf("the bid did not take it: %+v", p)
		}
	}
	if s.StateHash() != s2.StateHash() {
		t.Fatal("the restored engine diverged")
	}
	// The codec keeps a trigger's condition.
	c := arm(7, 3, 12_345, true, false)
	c.Trigger.ByLast = true
	var back Command
	if err := DecodeCommand(AppendCommand(nil, &c), &back); err != nil || back.Trigger != c.Trigger || back.Order.OrderID != 7 {
		t.Fatalf("trigger codec: %+v %v", back, err)
	}
}

// A TP/SL placed with an order waits for that order: unarmed while it
// rests unfilled (a mark past its price answers nothing), armed by the
// order's first fill, and cancelled with the order when it ends unfilled;
// a snapshot keeps one waiting.
func TestTriggerWaitsForItsOrder(t *testing.T) {
	s := NewState()
	apply(t, s, append(setup(), contract(), credit("dep:1", 1, "USDT", 10_000*usdt), credit("dep:2", 2, "USDT", 10_000*usdt))...)
	for u := uint64(1); u <= 2; u++ {
		apply(t, s, Command{Kind: KindFutTransfer, Ref: "ft:" + uid(u), User: u, UserID: uid(u), Coin: "USDT", Amount: 8_000 * usdt,
			Account: risk.KindFutures}, futCmd(KindFutLeverage, u, 10))
	}
	apply(t, s, futCmd(KindMark, 0, 500_000))
	stopOf := func(id, parent uint64) Command {
		c := futOrder(id, 1, matching.Sell, 0, 0, matching.IOC)
		c.Kind, c.Order.Type = KindTrigger, matching.Market
		c.Trigger = TriggerSpec{Price: 490_000, Close: true, Parent: parent}
		return c
	}
	// User 1's bid at 49,900 with its stop-loss at 49,000; a second bid
	// with another, to be cancelled unfilled.
	if codes, _ := apply(t, s, futOrder(1, 1, matching.Buy, 499_000, 1_000, matching.GTC), stopOf(2, 1),
		futOrder(3, 1, matching.Buy, 480_000, 400, matching.GTC), stopOf(4, 3)); !slices.Equal(codes, []Code{OK, OK, OK, OK}) {
		t.Fatalf("orders and their stops: %v", codes)
	}
	// The codec keeps the parent.
	var back Command
	if c := stopOf(2, 1); DecodeCommand(AppendCommand(nil, &c), &back) != nil || back.Trigger != c.Trigger {
		t.Fatalf("codec: %+v", back.Trigger)
	}
	mark := func(p int64) []TriggerRef {
		c := futCmd(KindMark, 0, p)
		s.Apply(&c)
		got := slices.Clone(s.Triggered())
		s.ResetEvents()
		return got
	}
	if got := mark(489_000); len(got) != 0 {
		t.Fatalf("a stop whose order has not filled answered %+v", got)
	}
	mark(500_000)
	// The snapshot keeps them waiting.
	var snap bytes.Buffer
	if err := s.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	s2, err := RestoreState(bytes.NewReader(snap.Bytes()))
	if err != nil || s2.StateHash() != s.StateHash() {
		t.Fatalf("restore: %v", err)
	}
	// User 2 sells into the first bid: its stop is armed; the second bid
	// is cancelled: its stop goes with it.
	for _, st := range []*State{s, s2} {
		apply(t, st, futOrder(5, 2, matching.Sell, 499_000, 1_000, matching.GTC))
		cancel := Command{Kind: KindCancel, User: 1, UserID: uid(1), Order: matching.Command{OrderID: 3, UserID: 1, Symbol: btcPerp}}
		st.Apply(&cancel)
		if d := st.Dropped(); len(d) != 1 || d[0].ID != 4 {
			t.Fatalf("dropped %+v", d)
		}
		st.ResetEvents()
		if _, ok := st.triggers[4]; ok {
			t.Fatal("the cancelled order's stop is still armed")
		}
	}
	if s2.StateHash() != s.StateHash() {
		t.Fatal("the restored engine diverged")
	}
	if got := mark(489_000); len(got) != 1 || got[0].ID != 2 {
		t.Fatalf("the filled order's stop answered %+v", got)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
