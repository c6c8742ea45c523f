package risk

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"tenger/internal/matching"
)

// env is one BTC/USDT book behind the spot risk engine: a lot is 0.000001
// BTC (100 units at 8 decimals), a tick 0.01 USDT, so a quote unit (tick ×
// lot) is 10^-8 USDT, one USDT unit.
type env struct {
	t    *testing.T
	acct *Accounts
	r    *Spot
	book *matching.Book
	out  *matching.EventBuffer
	seq  uint64
	btc  Coin
	usdt Coin
}

const sym = 7

// tee gives the book's events to R2 and keeps them.
type tee struct {
	r   *Spot
	out *matching.EventBuffer
}

func (t tee) Emit(e *matching.Event) { t.r.Emit(e); t.out.Emit(e) }

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, acct: NewAccounts(16), out: matching.NewEventBuffer(64)}
	e.btc, _ = e.acct.AddCoin(CoinInfo{Code: "BTC", Decimals: 8})
	e.usdt, _ = e.acct.AddCoin(CoinInfo{Code: "USDT", Decimals: 8})
	e.r = NewSpot(e.acct, 16)
	if err := e.r.AddSymbol(Symbol{ID: sym, Base: e.btc, Quote: e.usdt, LotUnits: 100, QuoteUnitUnits: 1}); err != nil {
		t.Fatal(err)
	}
	e.book = matching.NewBook(matching.BookConfig{Symbol: sym}, tee{e.r, e.out})
	return e
}

// fund credits a user's spot account (in engine units).
func (e *env) fund(user uint64, c Coin, units int64) {
	s := e.acct.Register(user, "u")
	if err := e.acct.Credit(s, KindSpot, c, units); err != nil {
		e.t.Fatal(err)
	}
}

var spec = OrderSpec{Kind: KindSpot, Maker: 100_000, Taker: 100_000} // 0.1%

// apply runs a command through R1, the book and R2, as the engine will.
func (e *env) apply(c matching.Command) Result {
	e.t.Helper()
	e.seq++
	c.Seq, c.Symbol = e.seq, sym
	switch c.Kind {
	case matching.CmdPlace:
		if res := e.r.Place(&c, spec); res != OK {
			return res
		}
	case matching.CmdAmend:
		o, _ := e.book.Order(c.OrderID)
		if res := e.r.Amend(&c, o.Tag); res != OK {
			return res
		}
	}
	e.book.Apply(&c)
	if err := e.r.Check(nil); err != nil {
		e.t.Fatal(err)
	}
	return OK
}

func limit(id, user uint64, side matching.Side, ticks, lots int64) matching.Command {
	return matching.Command{Kind: matching.CmdPlace, OrderID: id, UserID: user, Side: side, Type: matching.Limit,
		TIF: matching.GTC, Price: ticks, Qty: lots}
}

func (e *env) want(user uint64, c Coin, avail, held int64) {
	e.t.Helper()
	if b := e.acct.Get(user, KindSpot, c); b.Avail != avail || b.Held != held {
		e.t.Fatalf("user %d %s: available %d held %d, want %d and %d", user, e.acct.coins[c].Code, b.Avail, b.Held, avail, held)
	}
}

// The spot package's own example (fees_test.go), in engine units: alice
// sells 1 BTC at 30000, bob buys 0.4 of it; both pay 0.1% of what they
// receive, rounded up to 8 decimals.
func TestTradeSettlesLikeTheLedger(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 100_000_000)         // alice: 1 BTC
	e.fund(2, e.usdt, 10_000_000_000_000) // bob: 100,000 USDT
	// 30000 USDT is 3,000,000 ticks; 1 BTC is 1,000,000 lots.
	if res := e.apply(limit(11, 1, matching.Sell, 3_000_000, 1_000_000)); res != OK {
		t.Fatal(res)
	}
	e.want(1, e.btc, 0, 100_000_000)
	if res := e.apply(limit(12, 2, matching.Buy, 3_000_000, 400_000)); res != OK {
		t.Fatal(res)
	}
	// bob paid 12,000 USDT and received 0.4 BTC less 0.0004: 0.3996.
	e.want(2, e.usdt, 10_000_000_000_000-1_200_000_000_000, 0)
	e.want(2, e.btc, 39_960_000, 0)
	// alice's remaining 0.6 BTC rests; she received 12,000 less 12 USDT.
	e.want(1, e.btc, 0, 60_000_000)
	e.want(1, e.usdt, 1_200_000_000_000-1_200_000_000, 0)
	e.want(FeeUser, e.btc, 40_000, 0)
	e.want(FeeUser, e.usdt, 1_200_000_000, 0)
	// Cancelling releases the rest of alice's hold.
	e.apply(matching.Command{Kind: matching.CmdCancel, OrderID: 11, UserID: 1})
	e.want(1, e.btc, 60_000_000, 0)
	if e.r.Orders() != 0 {
		t.Fatalf("%d orders still hold funds", e.r.Orders())
	}
}

