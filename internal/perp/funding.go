package perp

import (
	"cmp"
	"slices"
)

// Premium is one sample of the premium index: [max(0, impact bid − index)
// − max(0, index − impact ask)] ÷ index, in RateScale, rounded towards
// zero. Prices in ticks; a side of the book too thin to fill the impact
// notional is passed as 0 (bid) or 0 (ask) and counts as no premium.
func Premium(impactBid, impactAsk, index int64) (int64, error) {
	if index <= 0 {
		return 0, ErrOverflow
	}
	var diff int64
	if impactBid > index {
		diff += impactBid - index
	}
	if impactAsk > 0 && impactAsk < index {
		diff -= index - impactAsk
	}
	if diff >= 0 {
		return mulDiv(diff, RateScale, index, false)
	}
	return mulDiv(diff, RateScale, index, true)
}

// AveragePremium is the interval's premium index: the samples averaged
// with linearly rising weights, Σ i·Pᵢ ÷ Σ i (i from 1), rounded towards
// zero; 0 without samples.
func AveragePremium(samples []int64) (int64, error) {
	var num, den int64
	for i, p := range samples {
		w := int64(i + 1)
		wp, err := mul(w, p)
		if err != nil {
			return 0, err
		}
		num += wp
		den += w
	}
	if den == 0 {
		return 0, nil
	}
	if num >= 0 {
		return mulDiv(num, 1, den, false)
	}
	return mulDiv(num, 1, den, true)
}

// FundingRate is P + clamp(I − P, ±0.05 %), then held within ±capRate.
func FundingRate(premium, interest, capRate int64) int64 {
	f := premium + min(max(interest-premium, -MaxFundingClamp), MaxFundingClamp)
	return min(max(f, -capRate), capRate)
}

// Funding is what one position pays (negative) or receives (positive) at
// a funding time: its value at mark × rate, longs paying a positive rate
// and shorts a negative one. A payment is rounded up and a receipt down,
// so the sum over all positions is never positive; the remainder goes to
// the insurance fund.
func Funding(p Position, mark, tickValue, rate int64) (int64, error) {
	v, err := p.Value(mark, tickValue)
	if err != nil {
		return 0, err
	}
	// Longs pay a positive rate: the position's flow is −side × value ×
	// rate, rounded towards −∞ (a payment up, a receipt down).
	return mulDiv(v, -int64(p.Side)*rate, RateScale, false)
}

// Median3 is the middle of three prices.
func Median3(a, b, c int64) int64 {
	return max(min(a, b), min(max(a, b), c))
}

// MarkPrice is median(index × (1 + last rate × time to funding ÷
// interval), index + basis, last), where basis is the moving average of
// mid − index (in ticks) and the times are in any one unit.
func MarkPrice(index, lastRate, toFunding, interval, basis, last int64) (int64, error) {
	if interval <= 0 || toFunding < 0 {
		return 0, ErrOverflow
	}
	adj, err := mulDiv(index, lastRate, RateScale, false)
	if err != nil {
		return 0, err
	}
	if adj, err = mulDiv(adj, toFunding, interval, false); err != nil {
		return 0, err
	}
	return Median3(index+adj, index+basis, last), nil
}

// ADLBands are the scores that split a side's auto-deleveraging queue
// into fifths, highest first: a position scoring at least Bands[0] is in
// the first fifth (deleveraged first), below Bands[3] in the last.
type ADLBands [4]int64

// NewADLBands sorts scores (one per position of a side; reordered) and
// answers the bands of their queue; ok is false when there are none.
func NewADLBands(scores []int64) (b ADLBands, ok bool) {
	n := len(scores)
	if n == 0 {
		return b, false
	}
	slices.SortFunc(scores, func(x, y int64) int { return cmp.Compare(y, x) })
	for i := range b {
		// The score of the last position within the first (i+1) fifths.
		b[i] = scores[max((i+1)*n/5-1, 0)]
	}
	return b, true
}

// Level is where a score stands in the queue: 5 in its first fifth … 1
// in its last.
func (b ADLBands) Level(score int64) int {
	for i, t := range b {
		if score >= t {
			return 5 - i
		}
	}
	return 1
}

// ADLScore ranks a profitable position for auto-deleveraging (higher goes
// first), in RateScale: PnL% × effective leverage when the PnL is
// positive, PnL% ÷ effective leverage otherwise, where PnL% = pnl ÷ cost
// and effective leverage = value at mark ÷ margin balance (equity). A
// position with no equity left ranks by its PnL% × value.
func ADLScore(pnl, cost, value, equity int64) (int64, error) {
	if cost <= 0 || value <= 0 {
		return 0, nil
	}
	pct, err := mulDiv(pnl, RateScale, cost, false)
	if err != nil {
		return 0, err
	}
	if equity <= 0 {
		equity = 1
	}
	if pct > 0 {
		// pct × (value ÷ equity)
		return mulDiv(pct, value, equity, false)
	}
	// pct ÷ (value ÷ equity)
	return mulDiv(pct, equity, value, false)
}
