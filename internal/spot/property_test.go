package spot

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/coins"
	"tenger/internal/markets"
	"tenger/internal/matching"
)

// TestRandomTradingConservesHoldings places random orders of every type from
// several users (with cancels, restarts and crashes in between), then
// cancels everything: no hold is left, the store agrees with the engine, the
// audit is clean, and per coin the users' holdings plus the fees equal what
// was deposited.
func TestRandomTradingConservesHoldings(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { randomTrading(t, seed, 250) })
	}
}

func randomTrading(t *testing.T, seed int64, n int) {
	e := newEnv(t)
	rng := rand.New(rand.NewSource(seed))
	users := []string{"10000011", "10000012", "10000013", "10000014"}
	for _, u := range users {
		e.deposit(u, "BTC", "5")
		e.deposit(u, "USDT", "200000")
	}
	var placed []struct{ uid, id string }
	qty := func() string { return decimal.New(int64(1+rng.Intn(5000)), -5).String() } // 0.00001..0.05
	price := func() string { return decimal.NewFromInt(int64(29900 + 10*rng.Intn(21))).String() }
	for i := 0; i < n; i++ {
		u := users[rng.Intn(len(users))]
		side := []string{"BUY", "SELL"}[rng.Intn(2)]
		var r PlaceRequest
		switch k := rng.Intn(10); {
		case k < 5:
			r = limit("btcusdt", side, price(), qty())
		case k == 5:
			r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypeIOC, Price: price(), Volume: qty()}
		case k == 6:
			r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypeFOK, Price: price(), Volume: qty()}
		case k == 7:
			r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypePostOnly, Price: price(), Volume: qty()}
		case k == 8 && side == "BUY":
			r = PlaceRequest{Symbol: "btcusdt", Side: side, Type: TypeMarket, QuoteVolume: fmt.Sprint(10 + rng.Intn(3000))}
		default:
			r = PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeMarket, Volume: qty()}
		}
		id, err := e.svc.PlaceOrder(e.ctx, u, r)
		if err != nil {
			if ae := apperr.As(err); ae.Entry.Code != apperr.CodeTradeMinNotional && ae.Entry.Code != apperr.CodeTradeInsufficient {
				t.Fatalf("place %+v: %v", r, err)
			}
		} else {
			placed = append(placed, struct{ uid, id string }{u, id})
		}
		if rng.Intn(8) == 0 && len(placed) > 0 {
			p := placed[rng.Intn(len(placed))]
			_ = e.svc.CancelOrder(e.ctx, p.uid, "btcusdt", p.id) // may be finished already
		}
		if rng.Intn(5) == 0 {
			e.drain()
		}
		switch rng.Intn(60) {
		case 0:
			e.wantSameAfter(e.restart, users, []string{"BTC", "USDT"}) // from the snapshot written at the stop
		case 1:
			e.wantSameAfter(e.crash, users, []string{"BTC", "USDT"}) // the journal since the last snapshot is replayed
		}
	}
	e.drain()
	for _, u := range users {
		if err := e.svc.CancelAll(e.ctx, u, ""); err != nil {
			t.Fatal(err)
		}
	}
	e.drain()
	sum := map[string]decimal.Decimal{}
	for _, u := range users {
		for _, c := range []string{"BTC", "USDT"} {
			b, err := e.led.Balance(e.ctx, spotAccount(u), c)
			if err != nil {
				t.Fatal(err)
			}
			if !b.Frozen.IsZero() {
				t.Fatalf("%s keeps %s %s frozen with no open order", u, b.Frozen, c)
			}
			sum[c] = sum[c].Add(b.Total())
		}
	}
	trades := 0
	for _, p := range placed {
		o := e.order(p.uid, p.id)
		if o.Status.Open() {
			t.Fatalf("order %s still %s after cancel-all", o.ID, o.Status.Text())
		}
		if o.Status == StatusFilled && o.Type != TypeMarket && !o.DealVolume.Equal(o.Volume) {
			t.Fatalf("filled order %s dealt %s of %s", o.ID, o.DealVolume, o.Volume)
		}
		if o.DealVolume.IsPositive() {
			trades++
		}
	}
	if trades < 10 {
		t.Fatalf("only %d orders traded: the workload does not exercise matching", trades)
	}
	for _, c := range []string{"BTC", "USDT"} {
		fee := e.balance("FEES", c)
		want := dec("20")
		if c == "USDT" {
			want = dec("800000")
		}
		if got := sum[c].Add(fee.Total()); !got.Equal(want) {
			t.Fatalf("%s: users %s + fees %s = %s, deposited %s", c, sum[c], fee.Total(), got, want)
		}
	}
	e.audit()
}

