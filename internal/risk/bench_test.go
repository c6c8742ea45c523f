package risk

import (
	"runtime"
	"sync"
	"testing"

	"tenger/internal/matching"
)

var (
	workloadOnce sync.Once
	workload1M   []matching.Command
)

// benchWorkload is the matching benchmark's flow (BenchmarkWorkload1M): 1M
// new orders, about 2M commands with their amends and cancels.
func benchWorkload() []matching.Command {
	workloadOnce.Do(func() {
		workload1M = matching.GenerateWorkload(matching.WorkloadConfig{Seed: 42, Orders: 1_000_000, Symbol: 1})
	})
	return workload1M
}

// BenchmarkWorkload1MWithRisk is the risk engine's speed goal: the matching
// benchmark's workload through R1 (every new order and amendment holds its
// funds), the book (writing its events in place into the buffer the
// publisher would read too) and R2 (reading them there: every trade settles
// both sides and the fee account, every end releases its hold), on one
// goroutine. Users have balances enough for every order, as in
// exchange-core's benchmark with risk checks. msgs/cpu-s divides by the
// CPU time the benchmark's thread got (the figure to compare on a busy
// machine); the goal is 10M commands a second with zero allocations.
func BenchmarkWorkload1MWithRisk(b *testing.B) {
	cmds := benchWorkload()
	runtime.GC()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	var cpu float64
	var trades uint64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w := newWorkloadEnv(b, 1000, func(uint64) (int64, int64) { return 1 << 50, 1 << 60 })
		c0 := matching.ThreadCPU()
		b.StartTimer()
		for j := range cmds {
			w.apply(&cmds[j])
		}
		b.StopTimer()
		cpu += matching.ThreadCPU() - c0
		trades = w.book.LastTradeID()
		// Amendments of orders already ended are answered unknown by R1,
		// as the book would answer them; nothing is refused for funds.
		if w.results[OK]+w.results[UnknownOrder] != len(cmds) {
			b.Fatalf("R1 refused commands: %v", w.results)
		}
		b.StartTimer()
	}
	b.StopTimer()
	msgs := float64(len(cmds)) * float64(b.N)
	b.ReportMetric(msgs/b.Elapsed().Seconds(), "msgs/s")
	if cpu > 0 {
		b.ReportMetric(msgs/cpu, "msgs/cpu-s")
	}
	b.ReportMetric(float64(trades), "trades/run")
}