// A buy at a limit above the maker's price pays the maker's price; the
// improvement is released when the order ends, and a market buy's unspent
// budget when it ends.
func TestPriceImprovementAndBudgetsAreReleased(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 100_000_000)
	e.fund(2, e.usdt, 1_000_000_000_000)                    // 10,000 USDT
	e.apply(limit(1, 1, matching.Sell, 1_000_000, 100_000)) // 0.1 BTC at 10,000
	// 0.1 at 12,000 holds 1,200 USDT, pays 1,000.
	e.apply(limit(2, 2, matching.Buy, 1_200_000, 100_000))
	e.want(2, e.usdt, 1_000_000_000_000-100_000_000_000, 0)
	e.apply(limit(3, 1, matching.Sell, 1_000_000, 100_000))
	// A market buy with a 2,000 USDT budget buys the 0.1 at 10,000.
	mkt := matching.Command{Kind: matching.CmdPlace, OrderID: 4, UserID: 2, Side: matching.Buy, Type: matching.Market,
		TIF: matching.IOC, Quote: 200_000_000_000}
	e.apply(mkt)
	e.want(2, e.usdt, 1_000_000_000_000-200_000_000_000, 0)
	e.want(2, e.btc, 2*(10_000_000-10_000), 0)
}

func TestInsufficientIsRefusedBeforeTheBook(t *testing.T) {
	e := newEnv(t)
	e.fund(2, e.usdt, 99_999_999_999) // 999.99999999 USDT
	if res := e.apply(limit(1, 2, matching.Buy, 1_000_000, 100_000)); res != Insufficient {
		t.Fatalf("a 1,000 USDT buy with 999.99999999: %s", res)
	}
	if len(e.out.Events) != 0 || e.book.Len() != 0 {
		t.Fatal("a refused order reached the book")
	}
	if res := e.apply(limit(2, 9, matching.Sell, 1, 1)); res != Insufficient {
		t.Fatalf("an unknown user's order: %s", res)
	}
	e.want(2, e.usdt, 99_999_999_999, 0)
}

func TestRejectedPlaceAndDuplicateIDs(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 100_000_000)
	e.fund(2, e.usdt, 1_000_000_000_000)
	e.apply(limit(1, 1, matching.Sell, 1_000_000, 100_000))
	// Post-only that would take: the book rejects it, the hold comes back.
	po := limit(2, 2, matching.Buy, 1_000_000, 1000)
	po.TIF = matching.PostOnly
	e.apply(po)
	e.want(2, e.usdt, 1_000_000_000_000, 0)
	// An id already open is refused by the book: the new hold comes back,
	// the open order keeps its own.
	e.out.Reset()
	e.apply(limit(1, 1, matching.Sell, 2_000_000, 10))
	if len(e.out.Events) != 1 || e.out.Events[0].Reason != matching.ReasonDuplicateOrderID {
		t.Fatalf("duplicate id: %+v", e.out.Events)
	}
	e.want(1, e.btc, 90_000_000, 10_000_000)
	// Another user's cancel of order 1 is refused by the book; 1 keeps its hold.
	e.apply(matching.Command{Kind: matching.CmdCancel, OrderID: 1, UserID: 2})
	e.want(1, e.btc, 90_000_000, 10_000_000)
}

