package ledger

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"tenger/internal/gctune"
)

// The ledger's speed goal: at least 20,000 transfers per second on the
// embedded store on 2 cores, with and without contention on one account.
// Besides the wall rate the benchmarks report the process CPU time per
// transfer, which stays comparable when the machine is busy with other work.

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serving sets the garbage collector as `tenger serve` and the engine set it
// (gctune.Apply), so the figures are those of the ledger in a server.
func serving(b *testing.B) {
	old := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(-1)
	gctune.Apply()
	b.Cleanup(func() { debug.SetGCPercent(old); debug.SetMemoryLimit(oldLimit) })
}

// one is every benchmark transfer's amount, parsed once: the figures are
// the ledger's, not the loop's.
var one = d("1")

func report(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "transfers/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/transfer")
}

func BenchmarkTransferParallel(b *testing.B) {
	serving(b)
	st := openStore(b)
	cpu0 := cpuTime()
	l := New(st, func() time.Time { return time.Unix(1700000000, 0) })
	b.SetParallelism(32)
	var n int64
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		uid := fmt.Sprint(n)
		mu.Unlock()
		from, to := UserAccount(uid, Spot), UserAccount(uid, Futures)
		if _, err := l.Post(context.Background(), Posting{ID: "seed" + uid, Reason: "deposit",
			Legs: []Leg{Move(ChainAccount("C"), from, "USDT", d("1000000000"))}}); err != nil {
			b.Error(err)
			return
		}
		i := 0
		for pb.Next() {
			i++
			if _, err := l.Post(context.Background(), Posting{ID: uid + "-" + strconv.Itoa(i), Reason: "transfer",
				Legs: []Leg{Move(from, to, "USDT", one)}}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	report(b, cpu0)
}

func BenchmarkTransferContended(b *testing.B) {
	serving(b)
	st := openStore(b)
	cpu0 := cpuTime()
	l := New(st, func() time.Time { return time.Unix(1700000000, 0) })
	hot := UserAccount("hot", Spot)
	if _, err := l.Post(context.Background(), Posting{ID: "seed", Reason: "deposit",
		Legs: []Leg{Move(ChainAccount("C"), hot, "USDT", d("1000000000"))}}); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(32)
	var n int64
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		uid := fmt.Sprint(n)
		mu.Unlock()
		to := UserAccount(uid, Spot)
		i := 0
		for pb.Next() {
			i++
			if _, err := l.Post(context.Background(), Posting{ID: uid + "-" + strconv.Itoa(i), Reason: "transfer",
				Legs: []Leg{Move(hot, to, "USDT", one)}}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	report(b, cpu0)
}
