package spot

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
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

	e := newEnv(t, func(e *env) { e.feeCoin = feeCoinOn{bob: true} })
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.4"))
	e.drain()
	// bob pays 0.1% less 25%: 0.075% of 0.4 BTC.
	e.wantOrder(bob, buy, StatusFilled, "0.4", "12000", "0.0003")
	vol, err := thirtyDayVolume(e.ctx, e.raw, bob, e.svc.now())
	if err != nil || !vol.Equal(decimal.NewFromInt(12000)) {
		t.Fatalf("bob's 30-day volume %s %v", vol, err)
	}
	// What the fee-rate route tells each of them.
	for _, c := range []struct {
		uid, maker, taker, vol string
		feeCoin                bool
	}{{alice, "0.001", "0.001", "12000", false}, {bob, "0.00075", "0.00075", "12000", true}} {
		svc := New(Options{Store: e.raw, Markets: e.cat, Engine: e.rt, FeeCoin: feeCoinOn{bob: true}})
		fr, err := svc.FeeRates(e.ctx, c.uid)
		if err != nil || !fr.Maker.Equal(dec(c.maker)) || !fr.Taker.Equal(dec(c.taker)) || !fr.Volume30d.Equal(dec(c.vol)) || fr.FeeCoin != c.feeCoin {
			t.Fatalf("%s's fee rates %+v %v", c.uid, fr, err)
		}
	}
	e.audit()
}

// The fee-coin switch applies to the very next order and fee-rate answer,
// although the tier from the 30-day volume is reused for a minute.
func TestFeeCoinSwitchAppliesAtOnce(t *testing.T) {
	sw := feeCoinOn{}
	e := newEnv(t, func(e *env) { e.feeCoin = sw })
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	if fr, err := e.svc.FeeRates(e.ctx, bob); err != nil || fr.FeeCoin || !fr.Taker.Equal(dec("0.001")) {
		t.Fatalf("switch off: %+v %v", fr, err)
	}
	sw[bob] = true
	if fr, err := e.svc.FeeRates(e.ctx, bob); err != nil || !fr.FeeCoin || !fr.Taker.Equal(dec("0.00075")) {
		t.Fatalf("switch just turned on: %+v %v", fr, err)
	}
	e.place(alice, limit("btcusdt", "SELL", "30000", "1"))
	buy := e.place(bob, limit("btcusdt", "BUY", "30000", "0.4"))
	e.drain()
	e.wantOrder(bob, buy, StatusFilled, "0.4", "12000", "0.0003")
	sw[bob] = false
	if fr, err := e.svc.FeeRates(e.ctx, bob); err != nil || fr.FeeCoin || !fr.Taker.Equal(dec("0.001")) {
		t.Fatalf("switch just turned off: %+v %v", fr, err)
	}
	e.audit()
}

// Every trade's volume counts once for each side, however the projection
// spreads a day over items, and items of the old one-per-day layout and of
// earlier days in the window count too.
func TestThirtyDayVolumeSumsEveryTrade(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "1000000")
	const trades = 2*volumeShards + 3
	for i := 0; i < trades; i++ {
		e.place(alice, limit("btcusdt", "SELL", "30000", "0.01"))
		e.place(bob, limit("btcusdt", "BUY", "30000", "0.01"))
	}
	e.drain()
	now := e.svc.now()
	want := decimal.NewFromInt(300 * trades)
	for _, uid := range []string{alice, bob} {
		vol, err := thirtyDayVolume(e.ctx, e.raw, uid, now)
		if err != nil || !vol.Equal(want) {
			t.Fatalf("%s's 30-day volume %s %v, want %s", uid, vol, err, want)
		}
	}
	day := func(d time.Duration) string { return now.Add(d).UTC().Format("20060102") }
	for _, it := range []store.Item{
		{store.AttrPK: pkVolume + bob, store.AttrSK: day(-24 * time.Hour), "vol": decimal.NewFromInt(7)},
		{store.AttrPK: pkVolume + bob, store.AttrSK: day(-48*time.Hour) + "#3", "vol": decimal.NewFromInt(11)},
		{store.AttrPK: pkVolume + bob, store.AttrSK: day(-volumeWindow-48*time.Hour) + "#3", "vol": decimal.NewFromInt(1000)},
	} {
		if err := e.raw.Put(e.ctx, it, nil); err != nil {
			t.Fatal(err)
		}
	}
	vol, err := thirtyDayVolume(e.ctx, e.raw, bob, now)
	if err != nil || !vol.Equal(want.Add(decimal.NewFromInt(18))) {
		t.Fatalf("bob's 30-day volume %s %v, want %s + 18", vol, err, want)
	}
	e.audit()
}
