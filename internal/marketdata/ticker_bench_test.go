package marketdata

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// benchEnv is a service whose every pair traded once a minute for the
// last 24 h, then stopped.
func benchEnv(b *testing.B) (*Service, time.Time) {
	e := newEnv(b)
	now := e.clock.Now()
	from := Min1.BucketStart(now) - 1439*60
	md := e.md
	md.mu.Lock()
	for _, st := range md.syms {
		ser := make([]*candle, 0, 1440)
		for m := int64(0); m < 1440; m++ {
			p := decimal.NewFromInt(100 + m%7)
			ser = append(ser, &candle{start: from + 60*m, open: p, high: p, low: p, close: p,
				vol: decimal.NewFromInt(1), amount: p, count: 1, last: "1"})
		}
		st.series[Min1] = ser
		st.tickSent, st.tickLeave = st.tickerLeave(now)
		st.tickSent.TS = 0
	}
	md.mu.Unlock()
	return md, now
}

// BenchmarkFlushIdle is one flush of the loop (every PushInterval/2) when
// no pair trades and no window moves: the ticker is not recomputed.
func BenchmarkFlushIdle(b *testing.B) {
	md, now := benchEnv(b)
	ctx := context.Background()
	for b.Loop() {
		md.flush(ctx, now)
	}
}

// BenchmarkTickersRecompute is what each flush would cost if it
// recomputed every pair's ticker to see whether it changed.
func BenchmarkTickersRecompute(b *testing.B) {
	md, now := benchEnv(b)
	for b.Loop() {
		md.mu.Lock()
		for _, st := range md.syms {
			_ = st.ticker(now)
		}
		md.mu.Unlock()
	}
}
