package spot

import (
	"context"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/markets"
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

// tradeVolume is what a trade adds to each side's 30-day volume, in USDT:
// the lower of its value at the trade price (the quote amount, valued at
// the quote's reference price unless the quote is USDT) and its value at
// the base's reference price. Two accounts of one person trading with each
// other far from the market gain nothing by it: above the market the
// reference value caps the volume, below it the fee they pay shrinks with
// the volume. ok is false when the trade cannot be valued (its quote has
// no price). Without prices, USDT pairs count their quote amount.
func tradeVolume(ctx context.Context, prices RefPrices, p markets.Pair, qty, money decimal.Decimal) (decimal.Decimal, bool, error) {
	atTrade, ok := money, p.Quote == "USDT"
	if prices == nil {
		return atTrade, ok, nil
	}
	if !ok {
		q, has, err := prices.USDTPrice(ctx, p.Quote)
		if err != nil || !has {
			return decimal.Zero, false, err
		}
		atTrade = money.Mul(q)
	}
	b, has, err := prices.USDTPrice(ctx, p.Base)
	if err != nil {
		return decimal.Zero, false, err
	}
	if has {
		atTrade = decimal.Min(atTrade, qty.Mul(b))
	}
	return atTrade.RoundFloor(feeScale), true, nil
}

// volumeShards spreads a user's daily volume over several items (by trade
// id), the layout the stored volumes have: a busy user's trades add to
// different items. The fee tier sums at most 31 days × volumeShards small
// items, once a minute per user (Service.rates).
const volumeShards = 16

// volumeKey is the daily volume item a trade adds to.
func volumeKey(uid string, ms int64, tradeID uint64) store.Key {
	day := time.UnixMilli(ms).UTC().Format("20060102")
	return store.Key{PK: pkVolume + uid, SK: day + "#" + strconv.FormatUint(tradeID%volumeShards, 10)}
}