func TestAmendReleasesAndHolds(t *testing.T) {
	e := newEnv(t)
	e.fund(2, e.usdt, 1_000_000_000_000)
	e.apply(limit(1, 2, matching.Buy, 1_000_000, 100_000)) // 1,000 USDT held
	e.apply(matching.Command{Kind: matching.CmdAmend, OrderID: 1, UserID: 2, Qty: 40_000})
	e.want(2, e.usdt, 1_000_000_000_000-40_000_000_000, 40_000_000_000)
	// A higher price needs more: held first.
	e.apply(matching.Command{Kind: matching.CmdAmend, OrderID: 1, UserID: 2, Price: 2_000_000, Qty: 40_000})
	e.want(2, e.usdt, 1_000_000_000_000-80_000_000_000, 80_000_000_000)
	// More than the balance: refused, nothing changes.
	if res := e.apply(matching.Command{Kind: matching.CmdAmend, OrderID: 1, UserID: 2, Qty: 10_000_000}); res != Insufficient {
		t.Fatalf("amend beyond the balance: %s", res)
	}
	if res := e.apply(matching.Command{Kind: matching.CmdAmend, OrderID: 1, UserID: 3, Qty: 1}); res != UnknownOrder {
		t.Fatalf("another user's amend: %s", res)
	}
	e.want(2, e.usdt, 1_000_000_000_000-80_000_000_000, 80_000_000_000)
}

func TestFeeRounding(t *testing.T) {
	for _, c := range []struct {
		amount int64
		rate   Rate
		step   int64
		want   int64
	}{
		{100, 100_000, 1, 1},                    // 0.000001 × 0.1%: 1e-9, up to 1e-8
		{1, 50_000_000, 1, 1},                   // capped at the amount
		{1_000_000_000, 75_000, 1, 750_000},     // 10 × 0.075%
		{1_000_000_001, 75_000, 1, 750_001},     // rounds up
		{1_000_000_000, 75_000, 10, 750_000},    // 9 decimals: 1 at 0.075% = 0.00075
		{1_000_000_001, 100_000, 10, 1_000_010}, // 1.000000001 × 0.1% = 0.001000000001, up to 0.00100001
		{0, 100_000, 1, 0},
		{1 << 62, 4_000_000_000, 1, 1 << 62}, // 4000%: capped
	} {
		if got := fee(c.amount, c.rate, c.step); got != c.want {
			t.Errorf("fee(%d, %d, %d) = %d, want %d", c.amount, c.rate, c.step, got, c.want)
		}
	}
}

func TestAccountsOps(t *testing.T) {
	a := NewAccounts(4)
	c, _ := a.AddCoin(CoinInfo{Code: "USDT", Decimals: 8})
	s := a.Register(5, "five")
	if a.Register(5, "five") != s || a.Slot(6) != NoSlot {
		t.Fatal("register")
	}
	if err := a.Credit(s, KindSpot, c, 10); err != nil {
		t.Fatal(err)
	}
	if err := a.Hold(s, KindSpot, c, 11); !errors.Is(err, ErrInsufficient) {
		t.Fatalf("hold beyond: %v", err)
	}
	if err := a.Debit(s, KindSpot, c, -1); !errors.Is(err, ErrNegative) {
		t.Fatalf("negative: %v", err)
	}
	if err := a.Credit(s, KindSpot, c, 1<<63-5); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow: %v", err)
	}
	if err := a.Hold(s, KindSpot, c, 4); err != nil {
		t.Fatal(err)
	}
	if err := a.Credit(s, KindSpot, c, 1<<63-1-9); !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow of avail + held: %v", err)
	}
	if b := a.Get(5, KindSpot, c); b.Avail != 6 || b.Held != 4 {
		t.Fatalf("%+v", b)
	}
}

// A coin listed while users hold balances keeps every balance where it was.
func TestAddCoinAfterUsers(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 5)
	e.fund(2, e.usdt, 7)
	ton, err := e.acct.AddCoin(CoinInfo{Code: "TON", Decimals: 9})
	if err != nil {
		t.Fatal(err)
	}
	e.fund(2, ton, 9)
	e.want(1, e.btc, 5, 0)
	e.want(2, e.usdt, 7, 0)
	e.want(2, ton, 9, 0)
	if _, err := e.acct.AddCoin(CoinInfo{Code: "MNT", Decimals: 2}); err == nil {
		t.Fatal("a coin with 2 decimals was taken")
	}
}

