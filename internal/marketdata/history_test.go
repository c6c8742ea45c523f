package marketdata

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestSeedHistoryGivesANewPairAConsistentPast(t *testing.T) {
	e := newEnv(t)
	e.clock.Set(at("2026-02-04T10:17:42Z"))
	ctx := context.Background()
	// ethusdt traded before: it is not seeded.
	e.feed("ethusdt", Trade{ID: "1", Symbol: "ethusdt", Price: d("2500"), Qty: d("1"), TakerSide: "BUY", At: at("2026-02-04T10:00:00Z")})

	seeded, err := e.md.SeedHistory(ctx, map[string]decimal.Decimal{"btcusdt": d("64000"), "ethusdt": d("2600")}, 2*24*time.Hour, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if len(seeded) != 1 || seeded[0] != "btcusdt" {
		t.Fatalf("seeded %v, want only btcusdt", seeded)
	}
	pair, _ := e.md.markets.Pair("btcusdt")
	end := at("2026-02-04T10:17:00Z").Unix()
	ones, err := e.md.Klines(ctx, "btcusdt", Min1, 0, 0, MaxKlineLimit)
	if err != nil {
		t.Fatal(err)
	}
	if len(ones) != MaxKlineLimit {
		t.Fatalf("1min candles %d, want the limit %d (two days are 2880)", len(ones), MaxKlineLimit)
	}
	lastOne := ones[len(ones)-1]
	if lastOne.ID != end-60 {
		t.Fatalf("newest candle starts at %d, want the minute before now %d", lastOne.ID, end-60)
	}
	if !d(lastOne.Close).Equal(d("64000")) {
		t.Fatalf("history ends at %s, want the maker's price 64000", lastOne.Close)
	}
	for _, k := range ones {
		o, h, l, c := d(k.Open), d(k.High), d(k.Low), d(k.Close)
		if h.LessThan(decimal.Max(o, c)) || l.GreaterThan(decimal.Min(o, c)) || !l.IsPositive() {
			t.Fatalf("candle %d inconsistent: %+v", k.ID, k)
		}
		for _, v := range []decimal.Decimal{o, h, l, c} {
			if !v.Mod(pair.PriceTick).IsZero() {
				t.Fatalf("candle %d price %s off the tick %s", k.ID, v, pair.PriceTick)
			}
		}
		if !d(k.Vol).IsPositive() || !d(k.Vol).Mod(pair.LotSize).IsZero() || k.Count <= 0 {
			t.Fatalf("candle %d volume %s (lot %s) count %d", k.ID, k.Vol, pair.LotSize, k.Count)
		}
	}
	// An hour's candle is its minutes put together.
	hours, err := e.md.Klines(ctx, "btcusdt", Min60, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	h := hours[len(hours)-2] // 09:00, complete
	if h.ID != at("2026-02-04T09:00:00Z").Unix() {
		t.Fatalf("hour candle %d", h.ID)
	}
	var vol decimal.Decimal
	high, low := decimal.Zero, decimal.Decimal{}
	var open, closing string
	for _, k := range ones {
		if k.ID < h.ID || k.ID >= h.ID+3600 {
			continue
		}
		if open == "" {
			open = k.Open
			low = d(k.Low)
		}
		closing = k.Close
		vol = vol.Add(d(k.Vol))
		high = decimal.Max(high, d(k.High))
		low = decimal.Min(low, d(k.Low))
	}
	if h.Open != open || h.Close != closing || !d(h.High).Equal(high) || !d(h.Low).Equal(low) || !d(h.Vol).Equal(vol) {
		t.Fatalf("hour %+v does not sum its minutes: open %s close %s high %s low %s vol %s", h, open, closing, high, low, vol)
	}
	// The 24 h ticker and the last price come from the seeded past.
	tk, err := e.md.Ticker("btcusdt")
	if err != nil {
		t.Fatal(err)
	}
	if !d(tk.Vol).IsPositive() || tk.Count == 0 || !d(tk.Close).Equal(d("64000")) {
		t.Fatalf("ticker %+v", tk)
	}
	if p, ok := e.md.LastPrice("btcusdt"); !ok || !p.Equal(d("64000")) {
		t.Fatalf("last price %s %v", p, ok)
	}

	// A live trade continues the current hour; after it no start seeds again,
	// and the history survives the restart.
	e.feed("btcusdt", tr("1", "2026-02-04T10:17:50Z", "64010", "0.5", "BUY"))
	e.restart()
	again, err := e.md.SeedHistory(ctx, map[string]decimal.Decimal{"btcusdt": d("1")}, time.Hour, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 0 {
		t.Fatalf("seeded again %v after a real trade", again)
	}
	after, err := e.md.Klines(ctx, "btcusdt", Min1, 0, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 3 || after[2].Close != "64010.00" || after[1].ID != end-60 || !d(after[1].Close).Equal(d("64000")) {
		t.Fatalf("after a trade and a restart: %+v", after)
	}
}

func TestSeedHistoryIsRedoneWholeWhenNoTradeFollowed(t *testing.T) {
	// A seed cut short (or a restart before the first trade) is done again:
	// seeded candles carry no trade id.
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.md.SeedHistory(ctx, map[string]decimal.Decimal{"btcusdt": d("64000")}, time.Hour, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	e.restart()
	got, err := e.md.SeedHistory(ctx, map[string]decimal.Decimal{"btcusdt": d("65000")}, time.Hour, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("seeded %v, want btcusdt again", got)
	}
	ones, err := e.md.Klines(ctx, "btcusdt", Min1, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(ones) != 60 || !d(ones[59].Close).Equal(d("65000")) {
		t.Fatalf("%d candles, last %+v", len(ones), ones[len(ones)-1])
	}
}
