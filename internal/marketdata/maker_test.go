package marketdata

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/markets"
	"tenger/internal/wallet"
)

type fakeOrder struct {
	uid, symbol, side string
	price, qty        decimal.Decimal
}

// fakePlacer is an order placer that only records open orders.
type fakePlacer struct {
	mu       sync.Mutex
	seq      int
	open     map[string]fakeOrder
	placed   []fakeOrder
	canceled int
	// emptied notes each cancel that left its user without an open order
	// on that side of that book.
	emptied []string
	// fillAll makes every open order fill between OpenOrders and Cancel:
	// the cancel is refused as the spot service refuses it (14015).
	fillAll bool
}

var _ OrderPlacer = (*fakePlacer)(nil)

func (f *fakePlacer) PlaceLimit(_ context.Context, uid, symbol, side string, price, qty decimal.Decimal) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	id := fmt.Sprint(f.seq)
	o := fakeOrder{uid, symbol, side, price, qty}
	f.open[id] = o
	f.placed = append(f.placed, o)
	return id, nil
}

func (f *fakePlacer) Cancel(_ context.Context, uid, symbol, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.open[id]
	if !ok || o.uid != uid || o.symbol != symbol {
		return fmt.Errorf("no order %s", id)
	}
	delete(f.open, id)
	if f.fillAll {
		return apperr.New(apperr.CodeTradeOrderFinished)
	}
	f.canceled++
	left := 0
	for _, x := range f.open {
		if x.uid == uid && x.symbol == symbol && x.side == o.side {
			left++
		}
	}
	if left == 0 {
		f.emptied = append(f.emptied, uid+" "+symbol+" "+o.side)
	}
	return nil
}

