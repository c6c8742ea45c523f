package perp

import (
	"testing"
	"time"
)

func TestImpactPrice(t *testing.T) {
	// BTCUSDT at 125×: 200 ÷ 0.8 % = 25,000 USDT of impact notional.
	imn, _ := ImpactNotional(usdt, 125)
	if imn != 25_000*usdt {
		t.Fatalf("impact notional %d", imn)
	}
	// Bids: 300 contracts (0.3 BTC, 15,000) at 50,000.00, then 500 at 49,990.00.
	bids := []Level{{Price: 50_000_00, Qty: 300}, {Price: 49_990_00, Qty: 500}}
	// 15,000 at the first level, 10,000 more needs 200.04… → 201 contracts at 49,990.
	p, err := ImpactPrice(bids, imn, tickValue)
	if want := int64(300*50_000_00+201*49_990_00) / 501; err != nil || p != want {
		t.Fatalf("impact bid %d %v, want %d", p, err, want)
	}
	if p, _ := ImpactPrice(bids[:1], imn, tickValue); p != 0 {
		t.Fatalf("a side too thin answers %d", p)
	}
}

func TestSamplerFundingAndMark(t *testing.T) {
	s := &Sampler{Interval: 8 * time.Hour, BasisWindow: 3}
	at := time.Date(2026, 12, 7, 9, 30, 0, 0, time.UTC)
	if next := s.NextFunding(at); !next.Equal(time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)) {
		t.Fatalf("next funding %s", next)
	}
	if next := s.NextFunding(time.Date(2026, 12, 7, 16, 0, 0, 0, time.UTC)); !next.Equal(time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("next funding at a funding time %s", next)
	}
	// Impact bid 0.2 % over the index, then inside the spread twice: premiums 200,000, 0, 0.
	for _, x := range [][5]int64{{50_000_00, 50_090_00, 50_110_00, 50_100_00, 50_120_00}, {50_000_00, 49_999_00, 50_001_00, 49_990_00, 50_010_00},
		{50_000_00, 49_999_00, 50_003_00, 49_990_00, 50_010_00}, {50_000_00, 50_001_00, 50_005_00, 49_990_00, 50_010_00}} {
		if err := s.Sample(x[0], x[1], x[2], x[3], x[4]); err != nil {
			t.Fatal(err)
		}
	}
	// The basis window keeps the last 3 mids − index: 0, +1.00, +3.00 → 1.33 → 133 ticks.
	if b := s.Basis(); b != 133 {
		t.Fatalf("basis %d", b)
	}
	// Premium samples 200,000, 0, 0, 0 weighted 1..4: 20,000 (0.02 %) → within the clamp: the interest 0.01 %.
	rate, err := s.Funding(10_000, 300_000)
	if err != nil || rate != 10_000 || s.LastRate() != 10_000 {
		t.Fatalf("funding rate %d %v", rate, err)
	}
	// Half an interval to go: price 1 = index × (1 + 0.01 % × 0.5) = 50,002.50; price 2 = 50,001.33; last 50,010.
	m, err := s.Mark(time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC), 50_000_00, 50_010_00)
	if err != nil || m != 50_002_50 {
		t.Fatalf("mark %d %v", m, err)
	}
	if err := s.Sample(0, 0, 0, 0, 0); err == nil {
		t.Fatal("a sample without an index was taken")
	}
}