// FuzzCheckOrder: the validator never panics, and whatever it accepts is on
// the pair's grid, above its minimums, with something to spend: a
// quantity, a quote amount, or (a market buy by quantity) a budget.
func FuzzCheckOrder(f *testing.F) {
	f.Add("btcusdt", "BUY", "LIMIT", "30000", "0.1", "", "")
	f.Add("btcusdt", "BUY", "MARKET", "", "", "100", "")
	f.Add("btcusdt", "BUY", "MARKET", "", "0.01", "", "")
	f.Add("ethusdt", "SELL", "STOP_LIMIT", "2000.5", "0.3", "", "1999")
	f.Add("usdtmnt", "SELL", "POST_ONLY", "3450.1", "10", "", "")
	f.Add("btcusdt", "BUY", "FOK", "1e9", "1e-9", "", "")
	cat := markets.Defaults()
	f.Fuzz(func(t *testing.T, symbol, side, typ, price, vol, quote, stop string) {
		c, err := checkOrder(cat, PlaceRequest{Symbol: symbol, Side: side, Type: typ, Price: price, Volume: vol,
			QuoteVolume: quote, StopPrice: stop}, 10000001, 1)
		if err != nil {
			if apperr.As(err).Entry.Code == apperr.CodeInternal {
				t.Fatalf("validator error outside the catalogue: %v", err)
			}
			return
		}
		switch {
		case c.byBase:
			// A market buy by volume is budgeted at entry: at most its
			// volume at the book's top price, less with a band price.
			if c.maxBudget <= 0 || c.cmd.Quote != 0 || c.cmd.Qty <= 0 {
				t.Fatalf("market buy by volume: budget cap %d, quote %d, qty %d", c.maxBudget, c.cmd.Quote, c.cmd.Qty)
			}
			if l := budgetLimit(&c, decimal.Zero); l != c.maxBudget {
				t.Fatalf("budget %d without a band price, cap %d", l, c.maxBudget)
			}
			if l := budgetLimit(&c, dec("0.5")); l > c.maxBudget || l < 0 {
				t.Fatalf("budget %d with a band price, cap %d", l, c.maxBudget)
			}
		case c.cmd.Type == matching.Market && c.side == "BUY":
			if c.cmd.Quote <= 0 {
				t.Fatalf("market buy by quote amount %d", c.cmd.Quote)
			}
		case c.cmd.Qty <= 0 || c.cmd.Type != matching.Market && c.cmd.Price <= 0:
			t.Fatalf("accepted with quantity %d, price %d", c.cmd.Qty, c.cmd.Price)
		}
		for _, n := range []string{price, vol, quote, stop} {
			if n := strings.TrimSpace(n); n != "" && !coins.IsPlainDecimal(n) {
				t.Fatalf("accepted the number %q", n)
			}
		}
		if c.cmd.Type == matching.Market && strings.TrimSpace(price) != "" {
			t.Fatal("a market order accepted with a price")
		}
		if c.cmd.Qty > 0 && !c.cfg.FromLots(c.cmd.Qty).Mod(c.cfg.LotSize).IsZero() {
			t.Fatal("quantity off the lot grid")
		}
		if c.cmd.Qty > 0 && c.cfg.FromLots(c.cmd.Qty).LessThan(c.pair.MinQty) {
			t.Fatal("quantity below the minimum")
		}
		if c.cmd.Price > 0 && c.cmd.Qty > 0 && c.cfg.FromQuoteUnits(c.cmd.Price*c.cmd.Qty).LessThan(c.pair.MinNotional) {
			t.Fatal("notional below the minimum")
		}
	})
}