func (f *fakePlacer) OpenOrders(_ context.Context, uid, symbol string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	for id, o := range f.open {
		if o.uid == uid && o.symbol == symbol {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

func (f *fakePlacer) orders(uid, symbol string) []fakeOrder {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeOrder
	for _, o := range f.open {
		if o.uid == uid && o.symbol == symbol {
			out = append(out, o)
		}
	}
	return out
}

type fakeAccounts struct {
	users  map[string]string
	funded map[string]decimal.Decimal // uid/coin → amount
}

func (a *fakeAccounts) EnsureMakerUser(_ context.Context, name string) (string, error) {
	if uid, ok := a.users[name]; ok {
		return uid, nil
	}
	uid := fmt.Sprintf("u%d", len(a.users)+1)
	a.users[name] = uid
	return uid, nil
}

func (a *fakeAccounts) Fund(_ context.Context, uid, coin string, amount decimal.Decimal) error {
	a.funded[uid+"/"+coin] = amount
	return nil
}

func newMakerEnv(t *testing.T, symbols ...string) (*Maker, *fakePlacer, *fakeAccounts) {
	t.Helper()
	pl := &fakePlacer{open: map[string]fakeOrder{}}
	acc := &fakeAccounts{users: map[string]string{}, funded: map[string]decimal.Decimal{}}
	seed := wallet.NewStaticPrices(map[string]decimal.Decimal{"BTC": d("60000"), "ETH": d("3000")}, d("3450"))
	m := NewMaker(MakerOptions{Placer: pl, Accounts: acc, Markets: markets.Defaults(), Seed: seed, Symbols: symbols,
		Levels: 5, TradeProb: 1, Rand: rand.New(rand.NewPCG(1, 2)), Log: zerolog.Nop()})
	if err := m.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m, pl, acc
}

// An order of the maker's that fills before the maker cancels it is gone
// already: the refused cancel (14015) is no failure, and the round still
// places its new quotes and cancels the rest of the old ones.
func TestMakerCancelOfAFilledOrder(t *testing.T) {
	m, pl, acc := newMakerEnv(t, "btcusdt")
	if err := m.Step(context.Background()); err != nil {
		t.Fatal(err)
	}
	pl.fillAll = true
	if err := m.Step(context.Background()); err != nil {
		t.Fatalf("a round whose old orders had filled failed: %v", err)
	}
	var bids, asks int
	for _, o := range pl.orders(acc.users[MakerQuoter], "btcusdt") {
		if o.side == "BUY" {
			bids++
		} else {
			asks++
		}
	}
	if bids != 5 || asks != 5 {
		t.Fatalf("the quoter has %d bids and %d asks after the round, want 5 and 5", bids, asks)
	}
}

// The quoter's new quotes go in before its old ones are cancelled: its side
// of a book is never empty between two steps.
func TestMakerNeverEmptiesTheBook(t *testing.T) {
	m, pl, acc := newMakerEnv(t, "btcusdt", "btcmnt")
	for round := 0; round < 10; round++ {
		if err := m.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	quoter := acc.users[MakerQuoter]
	for _, e := range pl.emptied {
		if strings.HasPrefix(e, quoter+" ") {
			t.Fatalf("a requote emptied the book: %s (all: %v)", e, pl.emptied)
		}
	}
	if pl.canceled == 0 {
		t.Fatal("nothing was requoted")
	}
}

func TestMakerKeepsTwoSidedBooks(t *testing.T) {
	m, pl, acc := newMakerEnv(t, "btcusdt", "usdtmnt", "btcmnt", "trxusdt")
	quoter, taker := acc.users[MakerQuoter], acc.users[MakerTaker]
	if quoter == "" || taker == "" || quoter == taker {
		t.Fatalf("users %v", acc.users)
	}
	// Funded in every coin of the seeded pairs; trxusdt has no seed price and is skipped.
	for _, c := range []string{"BTC", "USDT", "MNT"} {
		for _, u := range []string{quoter, taker} {
			if !acc.funded[u+"/"+c].IsPositive() {
				t.Fatalf("%s not funded in %s: %v", u, c, acc.funded)
			}
		}
	}
	if _, ok := acc.funded[quoter+"/TRX"]; ok {
		t.Fatal("TRX funded without a price")
	}
	if got := acc.funded[quoter+"/BTC"]; !got.Equal(d("5000000").DivRound(d("60000"), 8)) {
		t.Fatalf("BTC fund %s", got)
	}
	ctx := context.Background()
	cat := markets.Defaults()
	for round := 0; round < 30; round++ {
		if err := m.Step(ctx); err != nil {
			t.Fatal(err)
		}
		for _, sym := range []string{"btcusdt", "usdtmnt", "btcmnt"} {
			p, _ := cat.Pair(sym)
			book := pl.orders(quoter, sym)
			if len(book) != 10 {
				t.Fatalf("round %d %s: %d quoter orders", round, sym, len(book))
			}
			var maxBid, minAsk decimal.Decimal
			for _, o := range book {
				if !o.price.Mod(p.PriceTick).IsZero() || !o.qty.Mod(p.LotSize).IsZero() {
					t.Fatalf("%s off grid: %+v", sym, o)
				}
				if o.qty.LessThan(p.MinQty) || o.qty.Mul(o.price).LessThan(p.MinNotional) {
					t.Fatalf("%s below minimums: %+v", sym, o)
				}
				if o.side == "BUY" && o.price.GreaterThan(maxBid) {
					maxBid = o.price
				}
				if o.side == "SELL" && (minAsk.IsZero() || o.price.LessThan(minAsk)) {
					minAsk = o.price
				}
			}
			if !minAsk.GreaterThan(maxBid) {
				t.Fatalf("%s crossed book: bid %s ask %s", sym, maxBid, minAsk)
			}
			// The taker crosses the best level with one order.
			tk := pl.orders(taker, sym)
			if len(tk) != 1 || !(tk[0].side == "BUY" && tk[0].price.Equal(minAsk) || tk[0].side == "SELL" && tk[0].price.Equal(maxBid)) {
				t.Fatalf("%s taker orders %+v (bid %s ask %s)", sym, tk, maxBid, minAsk)
			}
			// The reference stays near the seed (mean reversion).
			ref, _ := m.Reference(sym)
			seed := m.seed[sym]
			if ref.Sub(seed).Abs().GreaterThan(seed.Mul(d("0.2"))) {
				t.Fatalf("%s reference %s drifted from %s", sym, ref, seed)
			}
		}
	}
	if _, ok := m.Reference("trxusdt"); ok {
		t.Fatal("trxusdt quoted without a price")
	}
	// Every round replaced the previous orders.
	if pl.canceled != 29*3*11 {
		t.Fatalf("canceled %d", pl.canceled)
	}
	if ref, _ := m.Reference("usdtmnt"); !ref.IsPositive() || ref.Sub(d("3450")).Abs().GreaterThan(d("690")) {
		t.Fatalf("usdtmnt reference %s", ref)
	}
}

func TestMakerContinuesFromLastPrice(t *testing.T) {
	pl := &fakePlacer{open: map[string]fakeOrder{}}
	acc := &fakeAccounts{users: map[string]string{}, funded: map[string]decimal.Decimal{}}
	m := NewMaker(MakerOptions{Placer: pl, Accounts: acc, Markets: markets.Defaults(), Seed: wallet.SeededPrices(),
		Symbols: []string{"btcusdt"}, Rand: rand.New(rand.NewPCG(3, 4)),
		Last: func(string) (decimal.Decimal, bool) { return d("12345.67"), true }})
	if err := m.Setup(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ref, _ := m.Reference("btcusdt"); !ref.Equal(d("12345.67")) {
		t.Fatalf("reference %s", ref)
	}
}
