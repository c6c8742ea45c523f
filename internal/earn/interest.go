// Package earn holds the rules of the earn products: how interest is
// computed on savings balances.
package earn

import (
	"errors"

	"github.com/shopspring/decimal"
)

// Period is how a product's rate is quoted (spec §9: daily, weekly,
// monthly, yearly); interest is paid daily whatever the period.
type Period string

// Rate periods.
const (
	Daily   Period = "daily"
	Weekly  Period = "weekly"
	Monthly Period = "monthly"
	Yearly  Period = "yearly"
)

// DaysPerYear is the year interest is counted in: a day's interest is
// the yearly rate ÷ 365.
const DaysPerYear = 365

// ErrRate reports a rate, period or tier table that cannot be used.
var ErrRate = errors.New("earn: bad rate")

// APR turns a rate quoted per period into its yearly rate (a daily rate
// × 365, weekly × 365/7, monthly × 12).
func APR(rate decimal.Decimal, p Period) (decimal.Decimal, error) {
	if rate.IsNegative() {
		return decimal.Zero, ErrRate
	}
	switch p {
	case Daily:
		return rate.Mul(decimal.NewFromInt(DaysPerYear)), nil
	case Weekly:
		return rate.Mul(decimal.NewFromInt(DaysPerYear)).Div(decimal.NewFromInt(7)), nil
	case Monthly:
		return rate.Mul(decimal.NewFromInt(12)), nil
	case Yearly:
		return rate, nil
	}
	return decimal.Zero, ErrRate
}

// Tier is the yearly rate of the part of a balance up to UpTo (in the
// coin's smallest units; 0 for the last tier: the rest).
type Tier struct {
	UpTo int64
	APR  decimal.Decimal
}

// CheckTiers says a tier table is usable: at least one tier, caps rising,
// only the last without a cap, no negative rate.
func CheckTiers(tiers []Tier) error {
	if len(tiers) == 0 {
		return ErrRate
	}
	for i, t := range tiers {
		last := i == len(tiers)-1
		if t.APR.IsNegative() || (t.UpTo == 0) != last || (!last && i > 0 && t.UpTo <= tiers[i-1].UpTo) || t.UpTo < 0 {
			return ErrRate
		}
	}
	return nil
}

// DailyInterest is one day's interest on a balance (the coin's smallest
// units): each tier's slice of the balance × its yearly rate ÷ 365, summed
// exactly, then rounded down to the unit.
func DailyInterest(balance int64, tiers []Tier) (int64, error) {
	if err := CheckTiers(tiers); err != nil {
		return 0, err
	}
	if balance <= 0 {
		return 0, nil
	}
	sum, from := decimal.Zero, int64(0)
	for _, t := range tiers {
		to := balance
		if t.UpTo > 0 {
			to = min(balance, t.UpTo)
		}
		if to > from {
			sum = sum.Add(decimal.NewFromInt(to - from).Mul(t.APR))
		}
		if to == balance {
			break
		}
		from = to
	}
	return sum.Div(decimal.NewFromInt(DaysPerYear)).Floor().IntPart(), nil
}
