package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine/journal"
	"tenger/internal/matching"
)

// BenchmarkSubmit measures order entry through the engine in-process:
// goroutines (as many as connections would be) each submit crossing limit
// orders, every one answered after its group's journal fsync. It reports
// orders per second and the acknowledgement latency; the durable variant
// fsyncs on the machine's disk, as the engine does in production.
func BenchmarkSubmit(b *testing.B) {
	for _, policy := range []journal.Policy{journal.NoFsync, journal.Durable} {
		for _, workers := range []int{1, 64} {
			name := fmt.Sprintf("fsync=%v/workers=%d", policy == journal.Durable, workers)
			b.Run(name, func(b *testing.B) { benchSubmit(b, policy, workers) })
		}
	}
}

func benchSubmit(b *testing.B, policy journal.Policy, workers int) {
	e, err := Open(context.Background(), Options{Dir: b.TempDir(), Policy: policy, Log: zerolog.Nop()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for _, c := range setup() {
		e.Submit(ctx, c)
	}
	for w := 1; w <= workers; w++ {
		e.Submit(ctx, credit(fmt.Sprintf("u%d", w), uint64(w), "USDT", 1<<60))
		e.Submit(ctx, credit(fmt.Sprintf("b%d", w), uint64(w), "BTC", 1<<58))
	}
	var next atomic.Uint64
	lat := new(matching.LatencyHistogram)
	var lmu sync.Mutex
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	per := b.N / workers
	for w := 1; w <= workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := new(matching.LatencyHistogram)
			for i := 0; i < per; i++ {
				id := next.Add(1)
				side, price := matching.Buy, int64(3_000_000+id%7)
				if id%2 == 0 {
					side, price = matching.Sell, int64(3_000_000-id%7)
				}
				t0 := time.Now()
				r := e.Submit(ctx, place(id, uint64(w), side, price, 1000))
				h.Record(time.Since(t0).Nanoseconds())
				if r.Code != OK {
					b.Errorf("%s %s", r.Code, r.Reason)
					return
				}
			}
			lmu.Lock()
			lat.Merge(h)
			lmu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(start)
	b.ReportMetric(float64(per*workers)/el.Seconds(), "orders/s")
	b.ReportMetric(float64(lat.Quantile(0.5))/1e3, "p50_µs")
	b.ReportMetric(float64(lat.Quantile(0.99))/1e3, "p99_µs")
}