// Changed lists every balance a run of commands touched, once, with its
// final value; ClearChanged starts over.
func TestChangedBalances(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 100_000_000)
	e.fund(2, e.usdt, 1_000_000_000_000)
	e.acct.ClearChanged()
	e.apply(limit(1, 1, matching.Sell, 1_000_000, 100_000))
	e.apply(limit(2, 2, matching.Buy, 1_000_000, 40_000))
	got := map[string]Balance{}
	e.acct.Changed(func(u *User, k Kind, c Coin, was, b Balance) {
		if u.Num == 1 && c == e.btc && (was.Avail != 100_000_000 || was.Held != 0) {
			t.Fatalf("alice's BTC before the orders: %+v", was)
		}
		key := fmt.Sprintf("%d/%s", u.Num, e.acct.coins[c].Code)
		if _, dup := got[key]; dup {
			t.Fatalf("%s listed twice", key)
		}
		got[key] = b
	})
	want := map[string]Balance{
		"1/BTC": e.acct.Get(1, KindSpot, e.btc), "1/USDT": e.acct.Get(1, KindSpot, e.usdt),
		"2/BTC": e.acct.Get(2, KindSpot, e.btc), "2/USDT": e.acct.Get(2, KindSpot, e.usdt),
		fmt.Sprintf("%d/BTC", uint64(FeeUser)): e.acct.Get(FeeUser, KindSpot, e.btc), fmt.Sprintf("%d/USDT", uint64(FeeUser)): e.acct.Get(FeeUser, KindSpot, e.usdt),
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("changed %v\nwant %v", got, want)
	}
	e.acct.ClearChanged()
	n := 0
	e.acct.Changed(func(*User, Kind, Coin, Balance, Balance) { n++ })
	if n != 0 {
		t.Fatalf("%d changed after clearing", n)
	}
}

// A market buy by quantity given UpToAvailable holds what the account can
// spend, at most its band, and buys what that pays for.
func TestMarketBuyUpToAvailable(t *testing.T) {
	e := newEnv(t)
	e.fund(1, e.btc, 100_000_000)
	e.fund(2, e.usdt, 150_000_000_000)                        // 1,500 USDT
	e.apply(limit(1, 1, matching.Sell, 1_000_000, 1_000_000)) // 1 BTC at 10,000
	spec2 := OrderSpec{Kind: KindSpot, Maker: 100_000, Taker: 100_000, UpToAvailable: true}
	c := matching.Command{Kind: matching.CmdPlace, OrderID: 2, UserID: 2, Symbol: sym, Side: matching.Buy,
		Type: matching.Market, TIF: matching.IOC, Qty: 200_000, Quote: 300_000_000_000} // 0.2 BTC, band 3,000 USDT
	e.seq++
	c.Seq = e.seq
	if res := e.r.Place(&c, spec2); res != OK || c.Quote != 150_000_000_000 {
		t.Fatalf("%s, budget %d", res, c.Quote)
	}
	e.book.Apply(&c)
	if err := e.r.Check(nil); err != nil {
		t.Fatal(err)
	}
	// 1,500 USDT buys 0.15 BTC at 10,000.
	e.want(2, e.usdt, 0, 0)
	e.want(2, e.btc, 15_000_000-15_000, 0)
	if f := e.r.TakeFees(); len(f) != 1 || f[0].Buy != 15_000 || f[0].Sell != 150_000_000 {
		t.Fatalf("fees %+v", f)
	}
	if len(e.r.TakeFees()) != 0 {
		t.Fatal("fees taken twice")
	}
	// Nothing to spend: refused.
	c2 := c
	c2.OrderID, c2.Quote = 3, 300_000_000_000
	if res := e.r.Place(&c2, spec2); res != Insufficient {
		t.Fatalf("%s with nothing to spend", res)
	}
}
