package spot

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/refprice"
)

// fixedPrices are reference prices a test sets, in USDT per coin.
type fixedPrices map[string]string

func (f fixedPrices) USDTPrice(_ context.Context, coin string) (decimal.Decimal, bool, error) {
	if strings.EqualFold(coin, "USDT") {
		return decimal.NewFromInt(1), true, nil
	}
	p, ok := f[strings.ToUpper(coin)]
	if !ok {
		return decimal.Zero, false, nil
	}
	return dec(p), true, nil
}

func (f fixedPrices) PairPrice(ctx context.Context, base, quote string) (decimal.Decimal, bool, error) {
	b, ok, _ := f.USDTPrice(ctx, base)
	q, ok2, _ := f.USDTPrice(ctx, quote)
	if !ok || !ok2 {
		return decimal.Zero, false, nil
	}
	return b.DivRound(q, 18), true, nil
}

var _ RefPrices = fixedPrices(nil)
var _ RefPrices = (*refprice.Reader)(nil)

// withPrices starts the env's runtime and service with reference prices.
func withPrices(p RefPrices) func(*env) { return func(e *env) { e.prices = p } }

// A self-trade far below the market adds its trade value to the fee tier's
// volume, not the base at the reference price; one far above adds the base
// at the reference price, not its trade value. Trades of other quotes count
// too, valued the same way.
func TestVolumeIsTheLowerOfTradeAndReferenceValue(t *testing.T) {
	e := newEnv(t, withPrices(fixedPrices{"BTC": "97000", "MNT": "0.0002898550724637681"})) // 3450 MNT per USDT
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "1000000")
	e.deposit(bob, "MNT", "1000000000")
	e.place(alice, limit("btcusdt", "SELL", "100", "0.05"))
	e.place(bob, limit("btcusdt", "BUY", "100", "0.05"))
	e.drain()
	vol, _ := thirtyDayVolume(e.ctx, e.raw, bob, e.svc.now())
	if !vol.Equal(dec("5")) {
		t.Fatalf("a 5 USDT trade at 100 added %s USDT of volume", vol)
	}
	e.place(alice, limit("btcusdt", "SELL", "10000000", "0.05"))
	e.place(bob, limit("btcusdt", "BUY", "10000000", "0.05"))
	e.drain()
	vol, _ = thirtyDayVolume(e.ctx, e.raw, alice, e.svc.now())
	if !vol.Equal(dec("4855")) { // 5 + 0.05 × 97,000
		t.Fatalf("alice's volume %s after a 500,000 USDT self-trade of 0.05 BTC, want 4855", vol)
	}
	// 0.01 BTC at 335,000,000 MNT (97,101 USDT at 3450): its reference value, 970.
	e.place(alice, limit("btcmnt", "SELL", "335000000", "0.01"))
	e.place(bob, limit("btcmnt", "BUY", "335000000", "0.01"))
	e.drain()
	vol, _ = thirtyDayVolume(e.ctx, e.raw, bob, e.svc.now())
	if !vol.Equal(dec("5").Add(dec("4850")).Add(dec("970"))) {
		t.Fatalf("bob's volume %s after a btcmnt trade", vol)
	}
	e.audit()
}

// The band of a market buy by quantity follows the reference price, not a
// last trade price pushed far up by a self-trade (which would let the buy
// sweep asks placed far above the market).
func TestMarketBuyBandFollowsTheReferencePrice(t *testing.T) {
	e := newEnv(t, withPrices(fixedPrices{"BTC": "30000"}))
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "1000000")
	e.deposit(carol, "USDT", "100000")
	// A self-trade at 300,000 makes that the last price.
	e.place(alice, limit("btcusdt", "SELL", "300000", "0.001"))
	e.place(bob, limit("btcusdt", "BUY", "300000", "0.001"))
	e.drain()
	// Carol's market buy of 0.1 may spend at most 0.1 × 30,000 × 1.5 =
	// 4,500, not 45,000.
	e.place(alice, limit("btcusdt", "SELL", "200000", "0.1"))
	buy := e.place(carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeMarket, Volume: "0.1"})
	e.drain()
	// The budget, not the 20,000 the whole quantity would cost at the ask
	// of 200,000, is what she can lose to it (with the last price as the
	// band, all 0.1 would have been bought).
	e.wantOrder(carol, buy, StatusCancelled, "0.0225", "4500", "0.0000225")
	e.wantBal(carol, "USDT", "95500", "0")
	e.audit()
}
