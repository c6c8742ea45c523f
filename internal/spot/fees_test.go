package spot

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
)

type feeCoinOn map[string]bool

func (f feeCoinOn) FeeCoinOpen(_ context.Context, uid string) (bool, error) { return f[uid], nil }

func TestFeeTiersAndFeeCoinDiscount(t *testing.T) {
	for _, c := range []struct{ vol, maker, taker string }{
		{"0", "0.001", "0.001"}, {"49999.99", "0.001", "0.001"}, {"50000", "0.0009", "0.001"},
		{"600000", "0.0008", "0.0009"}, {"9000000", "0.0006", "0.0008"},
	} {
		tr := tierFor(DefaultFeeTiers, dec(c.vol))
		if !tr.Maker.Equal(dec(c.maker)) || !tr.Taker.Equal(dec(c.taker)) {
			t.Fatalf("volume %s: tier %+v", c.vol, tr)
		}
	}
	if f := feeOf(dec("0.000001"), dec("0.001")); !f.Equal(dec("0.00000001")) {
		t.Fatalf("tiny fee %s: rounds up to 8 decimals", f)
	}
	if f := feeOf(dec("0.00000001"), dec("0.5")); !f.Equal(dec("0.00000001")) {
		t.Fatalf("fee %s exceeds the amount", f)
	}

	e := newEnv(t)
	e.svc = New(Options{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, FeeCoin: feeCoinOn{bob: true}})
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.4"))
	e.drain()
	// bob pays 0.1% less 25%: 0.075% of 0.4 BTC.
	e.wantOrder(bob, buy, StatusFilled, "0.4", "12000", "0.0003")
	vol, err := thirtyDayVolume(e.ctx, e.st, bob, e.svc.now())
	if err != nil || !vol.Equal(decimal.NewFromInt(12000)) {
		t.Fatalf("bob's 30-day volume %s %v", vol, err)
	}
	e.audit()
}
