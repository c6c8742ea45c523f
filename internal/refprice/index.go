package refprice

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Config holds the rules that form a reference price. The defaults
// (DefaultConfig) are the ones the README gives.
type Config struct {
	// Interval is how often the book is sampled and the price recomputed.
	Interval time.Duration
	// Window is how far back the book's samples count: the book source is
	// the median of the mids sampled in it.
	Window time.Duration
	// MinSamples is how many samples the window must hold before the book
	// counts as a source at all (after a start, or after the book was
	// one-sided or too wide for a while).
	MinSamples int
	// MaxSpread is the widest spread, as a fraction of the mid, at which the
	// book is sampled: a wider book says little about the price.
	MaxSpread decimal.Decimal
	// MaxDeviation is how far, as a fraction of the median of all sources,
	// a source may lie and still count when there are several.
	MaxDeviation decimal.Decimal
	// MaxMovePerMinute bounds the reference price against its previous
	// value: it moves at most this fraction per minute of elapsed time
	// (elapsed time counted up to one minute per step).
	MaxMovePerMinute decimal.Decimal
	// Stale is the age past which an external quote no longer counts.
	Stale time.Duration
}

// DefaultConfig is the configuration of both runtimes.
func DefaultConfig() Config {
	return Config{
		Interval:         5 * time.Second,
		Window:           5 * time.Minute,
		MinSamples:       12,
		MaxSpread:        decimal.RequireFromString("0.05"),
		MaxDeviation:     decimal.RequireFromString("0.05"),
		MaxMovePerMinute: decimal.RequireFromString("0.02"),
		Stale:            time.Minute,
	}
}

// divScale is the scale of the divisions (mids, medians, inverse prices).
const divScale = 18

// Quote is one source's price of an index at a time.
type Quote struct {
	Source string
	Price  decimal.Decimal
	At     time.Time
}

// sample is one mid of the book.
type sample struct {
	at  time.Time
	mid decimal.Decimal
}

// series is the state of one index: the book's samples in the window and
// the reference price with the time a source last confirmed it.
type series struct {
	samples []sample // oldest first, all within the window
	ref     decimal.Decimal
	refAt   time.Time
}

// Result is what one step computed for an index.
type Result struct {
	// Price is the reference price (zero when there is none yet).
	Price decimal.Decimal
	// Raw is the combination of the sources before the bound (zero when
	// no source counted this step).
	Raw decimal.Decimal
	// Sources are the sources that counted, the book's median first.
	Sources []Quote
	// Bounded says the bound held the price back from Raw.
	Bounded bool
}

// mid is the mid of a two-sided book when its spread is at most maxSpread
// of the mid; ok is false for a one-sided, crossed or too wide book.
func mid(bid, ask, maxSpread decimal.Decimal) (decimal.Decimal, bool) {
	if !bid.IsPositive() || !ask.IsPositive() || ask.LessThan(bid) {
		return decimal.Zero, false
	}
	m := bid.Add(ask).Div(decimal.NewFromInt(2))
	if ask.Sub(bid).GreaterThan(m.Mul(maxSpread)) {
		return decimal.Zero, false
	}
	return m, true
}

// median of a non-empty list (the mean of the middle two for an even count).
func median(xs []decimal.Decimal) decimal.Decimal {
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b decimal.Decimal) int { return a.Cmp(b) })
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return s[n/2-1].Add(s[n/2]).DivRound(decimal.NewFromInt(2), divScale)
}

// step adds the book's mid (when it has one this step) to the window,
// combines the book's median with the fresh external quotes, and moves the
// reference price towards the combination by at most the bound.
func (s *series) step(c Config, now time.Time, bookMid decimal.Decimal, hasMid bool, external []Quote) Result {
	if hasMid {
		s.samples = append(s.samples, sample{at: now, mid: bookMid})
	}
	cut := 0
	for cut < len(s.samples) && now.Sub(s.samples[cut].at) >= c.Window {
		cut++
	}
	s.samples = s.samples[cut:]

	var sources []Quote
	if len(s.samples) >= c.MinSamples && len(s.samples) > 0 {
		mids := make([]decimal.Decimal, len(s.samples))
		for i, x := range s.samples {
			mids[i] = x.mid
		}
		sources = append(sources, Quote{Source: SourceBook, Price: median(mids), At: now})
	}
	for _, q := range external {
		if q.Price.IsPositive() && now.Sub(q.At) <= c.Stale && q.At.Sub(now) <= c.Stale {
			sources = append(sources, q)
		}
	}
	res := Result{Price: s.ref}
	if len(sources) == 0 {
		return res
	}
	raw, kept := combine(sources, c.MaxDeviation)
	res.Raw, res.Sources = raw, kept
	if !s.ref.IsPositive() {
		s.ref, s.refAt = raw, now
		res.Price = raw
		return res
	}
	elapsed := min(max(now.Sub(s.refAt), 0), time.Minute)
	move := s.ref.Mul(c.MaxMovePerMinute).Mul(decimal.NewFromInt(int64(elapsed))).
		Div(decimal.NewFromInt(int64(time.Minute)))
	lo, hi := s.ref.Sub(move), s.ref.Add(move)
	next := raw
	switch {
	case raw.LessThan(lo):
		next, res.Bounded = lo, true
	case raw.GreaterThan(hi):
		next, res.Bounded = hi, true
	}
	s.ref, s.refAt = next.Round(divScale), now
	res.Price = s.ref
	return res
}

// combine is the median of the sources that lie within maxDev of the
// median of them all, and those sources; when none does (two sources far
// apart), the median of all.
func combine(sources []Quote, maxDev decimal.Decimal) (decimal.Decimal, []Quote) {
	all := make([]decimal.Decimal, len(sources))
	for i, q := range sources {
		all[i] = q.Price
	}
	m := median(all)
	if len(sources) == 1 {
		return m, sources
	}
	var kept []Quote
	var prices []decimal.Decimal
	for _, q := range sources {
		if q.Price.Sub(m).Abs().LessThanOrEqual(m.Mul(maxDev)) {
			kept = append(kept, q)
			prices = append(prices, q.Price)
		}
	}
	if len(kept) == 0 {
		return m, sources
	}
	return median(prices), kept
}
