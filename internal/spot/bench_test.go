package spot

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tenger/internal/engine/journal"
	"tenger/internal/store"
)

// BenchmarkEndToEnd measures orders per second placed through the service
// in the runtime (checked and matched by the engine, journalled with
// fsync, answered once the store projection shows them, as the REST routes
// are), on the embedded store; the p99 of PlaceOrder's latency (the
// acknowledgement); the process CPU time per order (steadier than the
// rates on a shared machine); and the store calls per order.
//
// shape=spread is 64 users at prices around one level, so about a quarter
// of the orders trade; shape=cross is what `tenger bench` sends: 4 buyers
// and 4 sellers at one price, so every order trades.
func BenchmarkEndToEnd(b *testing.B) {
	for _, shape := range []string{"spread", "cross"} {
		for _, par := range []int{4, 32} {
			b.Run(fmt.Sprintf("shape=%s/clients=%d", shape, par*2), func(b *testing.B) { benchEndToEnd(b, shape, par) })
		}
	}
}

func benchEndToEnd(b *testing.B, shape string, par int) {
	// Count the store calls of the measured run only: the set-up goes
	// uncounted.
	var cs *countingStore
	e := newEnv(b, func(e *env) {
		e.policy = journal.Durable
		cs = &countingStore{Store: e.raw}
		e.raw = cs
	})
	users := 64
	if shape == "cross" {
		users = 8
	}
	for i := 0; i < users; i++ {
		uid := fmt.Sprint(20000000 + i)
		e.deposit(uid, "BTC", "100000")
		e.deposit(uid, "USDT", "10000000000")
	}
	svc := e.svc
	cs.reset()
	var n atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	cpu0 := cpuTime()
	b.ReportAllocs()
	b.SetParallelism(par) // concurrent clients, as a load generator over keep-alive would be
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			i := n.Add(1)
			var req PlaceRequest
			u := i % int64(users)
			if shape == "cross" {
				// As tenger bench: even orders buy, odd orders sell, from
				// users of the two halves, at one price.
				side := "BUY"
				u = (i / 2) % int64(users/2)
				if i%2 == 1 {
					side, u = "SELL", int64(users/2)+(i/2)%int64(users/2)
				}
				req = limit("btcusdt", side, "30000", "0.001")
			} else {
				side := "BUY"
				if i%2 == 0 {
					side = "SELL"
				}
				req = limit("btcusdt", side, fmt.Sprint(30000+(i*7919)%20-10), "0.001")
			}
			uid := fmt.Sprint(20000000 + u)
			t0 := time.Now()
			if _, err := svc.PlaceOrder(e.ctx, uid, req); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	// Every order was answered once the store showed it.
	el := time.Since(start)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	e.drain()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if k := len(lat); k > 0 {
		f := float64(k)
		b.ReportMetric(f/el.Seconds(), "orders/s")
		b.ReportMetric(float64(lat[k*99/100].Microseconds())/1000, "p99-ack-ms")
		b.ReportMetric(float64(cpu.Microseconds())/f, "cpu-µs/order")
		b.ReportMetric(float64(cs.tx.Load())/f, "tx/order")
		b.ReportMetric(float64(cs.writes.Load())/f, "writes/order")
		b.ReportMetric(float64(cs.gets.Load())/f, "gets/order")
		b.Logf("store calls by size and first item: %v", cs.kinds)
	}
}

// cpuTime is the process's user plus system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// countingStore counts the calls a benchmark makes: store transactions
// (Transact and single-item writes alike), the items they write, and reads,
// and keeps a histogram of the writes by size and kind of first item.
type countingStore struct {
	store.Store
	tx, writes, gets atomic.Int64
	mu               sync.Mutex
	kinds            map[string]int
}

// kindOf is the kind of item a partition key names ("SORD", "POST" ...).
func kindOf(pk string) string {
	if i := strings.IndexByte(pk, '#'); i >= 0 {
		return pk[:i]
	}
	return pk
}

func (c *countingStore) kind(k string) {
	c.mu.Lock()
	if c.kinds == nil {
		c.kinds = map[string]int{}
	}
	c.kinds[k]++
	c.mu.Unlock()
}

func (c *countingStore) reset() { c.tx.Store(0); c.writes.Store(0); c.gets.Store(0) }

func (c *countingStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	c.gets.Add(1)
	return c.Store.Get(ctx, k)
}

func (c *countingStore) Put(ctx context.Context, it store.Item, cond store.Cond) error {
	c.tx.Add(1)
	c.writes.Add(1)
	c.kind("put " + kindOf(it.Key().PK))
	return c.Store.Put(ctx, it, cond)
}

func (c *countingStore) Update(ctx context.Context, k store.Key, u *store.Update, cond store.Cond) (store.Item, error) {
	c.tx.Add(1)
	c.writes.Add(1)
	c.kind("update " + kindOf(k.PK))
	return c.Store.Update(ctx, k, u, cond)
}

func (c *countingStore) Delete(ctx context.Context, k store.Key, cond store.Cond) error {
	c.tx.Add(1)
	c.writes.Add(1)
	c.kind("delete " + kindOf(k.PK))
	return c.Store.Delete(ctx, k, cond)
}

func (c *countingStore) Transact(ctx context.Context, ops []store.Op) error {
	c.tx.Add(1)
	c.writes.Add(int64(len(ops)))
	k := fmt.Sprint("tx", len(ops))
	if len(ops) > 10 {
		k = "tx>10"
	}
	c.kind(k + " " + kindOf(ops[0].Key.PK))
	return c.Store.Transact(ctx, ops)
}
