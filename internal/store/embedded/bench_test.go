package embedded

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

func openBench(b *testing.B) *Store {
	b.Helper()
	s, err := Open(b.TempDir(), Options{SweepInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// benchParallelism is the goroutines per CPU of the parallel write
// benchmarks (BENCH_PAR overrides it).
var benchParallelism = envInt("BENCH_PAR", 32)

// BenchmarkTransfer measures durable two-item conditional transactions
// (debit one account if its balance covers the amount, credit another) from
// many concurrent clients, each on its own pair of accounts.
func BenchmarkTransfer(b *testing.B) {
	s := openBench(b)
	ctx := context.Background()
	clients := benchParallelism * 64 // enough pairs for any GOMAXPROCS up to 64
	for i := 0; i < 2*clients; i += 100 {
		var ops []store.Op
		for j := i; j < i+100 && j < 2*clients; j++ {
			ops = append(ops, store.PutOp(store.Item{"pk": fmt.Sprintf("acct#%d", j), "sk": "USDT", "balance": dec("1000000000")}, nil))
		}
		if err := s.Transact(ctx, ops); err != nil {
			b.Fatal(err)
		}
	}
	amount := dec("0.01")
	var next atomic.Int64
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		c := int(next.Add(1) - 1)
		from := store.Key{PK: fmt.Sprintf("acct#%d", 2*c), SK: "USDT"}
		to := store.Key{PK: fmt.Sprintf("acct#%d", 2*c+1), SK: "USDT"}
		debit := store.NewUpdate().Add("balance", amount.Neg())
		credit := store.NewUpdate().Add("balance", amount)
		cond := store.Ge("balance", amount)
		for pb.Next() {
			if err := s.Transact(ctx, []store.Op{
				store.UpdateOp(from, debit, cond),
				store.UpdateOp(to, credit, nil),
			}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkConditionalDebitContended measures conditional debits of one hot
// balance from many clients (the worst case: every write on one key).
func BenchmarkConditionalDebitContended(b *testing.B) {
	s := openBench(b)
	ctx := context.Background()
	k := store.Key{PK: "hot", SK: "USDT"}
	if err := s.Put(ctx, store.Item{"pk": "hot", "sk": "USDT", "balance": decimal.NewFromInt(1 << 50)}, nil); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		upd := store.NewUpdate().AddInt("balance", -1)
		for pb.Next() {
			if _, err := s.Update(ctx, k, upd, store.Ge("balance", 1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

// BenchmarkPut measures single durable puts, one client and many clients.
func BenchmarkPut(b *testing.B) {
	item := func(i int64) store.Item {
		return store.Item{"pk": fmt.Sprintf("order#%d", i), "sk": "order", "gsi1pk": "user#1", "gsi1sk": fmt.Sprintf("t#%d", i),
			"price": dec("65000.12"), "qty": dec("0.015"), "status": "NEW"}
	}
	b.Run("serial", func(b *testing.B) {
		s := openBench(b)
		ctx := context.Background()
		for i := 0; i < b.N; i++ {
			if err := s.Put(ctx, item(int64(i)), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
	b.Run("parallel", func(b *testing.B) {
		s := openBench(b)
		ctx := context.Background()
		var n atomic.Int64
		b.SetParallelism(benchParallelism)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := s.Put(ctx, item(n.Add(1)), nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	})
}

// BenchmarkGet measures point reads of existing items.
func BenchmarkGet(b *testing.B) {
	s := openBench(b)
	ctx := context.Background()
	const items = 10000
	for i := 0; i < items; i += 100 {
		var ops []store.Op
		for j := i; j < i+100; j++ {
			ops = append(ops, store.PutOp(store.Item{"pk": fmt.Sprintf("acct#%d", j), "sk": "USDT",
				"balance": dec("123.45"), "frozen": dec("0"), "ver": j}, nil))
		}
		if err := s.Transact(ctx, ops); err != nil {
			b.Fatal(err)
		}
	}
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1) % items
			if _, err := s.Get(ctx, store.Key{PK: fmt.Sprintf("acct#%d", i), SK: "USDT"}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func envInt(name string, def int) int {
	var v int
	if _, err := fmt.Sscan(os.Getenv(name), &v); err == nil && v > 0 {
		return v
	}
	return def
}
