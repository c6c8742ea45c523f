package perp

import "time"

// Level is one price level of a book side: a price in ticks and the
// contracts resting there.
type Level struct {
	Price int64
	Qty   int64
}

// ImpactPrice is the average price, in ticks, of filling notional (money
// units) from a book side's levels, best first: the impact bid (bids) or
// impact ask (asks) of the premium index. It answers 0 when the side is
// too thin to fill it. The last level is taken in part, in whole contracts
// (rounded up), so the average is Σ price × qty ÷ Σ qty over what is taken,
// rounded down.
func ImpactPrice(levels []Level, notional, tickValue int64) (int64, error) {
	if notional <= 0 || tickValue <= 0 {
		return 0, ErrOverflow
	}
	var cost, qty, filled int64
	for _, l := range levels {
		if l.Price <= 0 || l.Qty <= 0 {
			continue
		}
		value, err := mul(l.Price, tickValue)
		if err != nil {
			return 0, err
		}
		// Contracts still needed at this price, rounded up.
		need := (notional - filled + value - 1) / value
		take := min(need, l.Qty)
		v, err := mul(take, value)
		if err != nil {
			return 0, err
		}
		filled += v
		cost += take * l.Price
		qty += take
		if filled >= notional {
			return cost / qty, nil
		}
	}
	return 0, nil
}

// ImpactNotional is the notional the impact prices fill: 200 of the margin
// coin (in money units) ÷ the initial margin rate at the highest leverage
// (200 × max leverage).
func ImpactNotional(coinUnits, maxLeverage int64) (int64, error) {
	return mul(200*coinUnits, maxLeverage)
}

// Sampler keeps one contract's price samples between funding times, as
// the venues do: every 5 s a premium sample (Premium of the impact prices)
// and a basis sample (mid − index). It answers the mark price at any
// moment and the funding rate at a funding time. Not safe for concurrent
// use; deterministic in its inputs.
type Sampler struct {
	// Interval is the funding interval (8 h), from 00:00 UTC.
	Interval time.Duration
	// BasisWindow is how many basis samples the moving average takes
	// (60: 5 minutes of 5-second samples).
	BasisWindow int

	premiums []int64 // this interval's premium samples, in order
	basis    []int64 // the last BasisWindow basis samples (a ring)
	next     int     // the ring's next slot
	lastRate int64   // the last funding rate paid
}

// SampleEvery is the venues' sampling period.
const SampleEvery = 5 * time.Second

// Sample records one sample: the index, the best bid and ask (0 when a
// side is empty: no basis sample) and the impact prices (0 when a side
// is too thin: no premium from that side).
func (s *Sampler) Sample(index, bid, ask, impactBid, impactAsk int64) error {
	if index <= 0 {
		return ErrOverflow
	}
	p, err := Premium(impactBid, impactAsk, index)
	if err != nil {
		return err
	}
	s.premiums = append(s.premiums, p)
	if bid > 0 && ask > 0 {
		b := (bid+ask)/2 - index
		if len(s.basis) < max(s.BasisWindow, 1) {
			s.basis = append(s.basis, b)
		} else {
			s.basis[s.next] = b
		}
		s.next = (s.next + 1) % max(s.BasisWindow, 1)
	}
	return nil
}

// Basis is the moving average of the basis samples (0 without any),
// rounded towards zero.
func (s *Sampler) Basis() int64 {
	if len(s.basis) == 0 {
		return 0
	}
	var sum int64
	for _, b := range s.basis {
		sum += b
	}
	return sum / int64(len(s.basis))
}

// NextFunding is the first funding time after now: a multiple of the
// interval from 00:00 UTC.
func (s *Sampler) NextFunding(now time.Time) time.Time {
	day := now.UTC().Truncate(24 * time.Hour)
	n := now.Sub(day)/s.Interval + 1
	return day.Add(n * s.Interval)
}

// Mark is the mark price at now: median(index × (1 + last funding rate ×
// time to funding ÷ interval), index + the basis average, last price).
func (s *Sampler) Mark(now time.Time, index, last int64) (int64, error) {
	left := s.NextFunding(now).Sub(now)
	return MarkPrice(index, s.lastRate, int64(left/time.Millisecond), int64(s.Interval/time.Millisecond), s.Basis(), last)
}

// Funding ends an interval: the rate from the interval's premium samples
// (their rising-weight average), the interest rate and the cap; the
// samples start over and the rate is what Mark's first price uses next.
func (s *Sampler) Funding(interest, capRate int64) (int64, error) {
	p, err := AveragePremium(s.premiums)
	if err != nil {
		return 0, err
	}
	s.lastRate = FundingRate(p, interest, capRate)
	s.premiums = s.premiums[:0]
	return s.lastRate, nil
}

// Estimate is the rate Funding would answer now (the predicted rate the
// venues show), without ending the interval.
func (s *Sampler) Estimate(interest, capRate int64) (int64, error) {
	p, err := AveragePremium(s.premiums)
	if err != nil {
		return 0, err
	}
	return FundingRate(p, interest, capRate), nil
}

// ResetBasis forgets the basis samples (the simulator's market jump: the
// book's distance to the old index says nothing of the new one).
func (s *Sampler) ResetBasis() { s.basis, s.next = s.basis[:0], 0 }

// SetLastRate restores the last funding rate paid (after a restart: the
// mark's funding basis uses it).
func (s *Sampler) SetLastRate(r int64) { s.lastRate = r }

// LastRate is the last funding rate.
func (s *Sampler) LastRate() int64 { return s.lastRate }
