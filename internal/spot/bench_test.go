package spot

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tenger/internal/store"
)

// BenchmarkEndToEnd measures orders per second accepted by the service
// (hold + order + outbox in one store transaction, then the queue send),
// matched and settled by the engine running on its goroutine, on the
// embedded store and queue; and the p99 of PlaceOrder's latency (the
// acknowledgement). Half the orders cross, so about a quarter of them
// trade.
func BenchmarkEndToEnd(b *testing.B) {
	for _, par := range []int{4, 32} {
		b.Run(fmt.Sprintf("clients=%d", par*runtime.GOMAXPROCS(0)), func(b *testing.B) { benchEndToEnd(b, par) })
	}
}

func benchEndToEnd(b *testing.B, par int) {
	e := newEnv(b)
	const users = 64
	for i := 0; i < users; i++ {
		uid := fmt.Sprint(20000000 + i)
		e.deposit(uid, "BTC", "100000")
		e.deposit(uid, "USDT", "10000000000")
	}
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q,
		DataDir: e.dir + "/engine", Batch: 512})
	if err != nil {
		b.Fatal(err)
	}
	eng.Start()
	var n atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(par) // concurrent clients, as a load generator over keep-alive would be
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			i := n.Add(1)
			uid := fmt.Sprint(20000000 + i%users)
			side := "BUY"
			if i%2 == 0 {
				side = "SELL"
			}
			price := fmt.Sprint(30000 + (i*7919)%20 - 10)
			t0 := time.Now()
			if _, err := e.svc.PlaceOrder(e.ctx, uid, limit("btcusdt", side, price, "0.001")); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	// Wait until the engine has sequenced and settled every order (the
	// outbox empties as Accepted events are settled).
	for {
		page, err := e.st.Query(e.ctx, store.Query{PK: pkOutbox + "btcusdt", Limit: 1})
		if err != nil {
			b.Fatal(err)
		}
		if len(page.Items) == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	el := time.Since(start)
	b.StopTimer()
	if err := eng.Stop(); err != nil {
		b.Fatal(err)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		b.ReportMetric(float64(len(lat))/el.Seconds(), "orders/s")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ack-ms")
	}
}
