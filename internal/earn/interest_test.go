package earn

import (
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// A tiered product: 5 % on the first 1,000 USDT, 2 % on the next 9,000,
// 0.5 % beyond; 8 decimals. A day's interest on 12,345.6789 USDT is
// (1,000 × 5 % + 9,000 × 2 % + 2,345.6789 × 0.5 %) ÷ 365, rounded down to
// the 10^-8 unit; one balance inside the first tier; none on nothing.
func TestDailyInterestTiers(t *testing.T) {
	const unit = 100_000_000
	tiers := []Tier{{UpTo: 1_000 * unit, APR: d("0.05")}, {UpTo: 10_000 * unit, APR: d("0.02")}, {APR: d("0.005")}}
	got, err := DailyInterest(1_234_567_890_000, tiers)
	if err != nil {
		t.Fatal(err)
	}
	// (50 + 180 + 11.7283945) ÷ 365 = 0.66226957… USDT
	want := d("241.7283945").Div(d("365")).Shift(8).Floor().IntPart()
	if got != want || got != 66_226_957 {
		t.Fatalf("interest %d, want %d (66,226,957)", got, want)
	}
	if got, _ := DailyInterest(500*unit, tiers); got != d("25").Div(d("365")).Shift(8).Floor().IntPart() {
		t.Fatalf("first tier: %d", got)
	}
	if got, _ := DailyInterest(0, tiers); got != 0 {
		t.Fatalf("no balance: %d", got)
	}
	for _, bad := range [][]Tier{nil, {{UpTo: 5, APR: d("0.1")}}, {{UpTo: 5, APR: d("0.1")}, {UpTo: 4, APR: d("0.1")}, {APR: d("0")}},
		{{APR: d("-0.01")}}} {
		if _, err := DailyInterest(1, bad); err == nil {
			t.Fatalf("tiers %+v accepted", bad)
		}
	}
}

// A rate quoted per period is the same yearly rate: 0.01 % a day is
// 3.65 % a year, 0.07 % a week 3.65 %, 0.5 % a month 6 %.
func TestAPR(t *testing.T) {
	for _, c := range []struct {
		rate string
		p    Period
		want string
	}{{"0.0001", Daily, "0.0365"}, {"0.0007", Weekly, "0.0365"}, {"0.005", Monthly, "0.06"}, {"0.04", Yearly, "0.04"}} {
		got, err := APR(d(c.rate), c.p)
		if err != nil || !got.Equal(d(c.want)) {
			t.Fatalf("%s %s: %s %v, want %s", c.rate, c.p, got, err, c.want)
		}
	}
	if _, err := APR(d("0.01"), "hourly"); err == nil {
		t.Fatal("an unknown period accepted")
	}
}
