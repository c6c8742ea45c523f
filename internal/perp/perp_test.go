package perp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

const usdt = 100_000_000 // engine units of 1 USDT

// btcTiers is Binance's BTCUSDT table (REFERENCES (b)): caps 50k, 250k,
// 1M, 5M, 20M USDT; MMR 0.4, 0.5, 1, 2.5, 5 %; leverage 125 … 10.
func btcTiers(t testing.TB) Tiers {
	t.Helper()
	tiers, err := NewTiers([]Tier{
		{Cap: 50_000 * usdt, MMR: 400_000, MaxLeverage: 125},
		{Cap: 250_000 * usdt, MMR: 500_000, MaxLeverage: 100},
		{Cap: 1_000_000 * usdt, MMR: 1_000_000, MaxLeverage: 50},
		{Cap: 5_000_000 * usdt, MMR: 2_500_000, MaxLeverage: 20},
		{Cap: 20_000_000 * usdt, MMR: 5_000_000, MaxLeverage: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tiers
}

// A 0.001 BTC contract on a 0.01 USDT tick: 1,000 units a tick.
const tickValue = 1_000

func TestTiersCum(t *testing.T) {
	tiers := btcTiers(t)
	for i, want := range []int64{0, 50, 1_300, 16_300, 141_300} {
		if tiers[i].Cum != want*usdt {
			t.Fatalf("tier %d cum %d, want %d USDT", i+1, tiers[i].Cum, want)
		}
	}
	// Continuous at every cap: both tiers' formulas agree there.
	for i := 0; i+1 < len(tiers); i++ {
		a, _ := tiers.maintenanceIn(i, tiers[i].Cap)
		b, _ := tiers.maintenanceIn(i+1, tiers[i].Cap)
		if a != b {
			t.Fatalf("cap %d: %d vs %d", i+1, a, b)
		}
	}
	if mm, _ := tiers.Maintenance(100_000 * usdt); mm != 450*usdt {
		t.Fatalf("maintenance of 100k: %d", mm)
	}
	if lev := tiers.MaxLeverage(300_000 * usdt); lev != 50 {
		t.Fatalf("leverage at 300k: %d", lev)
	}
	if _, err := tiers.For(20_000_001 * usdt); !errors.Is(err, ErrLimit) {
		t.Fatalf("beyond the limit: %v", err)
	}
	for _, bad := range [][]Tier{
		nil,
		{{Cap: 10, MMR: 400_000, MaxLeverage: 250}}, // maintenance 0.4 % above initial 0.4 %
		{{Cap: 10, MMR: 400_000, MaxLeverage: 125}, {Cap: 5, MMR: 500_000, MaxLeverage: 100}},
		{{Cap: 10, MMR: 400_000, MaxLeverage: 100}, {Cap: 20, MMR: 500_000, MaxLeverage: 125}},
	} {
		if _, err := NewTiers(bad); !errors.Is(err, ErrTiers) {
			t.Fatalf("%+v accepted", bad)
		}
	}
	if im, _ := Initial(50_000*usdt, 10); im != 5_000*usdt {
		t.Fatalf("initial %d", im)
	}
}

// The worked example of REFERENCES (b): 1 BTC at 50,000 with 5,000 USDT of
// isolated margin, tier 1.
func TestWorkedLiquidationPrices(t *testing.T) {
	tiers := btcTiers(t)
	const maxPrice = 10_000_000_00 // 10,000,000.00
	long := Position{Side: Long, Qty: 1_000, Cost: 50_000 * usdt}
	lp, err := long.LiquidationPrice(5_000*usdt, tickValue, maxPrice, tiers)
	if err != nil || lp != 45_180_72 {
		t.Fatalf("long LP %d %v, want 4518072 (45,180.72)", lp, err)
	}
	// At 45,180.72 the margin balance (180.72…) is the maintenance; a tick higher it is not.
	if ok, _ := long.Liquidatable(lp, 5_000*usdt, tickValue, tiers); !ok {
		t.Fatal("not liquidatable at its price")
	}
	if ok, _ := long.Liquidatable(lp+1, 5_000*usdt, tickValue, tiers); ok {
		t.Fatal("liquidatable above its price")
	}
	short := Position{Side: Short, Qty: 1_000, Cost: 50_000 * usdt}
	// Tier 1's closed form gives 54,780.88, but 1 BTC there is 54,780.88 of
	// notional, past tier 1's 50,000 cap: recomputed in tier 2 (0.5 %, cum
	// 50) as the rule says, the boundary is 54,776.12 (margin balance
	// 5,000 + 50,000 − 54,776.12 = 223.88 = 54,776.12 × 0.5 % − 50).
	if sp, err := short.LiquidationPrice(5_000*usdt, tickValue, maxPrice, tiers); err != nil || sp != 54_776_12 {
		t.Fatalf("short LP %d %v, want 5477612 (54,776.12)", sp, err)
	}
	if bp, _ := long.BankruptcyPrice(5_000*usdt, tickValue); bp != 45_000_00 {
		t.Fatalf("long bankruptcy %d", bp)
	}
	if bp, _ := short.BankruptcyPrice(5_000*usdt, tickValue); bp != 55_000_00 {
		t.Fatalf("short bankruptcy %d", bp)
	}
	if pnl, _ := long.PnL(51_000_00, tickValue); pnl != 1_000*usdt {
		t.Fatalf("long PnL %d", pnl)
	}
	if pnl, _ := short.PnL(51_000_00, tickValue); pnl != -1_000*usdt {
		t.Fatalf("short PnL %d", pnl)
	}
	// A long with more margin than its cost is never liquidated; a short always is, far enough up.
	safe := Position{Side: Long, Qty: 1_000, Cost: 50_000 * usdt}
	if lp, _ := safe.LiquidationPrice(60_000*usdt, tickValue, maxPrice, tiers); lp != 0 {
		t.Fatalf("over-margined long LP %d", lp)
	}
}

// A 100 BTC long at 10× sits in tier 4 (5M notional): its liquidation
// price falls in tier 3 or 4; the price found is the exact boundary.
func TestLiquidationPriceAcrossTiers(t *testing.T) {
	tiers := btcTiers(t)
	p := Position{Side: Long, Qty: 100_000, Cost: 5_000_000 * usdt}
	lp, err := p.LiquidationPrice(500_000*usdt, tickValue, 1<<40, tiers)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := p.Liquidatable(lp, 500_000*usdt, tickValue, tiers)
	above, _ := p.Liquidatable(lp+1, 500_000*usdt, tickValue, tiers)
	if !at || above || lp < 45_000_00 || lp > 46_500_00 {
		t.Fatalf("LP %d: liquidatable at %v, above %v", lp, at, above)
	}
}

// Random positions, margins and tables: the price found is always the
// exact boundary of Liquidatable.
func TestLiquidationPriceIsTheBoundary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tiers := btcTiers(t)
	const maxPrice = 1 << 34
	for n := 0; n < 3_000; n++ {
		entry := 1_000_00 + r.Int64N(100_000_00)
		qty := 1 + r.Int64N(200_000)
		cost := qty * entry * tickValue
		if cost > tiers.Limit() {
			continue
		}
		lev := 1 + r.Int64N(tiers.MaxLeverage(cost))
		wb, _ := Initial(cost, lev)
		wb += r.Int64N(wb/2+1) - wb/4
		for _, side := range []Side{Long, Short} {
			p := Position{Side: side, Qty: qty, Cost: cost}
			lp, err := p.LiquidationPrice(wb, tickValue, maxPrice, tiers)
			if err != nil {
				t.Fatal(err)
			}
			liq := func(x int64) bool {
				ok, err := p.Liquidatable(x, wb, tickValue, tiers)
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			if side == Long && ((lp >= 1 && !liq(lp)) || liq(lp+1)) {
				t.Fatalf("long %+v wb %d: LP %d", p, wb, lp)
			}
			if side == Short && (lp <= maxPrice && !liq(lp) || lp > 1 && liq(lp-1)) {
				t.Fatalf("short %+v wb %d: LP %d", p, wb, lp)
			}
		}
	}
}

func TestFunding(t *testing.T) {
	if p, _ := Premium(50_100_00, 50_200_00, 50_000_00); p != 200_000 {
		t.Fatalf("premium bid above index %d", p)
	}
	if p, _ := Premium(49_800_00, 49_900_00, 50_000_00); p != -200_000 {
		t.Fatalf("premium ask below index %d", p)
	}
	if p, _ := Premium(49_990_00, 50_010_00, 50_000_00); p != 0 {
		t.Fatalf("index inside the impact prices %d", p)
	}
	if avg, _ := AveragePremium([]int64{100, 200, 300}); avg != (100+400+900)/6 {
		t.Fatalf("weighted average %d", avg)
	}
	for _, c := range []struct{ p, want int64 }{
		{0, 10_000},          // the interest rate alone: 0.01 %
		{30_000, 10_000},     // within the clamp: I
		{200_000, 150_000},   // P − 0.05 %
		{-200_000, -150_000}, // P + 0.05 %
		{2_000_000, 750_000}, // held at the cap
	} {
		if f := FundingRate(c.p, 10_000, 750_000); f != c.want {
			t.Fatalf("premium %d: rate %d, want %d", c.p, f, c.want)
		}
	}
	long := Position{Side: Long, Qty: 1_000, Cost: 50_000 * usdt}
	short := Position{Side: Short, Qty: 1_000, Cost: 50_000 * usdt}
	if f, _ := Funding(long, 50_000_00, tickValue, 10_000); f != -5*usdt {
		t.Fatalf("long pays %d", f)
	}
	if f, _ := Funding(short, 50_000_00, tickValue, 10_000); f != 5*usdt {
		t.Fatalf("short receives %d", f)
	}
	// An amount that does not divide: the payer pays a unit more than the receiver gets.
	odd := Position{Side: Long, Qty: 3, Cost: 0}
	oddShort := Position{Side: Short, Qty: 3, Cost: 0}
	pay, _ := Funding(odd, 33_333_33, tickValue, 12_345)
	get, _ := Funding(oddShort, 33_333_33, tickValue, 12_345)
	if pay+get != -1 || get <= 0 {
		t.Fatalf("pay %d receive %d", pay, get)
	}
}

func TestMarkPrice(t *testing.T) {
	if m := Median3(3, 1, 2); m != 2 {
		t.Fatal(m)
	}
	if m := Median3(5, 5, 1); m != 5 {
		t.Fatal(m)
	}
	// Index 50,000, last rate 0.01 %, half the interval left: price 1 is 50,002.50;
	// basis +3.00 gives 50,003.00; the last price 50,100 is the outlier.
	m, err := MarkPrice(50_000_00, 10_000, 4, 8, 3_00, 50_100_00)
	if err != nil || m != 50_003_00 {
		t.Fatalf("mark %d %v", m, err)
	}
	if m, _ := MarkPrice(50_000_00, 10_000, 4, 8, 3_00, 49_000_00); m != 50_002_50 {
		t.Fatalf("mark with a low last price %d", m)
	}
}

func TestMulDiv(t *testing.T) {
	for _, c := range []struct {
		a, b, c  int64
		up       bool
		want     int64
		overflow bool
	}{
		{7, 1, 2, false, 3, false},
		{7, 1, 2, true, 4, false},
		{-7, 1, 2, false, -4, false},
		{-7, 1, 2, true, -3, false},
		{7, -1, 2, false, -4, false},
		{-7, -1, -2, true, -3, false},
		{math.MaxInt64, math.MaxInt64, math.MaxInt64, false, math.MaxInt64, false},
		{math.MaxInt64, 2, 1, false, 0, true},
		{math.MinInt64, 1, 1, false, math.MinInt64, false},
		{1 << 62, 4, 1, false, 0, true},
		{5, 3, 0, false, 0, true},
	} {
		got, err := mulDiv(c.a, c.b, c.c, c.up)
		if c.overflow != (err != nil) || (!c.overflow && got != c.want) {
			t.Fatalf("%d×%d÷%d up=%v: %d %v", c.a, c.b, c.c, c.up, got, err)
		}
	}
}

func TestADLScore(t *testing.T) {
	// +10 % at 10× effective leverage ranks above +20 % at 2×, which ranks above any loss.
	a, _ := ADLScore(5_000*usdt, 50_000*usdt, 55_000*usdt, 5_500*usdt)
	b, _ := ADLScore(10_000*usdt, 50_000*usdt, 60_000*usdt, 30_000*usdt)
	c, _ := ADLScore(-1_000*usdt, 50_000*usdt, 49_000*usdt, 4_000*usdt)
	if a != 100_000_000 || b != 40_000_000 || c >= 0 || !(a > b && b > c) {
		t.Fatalf("scores %d %d %d", a, b, c)
	}
	if s, _ := ADLScore(1, 0, 1, 1); s != 0 {
		t.Fatalf("no cost: %d", s)
	}
}

// The auto-deleveraging indicator splits a side's queue into fifths:
// of ten positions, two in each; a lone position is first; none, no bands.
func TestADLBands(t *testing.T) {
	scores := []int64{3, 10, 1, 7, 5, 9, 2, 8, 4, 6}
	b, ok := NewADLBands(scores)
	if !ok || b != (ADLBands{9, 7, 5, 3}) {
		t.Fatalf("bands %v %v", b, ok)
	}
	want := map[int64]int{10: 5, 9: 5, 8: 4, 7: 4, 6: 3, 5: 3, 4: 2, 3: 2, 2: 1, 1: 1, -50: 1}
	for score, level := range want {
		if got := b.Level(score); got != level {
			t.Fatalf("score %d: level %d, want %d", score, got, level)
		}
	}
	if one, _ := NewADLBands([]int64{-4}); one.Level(-4) != 5 {
		t.Fatal("a lone position is first in its queue")
	}
	if _, ok := NewADLBands(nil); ok {
		t.Fatal("bands of no position")
	}
}
