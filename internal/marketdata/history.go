package marketdata

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// SeedHistory gives pairs that have never traded a made-up past, so the
// charts, tickers and sparklines of a new local install (`tenger serve
// --dev` with the market maker) are not empty: span of one-minute candles
// ending at the start of the current minute, and the candles of every
// longer period built from them. prices maps a symbol to the price the
// history ends at (the maker's reference, so its live trades continue the
// line); the walk starts there too and wanders in between (a bridge on the
// log price, about 2–3% a day). Volumes are worth tens of times the pair's
// minimum notional a minute, as the maker trades.
//
// Only pairs without a real trade are seeded (no recent trade and no candle
// carrying a trade id): seeded candles carry none, so a seed that a crash cut
// short is redone whole on the next start, and the first real trade ends
// seeding for good. It must run before Start. It returns the symbols seeded.
// The AWS runtime never calls it.
func (s *Service) SeedHistory(ctx context.Context, prices map[string]decimal.Decimal, span time.Duration, rnd *rand.Rand) ([]string, error) {
	if s.refresh > 0 || span < time.Minute {
		return nil, nil
	}
	now := s.now()
	end := Min1.BucketStart(now) // the current minute stays for live trades
	minutes := int(span / time.Minute)
	syms := make([]string, 0, len(prices))
	for sym := range prices {
		syms = append(syms, sym)
	}
	sort.Strings(syms)
	var seeded []string
	for _, sym := range syms {
		s.mu.Lock()
		st := s.syms[sym]
		fresh := st != nil && st.lastID == "" && len(st.recent) == 0
		s.mu.Unlock()
		price := prices[sym]
		if !fresh || !price.IsPositive() {
			continue
		}
		ops := historyOps(st, price, end, minutes, rnd)
		if err := s.write(ctx, ops); err != nil {
			return seeded, fmt.Errorf("marketdata: seed %s: %w", sym, err)
		}
		// Read back as New reads a pair: candles, ticker and all.
		loaded, err := s.loadState(ctx, st.pair)
		if err != nil {
			return seeded, fmt.Errorf("marketdata: seed: %w", err)
		}
		s.mu.Lock()
		s.syms[sym] = loaded
		s.mu.Unlock()
		seeded = append(seeded, sym)
	}
	return seeded, nil
}

// historyOps builds the candles of every period for minutes one-minute
// buckets before end (Unix s), the one-minute candles written last (as
// applyTrades orders them).
func historyOps(st *symState, price decimal.Decimal, end int64, minutes int, rnd *rand.Rand) []store.Op {
	p := st.pair
	tick := p.PriceTick
	if !tick.IsPositive() {
		tick = decimal.New(1, -p.PricePrecision)
	}
	lot := p.LotSize
	if !lot.IsPositive() {
		lot = decimal.New(1, -p.VolumePrecision)
	}
	minN := p.MinNotional
	if !minN.IsPositive() {
		minN = decimal.NewFromInt(10)
	}
	last, _ := price.Float64()
	// A Brownian bridge on the log price from last back to last: a walk
	// with ~0.07% a minute, pulled to end where it began.
	const sigma = 0.0007
	walk := make([]float64, minutes+1)
	for i := 1; i <= minutes; i++ {
		walk[i] = walk[i-1] + rnd.NormFloat64()*sigma
	}
	level := func(i int) float64 {
		return last * math.Exp(walk[i]-float64(i)/float64(minutes)*walk[minutes])
	}
	onTick := func(v float64, up bool) decimal.Decimal {
		d := decimal.NewFromFloat(v)
		return roundTo(d, tick, up)
	}
	byPeriod := map[Period]map[int64]*candle{}
	for _, per := range Periods {
		byPeriod[per] = map[int64]*candle{}
	}
	for i := 0; i < minutes; i++ {
		start := end - int64(minutes-i)*60
		o, c := level(i), level(i+1)
		wick := math.Abs(rnd.NormFloat64()) * sigma * 0.6
		hi := math.Max(o, c) * (1 + wick)
		lo := math.Min(o, c) * (1 - math.Abs(rnd.NormFloat64())*sigma*0.6)
		one := &candle{start: start, open: onTick(o, false), close: onTick(c, false)}
		one.high = decimal.Max(onTick(hi, true), one.open, one.close)
		one.low = decimal.Min(onTick(lo, false), one.open, one.close)
		if !one.low.IsPositive() {
			one.low = tick
		}
		// Tens of minimum notionals a minute, more when the price moves.
		worth := minN.Mul(decimal.NewFromFloat(math.Exp(rnd.NormFloat64()*0.6) * (20 + 4000*math.Abs(c-o)/o)).Round(4))
		one.vol = roundTo(worth.DivRound(one.close, 18), lot, true)
		if one.vol.LessThan(p.MinQty) {
			one.vol = roundTo(p.MinQty, lot, true)
		}
		one.amount = one.vol.Mul(one.open.Add(one.close)).Div(decimal.NewFromInt(2)).Round(p.PricePrecision + p.VolumePrecision)
		one.count = 5 + rnd.Int64N(40)
		at := time.Unix(start, 0)
		for _, per := range Periods {
			if per == Min1 {
				byPeriod[per][start] = one
				continue
			}
			b := per.BucketStart(at)
			agg := byPeriod[per][b]
			if agg == nil {
				agg = &candle{start: b, open: one.open, high: one.high, low: one.low}
				byPeriod[per][b] = agg
			}
			agg.high = decimal.Max(agg.high, one.high)
			agg.low = decimal.Min(agg.low, one.low)
			agg.close = one.close
			agg.vol = agg.vol.Add(one.vol)
			agg.amount = agg.amount.Add(one.amount)
			agg.count += one.count
		}
	}
	var ops []store.Op
	order := append(append([]Period(nil), Periods[1:]...), Min1)
	for _, per := range order {
		starts := make([]int64, 0, len(byPeriod[per]))
		for b := range byPeriod[per] {
			starts = append(starts, b)
		}
		sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
		for _, b := range starts {
			ops = append(ops, store.PutOp(candleItem(p.Symbol, per, byPeriod[per][b]), nil))
		}
	}
	return ops
}
