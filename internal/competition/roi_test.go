package competition

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// A competition of 1,000,000 ms: a flow at 250,000 has three quarters of it left.
const (
	t0 = int64(1_000_000)
	t1 = int64(2_000_000)
)

func wantStanding(t *testing.T, name string, got Standing, profit, weighted, roi string, ranked bool) {
	t.Helper()
	if !got.Profit.Equal(dec(profit)) || !got.Weighted.Equal(dec(weighted)) || !got.ROI.Equal(dec(roi)) || got.Ranked != ranked {
		t.Fatalf("%s: profit %s weighted %s roi %s ranked %v; want %s %s %s %v", name, got.Profit, got.Weighted, got.ROI, got.Ranked,
			profit, weighted, roi, ranked)
	}
}

// Without transfers ROI is what the equity gained over the initial equity.
func TestROIWithoutTransfers(t *testing.T) {
	wantStanding(t, "gain", Compute(dec("100"), dec("150"), nil, t0, t1), "50", "0", "0.5", true)
	wantStanding(t, "loss", Compute(dec("100"), dec("75.5"), nil, t0, t1), "-24.5", "0", "-0.245", true)
}

// A transfer in is no profit and a transfer out no loss; each counts in
// the denominator by the fraction of the competition left when it came.
func TestROITransfersAreNotProfit(t *testing.T) {
	// 100 at stake, 50 more brought in half-way: equity 170 is 20 of profit
	// on 100 + 50 × 1/2.
	s := Compute(dec("100"), dec("170"), []Flow{{At: t0 + 500_000, Amount: dec("50")}}, t0, t1)
	wantStanding(t, "in half-way", s, "20", "25", "0.16", true)
	if !s.NetIn.Equal(dec("50")) || !s.Equity.Equal(dec("170")) || !s.Initial.Equal(dec("100")) {
		t.Fatalf("standing %+v", s)
	}
	// 200 at stake, 100 taken out at the start: equity 120 is 20 of profit
	// on 200 − 100 × 1.
	wantStanding(t, "out at start", Compute(dec("200"), dec("120"), []Flow{{At: t0, Amount: dec("-100")}}, t0, t1), "20", "-100", "0.2", true)
	// The same 100 taken out with a quarter left weighs a quarter.
	wantStanding(t, "out late", Compute(dec("200"), dec("120"), []Flow{{At: t0 + 750_000, Amount: dec("-100")}}, t0, t1),
		"20", "-25", "0.11428571", true)
	// Money brought in at the very end counts nothing in the denominator
	// and nothing as profit: it cannot buy a rank.
	wantStanding(t, "in at the end", Compute(dec("100"), dec("10110"), []Flow{{At: t1, Amount: dec("10000")}}, t0, t1), "10", "0", "0.1", true)
	// Flows outside the competition's time weigh within [0, 1].
	wantStanding(t, "before start", Compute(dec("100"), dec("160"), []Flow{{At: t0 - 5, Amount: dec("50")}}, t0, t1), "10", "50", "0.06666667", true)
	wantStanding(t, "after end", Compute(dec("100"), dec("160"), []Flow{{At: t1 + 5, Amount: dec("50")}}, t0, t1), "10", "0", "0.1", true)
}

// Several flows are weighed each by its own time, exactly: the sum is
// divided once, to 8 places.
func TestROITimeWeightedDeposits(t *testing.T) {
	flows := []Flow{
		{At: t0 + 250_000, Amount: dec("40")},   // 3/4 left: 30
		{At: t0 + 500_000, Amount: dec("-20")},  // 1/2 left: -10
		{At: t0 + 666_667, Amount: dec("0.03")}, // 333,333 of 1,000,000 left: 0.00999999
	}
	s := Compute(dec("1000"), dec("1100.03"), flows, t0, t1)
	wantStanding(t, "three flows", s, "80", "20.00999999", "0.0784306", true)
	if !s.NetIn.Equal(dec("20.03")) {
		t.Fatalf("net in %s", s.NetIn)
	}
	// A third of the time left is rounded to 8 places only at the end.
	s = Compute(dec("0"), dec("1"), []Flow{{At: t0 + 2, Amount: dec("1")}, {At: t0 + 2, Amount: dec("1")}}, t0, t0+3)
	if !s.Weighted.Equal(dec("0.66666667")) || !s.Profit.Equal(dec("-1")) || !s.ROI.Equal(dec("-1.49999999")) {
		t.Fatalf("thirds: %+v", s)
	}
}

