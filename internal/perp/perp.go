package perp

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// RateScale is the denominator of every rate: 10^8 (0.4 % is 400,000).
const RateScale = 100_000_000

// MaxFundingClamp is the clamp of (interest − premium) in the funding
// formula: 0.05 %.
const MaxFundingClamp = 50_000

// Errors.
var (
	// ErrOverflow: a result beyond int64 (a position or price no
	// catalogue allows).
	ErrOverflow = errors.New("perp: amount beyond int64 units")
	// ErrTiers: a tier table that is not increasing, or whose maintenance
	// is not below its initial margin.
	ErrTiers = errors.New("perp: invalid tier table")
	// ErrLimit: a notional beyond the last tier (the position limit).
	ErrLimit = errors.New("perp: notional beyond the contract's position limit")
)

// MulDiv is a × b ÷ c in 128 bits, rounded up or down (ErrOverflow when
// the result does not fit int64).
func MulDiv(a, b, c int64, up bool) (int64, error) { return mulDiv(a, b, c, up) }

// mulDiv is a × b ÷ c in 128 bits, rounded down (towards −∞) or up
// (towards +∞).
func mulDiv(a, b, c int64, up bool) (int64, error) {
	if c == 0 {
		return 0, ErrOverflow
	}
	neg := (a < 0) != (b < 0) != (c < 0)
	if a == 0 || b == 0 {
		return 0, nil
	}
	hi, lo := bits.Mul64(abs(a), abs(b))
	uc := abs(c)
	if hi >= uc {
		return 0, ErrOverflow
	}
	q, r := bits.Div64(hi, lo, uc)
	if r != 0 && up != neg { // away from zero: up for a positive result, down for a negative one
		q++
	}
	if neg {
		if q > 1<<63 {
			return 0, ErrOverflow
		}
		return int64(-q), nil
	}
	if q > math.MaxInt64 {
		return 0, ErrOverflow
	}
	return int64(q), nil
}

