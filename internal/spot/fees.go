package spot

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// FeeTier is one step of the fee schedule: from MinVolume (30-day spot
// volume in USDT) on, makers pay Maker and takers Taker (fractions).
type FeeTier struct {
	MinVolume decimal.Decimal
	Maker     decimal.Decimal
	Taker     decimal.Decimal
}

// DefaultFeeTiers is the schedule, lowest tier first.
var DefaultFeeTiers = []FeeTier{
	{MinVolume: decimal.Zero, Maker: decimal.RequireFromString("0.001"), Taker: decimal.RequireFromString("0.001")},
	{MinVolume: decimal.NewFromInt(50_000), Maker: decimal.RequireFromString("0.0009"), Taker: decimal.RequireFromString("0.001")},
	{MinVolume: decimal.NewFromInt(500_000), Maker: decimal.RequireFromString("0.0008"), Taker: decimal.RequireFromString("0.0009")},
	{MinVolume: decimal.NewFromInt(5_000_000), Maker: decimal.RequireFromString("0.0006"), Taker: decimal.RequireFromString("0.0008")},
}

// FeeCoinDiscount is the share taken off both rates while the user's
// "pay fees with the platform coin" switch (update_fee_coin_open) is on.
// The fee is still taken in the coin the user receives: the platform coin
// has no market yet, so the switch only lowers the rate.
var FeeCoinDiscount = decimal.RequireFromString("0.25")

// feeScale is the number of decimals a fee is rounded to, upwards (in the
// exchange's favour, never creating dust out of nothing: a fee never
// exceeds the amount it is taken from).
const feeScale = 8

// volumeWindow is how far back the fee tier looks.
const volumeWindow = 30 * 24 * time.Hour

// tierFor picks the tier for a 30-day volume.
func tierFor(tiers []FeeTier, vol decimal.Decimal) FeeTier {
	t := tiers[0]
	for _, x := range tiers[1:] {
		if vol.GreaterThanOrEqual(x.MinVolume) {
			t = x
		}
	}
	return t
}

// feeOf is amount × rate rounded up to feeScale, capped at amount.
func feeOf(amount, rate decimal.Decimal) decimal.Decimal {
	if !rate.IsPositive() {
		return decimal.Zero
	}
	f := amount.Mul(rate).RoundCeil(feeScale)
	if f.GreaterThan(amount) {
		return amount
	}
	return f
}

// thirtyDayVolume sums the user's daily volume items of the last 30 days
// (each day's volume may be spread over volumeShards items).
func thirtyDayVolume(ctx context.Context, st store.Store, uid string, now time.Time) (decimal.Decimal, error) {
	from := now.Add(-volumeWindow).UTC().Format("20060102")
	// "~" sorts after the "#<shard>" suffixes of the day's items (volumeKey).
	to := now.UTC().Format("20060102") + "~"
	q := store.Query{PK: pkVolume + uid, SK: store.SKRange(from, to), Limit: 500}
	sum := decimal.Zero
	for {
		page, err := st.Query(ctx, q)
		if err != nil {
			return decimal.Zero, err
		}
		for _, it := range page.Items {
			sum = sum.Add(it.Dec("vol"))
		}
		if page.Cursor == "" {
			return sum, nil
		}
		q.Cursor = page.Cursor
	}
}