// A participant with nothing at stake (a zero or negative denominator)
// has no ROI: it is ranked after every participant with one.
func TestROIZeroDenominator(t *testing.T) {
	wantStanding(t, "all out at start", Compute(dec("100"), dec("5"), []Flow{{At: t0, Amount: dec("-100")}}, t0, t1), "5", "-100", "0", false)
	wantStanding(t, "nothing at join", Compute(dec("0"), dec("0"), nil, t0, t1), "0", "0", "0", false)
	wantStanding(t, "more out than in", Compute(dec("100"), dec("0"), []Flow{{At: t0, Amount: dec("-150")}}, t0, t1), "50", "-150", "0", false)
	// A competition without time weighs nothing (and divides by nothing).
	wantStanding(t, "no span", Compute(dec("100"), dec("110"), []Flow{{At: t0, Amount: dec("5")}}, t0, t0), "5", "0", "0.05", true)
}

// Pending transfers never inflate a profit: one in counts, one out does
// not; refused ones are not listed at all.
func TestFlowsOfTransfers(t *testing.T) {
	got := Flows([]Transfer{
		{At: 1, Amount: dec("10"), In: true},
		{At: 2, Amount: dec("3"), In: false},
		{At: 3, Amount: dec("5"), In: true, Pending: true},
		{At: 4, Amount: dec("7"), In: false, Pending: true},
		{At: 5, Amount: dec("0"), In: true},
	})
	want := []Flow{{1, dec("10")}, {2, dec("-3")}, {3, dec("5")}}
	if len(got) != len(want) {
		t.Fatalf("flows %+v", got)
	}
	for i := range want {
		if got[i].At != want[i].At || !got[i].Amount.Equal(want[i].Amount) {
			t.Fatalf("flow %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// Ranks: by ROI, then those without one; ties by profit, then the earlier
// joiner, then the id.
func TestRankOrder(t *testing.T) {
	e := func(uid string, joined int64, roi, profit string, ranked bool) Entry {
		return Entry{UID: uid, JoinedAt: joined, Standing: Standing{ROI: dec(roi), Profit: dec(profit), Ranked: ranked}}
	}
	entries := []Entry{
		e("none-rich", 1, "0", "500", false),
		e("low", 1, "-0.5", "-50", true),
		e("tie-late", 9, "0.2", "20", true),
		e("tie-more", 9, "0.2", "40", true),
		e("none-poor", 1, "0", "-5", false),
		e("best", 5, "1.5", "15", true),
		e("tie-early", 3, "0.2", "20", true),
		e("tie-b", 3, "0.2", "20", true),
	}
	Rank(entries)
	var got []string
	for _, x := range entries {
		got = append(got, x.UID)
	}
	want := []string{"best", "tie-more", "tie-b", "tie-early", "tie-late", "low", "none-rich", "none-poor"}
	if !slices.Equal(got, want) {
		t.Fatalf("ranks %v, want %v", got, want)
	}
	if ROIPercent(dec("0.0784306")) != "7.84" || ROIPercent(dec("-1.49999999")) != "-150.00" || ROIPercent(dec("0")) != "0.00" {
		t.Fatal("percent")
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{"alice": "a***e", "User-1234": "U***4", "Бат": "Б***т", "ab": "a***", "x": "x***", "": "***", " ": "***"} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}