func abs(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// mul is a × b, or ErrOverflow.
func mul(a, b int64) (int64, error) {
	return mulDiv(a, b, 1, false)
}

// Tier is one maintenance tier of a contract: notional in (previous Cap, Cap].
type Tier struct {
	Cap         int64 // notional up to which the tier applies (money units); the last is the position limit
	MMR         int64 // maintenance margin rate (RateScale)
	MaxLeverage int64
	Cum         int64 // maintenance amount (money units), from NewTiers
}

// Tiers is a contract's tier table, notional increasing.
type Tiers []Tier

// NewTiers checks a table (Cap, MMR and MaxLeverage of each tier) and
// computes each tier's Cum: caps increasing, rates not decreasing,
// leverage not increasing, and each tier's maintenance rate below its
// initial rate (1 ÷ max leverage).
func NewTiers(tiers []Tier) (Tiers, error) {
	if len(tiers) == 0 {
		return nil, fmt.Errorf("%w: no tiers", ErrTiers)
	}
	out := make(Tiers, len(tiers))
	for i, t := range tiers {
		if t.Cap <= 0 || t.MMR <= 0 || t.MaxLeverage < 1 || t.MMR*t.MaxLeverage >= RateScale {
			return nil, fmt.Errorf("%w: tier %d (cap %d, MMR %d, leverage %d)", ErrTiers, i+1, t.Cap, t.MMR, t.MaxLeverage)
		}
		if i > 0 {
			p := out[i-1]
			if t.Cap <= p.Cap || t.MMR < p.MMR || t.MaxLeverage > p.MaxLeverage {
				return nil, fmt.Errorf("%w: tier %d does not follow tier %d", ErrTiers, i+1, i)
			}
			step, err := mulDiv(p.Cap, t.MMR-p.MMR, RateScale, false)
			if err != nil {
				return nil, err
			}
			t.Cum = p.Cum + step
		} else {
			t.Cum = 0
		}
		out[i] = t
	}
	return out, nil
}

// For is the index of the tier a notional falls in, or ErrLimit beyond
// the last.
func (t Tiers) For(notional int64) (int, error) {
	for i, tier := range t {
		if notional <= tier.Cap {
			return i, nil
		}
	}
	return len(t) - 1, ErrLimit
}

// Limit is the largest notional a position may have.
func (t Tiers) Limit() int64 { return t[len(t)-1].Cap }

// maintenanceIn is the maintenance of a notional at tier i: rounded up,
// never below zero.
func (t Tiers) maintenanceIn(i int, notional int64) (int64, error) {
	mm, err := mulDiv(notional, t[i].MMR, RateScale, true)
	if err != nil {
		return 0, err
	}
	return max(mm-t[i].Cum, 0), nil
}

// Maintenance is the maintenance margin of a notional (beyond the limit,
// at the last tier's rate).
func (t Tiers) Maintenance(notional int64) (int64, error) {
	i, _ := t.For(notional)
	return t.maintenanceIn(i, notional)
}

// MaxLeverage is the highest leverage a position of notional may use.
func (t Tiers) MaxLeverage(notional int64) int64 {
	i, _ := t.For(notional)
	return t[i].MaxLeverage
}

// Initial is the initial margin of a notional at a leverage, rounded up.
func Initial(notional, leverage int64) (int64, error) {
	if leverage < 1 {
		return 0, ErrTiers
	}
	return mulDiv(notional, 1, leverage, true)
}

// Side of a position.
type Side int8

// Sides.
const (
	Long  Side = 1
	Short Side = -1
)

// Position is an open position: its side, size in contracts (positive) and
// Cost, the notional it was opened at.
type Position struct {
	Side Side
	Qty  int64
	Cost int64
}

// Value is the position's notional at price x: Qty × x × tickValue.
func (p Position) Value(x, tickValue int64) (int64, error) {
	q, err := mul(p.Qty, tickValue)
	if err != nil {
		return 0, err
	}
	return mul(q, x)
}

// PnL is the unrealized profit at price x: Value − Cost for a long, Cost −
// Value for a short.
func (p Position) PnL(x, tickValue int64) (int64, error) {
	v, err := p.Value(x, tickValue)
	if err != nil {
		return 0, err
	}
	return int64(p.Side) * (v - p.Cost), nil
}

// Liquidatable reports whether the position is liquidatable at mark x with
// wallet balance wb (isolated: its margin; cross: see the package doc):
// wb + PnL ≤ maintenance.
func (p Position) Liquidatable(x, wb, tickValue int64, t Tiers) (bool, error) {
	v, err := p.Value(x, tickValue)
	if err != nil {
		return false, err
	}
	mm, err := t.Maintenance(v)
	if err != nil {
		return false, err
	}
	return wb+int64(p.Side)*(v-p.Cost) <= mm, nil
}

// LiquidationPrice is the boundary of Liquidatable on the tick grid: for a
// long the highest price (≥ 1) at which it is liquidatable, 0 when it is
// liquidatable at no positive price; for a short the lowest, at most
// maxPrice (maxPrice + 1 when even that is safe).
func (p Position) LiquidationPrice(wb, tickValue, maxPrice int64, t Tiers) (int64, error) {
	if p.Qty <= 0 || tickValue <= 0 {
		return 0, ErrOverflow
	}
	qv, err := mul(p.Qty, tickValue)
	if err != nil {
		return 0, err
	}
	// The closed form, tier by tier: take the first tier whose candidate
	// price falls in it (maintenance is continuous, so at most one does
	// up to rounding).
	x, first := int64(-1), int64(0)
	for i := range t {
		var c int64
		if p.Side == Long {
			// x ≤ (Cost − wb − cum) ÷ (QV × (1 − MMR))
			num := p.Cost - wb - t[i].Cum
			if num <= 0 {
				c = 0
			} else if y, err := mulDiv(num, RateScale, RateScale-t[i].MMR, false); err != nil {
				return 0, err
			} else {
				c = y / qv
			}
		} else {
			// x ≥ (Cost + wb + cum) ÷ (QV × (1 + MMR))
			y, err := mulDiv(p.Cost+wb+t[i].Cum, RateScale, RateScale+t[i].MMR, true)
			if err != nil {
				return 0, err
			}
			c = (y + qv - 1) / qv
		}
		c = min(max(c, 0), maxPrice+1)
		if v, err := mul(qv, c); err == nil {
			if j, _ := t.For(v); j == i {
				x = c
				break
			}
		}
		if i == 0 {
			first = c
		}
	}
	if x < 0 {
		x = first // rounding at a tier's edge: the steps below settle it
	}
	// Step to the exact boundary with the check itself (rounding of the
	// maintenance, tier edges).
	liq := func(x int64) (bool, error) { return p.Liquidatable(x, wb, tickValue, t) }
	if p.Side == Long {
		for x >= 1 {
			ok, err := liq(x)
			if err != nil {
				return 0, err
			}
			if ok {
				break
			}
			x--
		}
		for x < maxPrice {
			ok, err := liq(x + 1)
			if err != nil {
				return 0, err
			}
			if !ok {
				break
			}
			x++
		}
		return max(x, 0), nil
	}
	for x <= maxPrice {
		ok, err := liq(x)
		if err != nil {
			return 0, err
		}
		if ok {
			break
		}
		x++
	}
	for x > 1 {
		ok, err := liq(x - 1)
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
		x--
	}
	return min(x, maxPrice+1), nil
}

// BankruptcyPrice is the price at which the position's margin balance is
// zero, rounded against the position (up for a long, down for a short):
// a liquidation that trades no worse than it loses no more than wb.
func (p Position) BankruptcyPrice(wb, tickValue int64) (int64, error) {
	qv, err := mul(p.Qty, tickValue)
	if err != nil {
		return 0, err
	}
	if p.Side == Long {
		return max(ceilDiv(p.Cost-wb, qv), 0), nil
	}
	return (p.Cost + wb) / qv, nil
}

// ceilDiv is a ÷ b rounded up, for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
