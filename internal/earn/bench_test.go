package earn

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
	"tenger/internal/store"
)

// countingStore counts the items a store writes (a transaction's every
// operation but its condition checks), keeping the embedded store's
// pipelined commits.
type countingStore struct {
	store.Store
	writes atomic.Int64
}

func (c *countingStore) count(ops []store.Op) {
	n := 0
	for _, op := range ops {
		if op.Kind != store.OpCheck {
			n++
		}
	}
	c.writes.Add(int64(n))
}

func (c *countingStore) Put(ctx context.Context, it store.Item, cond store.Cond) error {
	c.writes.Add(1)
	return c.Store.Put(ctx, it, cond)
}

func (c *countingStore) Update(ctx context.Context, k store.Key, u *store.Update, cond store.Cond) (store.Item, error) {
	c.writes.Add(1)
	return c.Store.Update(ctx, k, u, cond)
}

func (c *countingStore) Delete(ctx context.Context, k store.Key, cond store.Cond) error {
	c.writes.Add(1)
	return c.Store.Delete(ctx, k, cond)
}

func (c *countingStore) Transact(ctx context.Context, ops []store.Op) error {
	c.count(ops)
	return c.Store.Transact(ctx, ops)
}

func (c *countingStore) TransactApplied(ctx context.Context, ops []store.Op) (func() error, error) {
	c.count(ops)
	return c.Store.(store.Pipelined).TransactApplied(ctx, ops)
}

// BenchmarkDailyRun is one daily settlement of 100,000 savings positions
// (the USDT product, tiered; each position earning on a different
// amount): each iteration is one more day, every position paid. It
// reports the time and the store writes per position.
//
//	go test -run '^$' -bench DailyRun -benchtime 3x ./internal/earn
func BenchmarkDailyRun(b *testing.B) {
	const positions = 100_000
	st := openStore(b, b.TempDir())
	b.Cleanup(func() { _ = st.Close() })
	cs := &countingStore{Store: st}
	e := envOn(b, cs, false)
	seedPositions(b, e, positions)
	b.ResetTimer()
	var writes int64
	var took time.Duration
	for i := range b.N {
		e.at(i+1, 0)
		before := cs.writes.Load()
		start := time.Now()
		rep, err := e.svc.RunDue(ctx)
		took += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Positions != positions || rep.Settled != positions {
			b.Fatalf("day %d: %+v", i, rep)
		}
		writes += cs.writes.Load() - before
	}
	b.StopTimer()
	n := float64(b.N * positions)
	b.ReportMetric(float64(took.Microseconds())/n, "µs/position")
	b.ReportMetric(float64(writes)/n, "writes/position")
	b.ReportMetric(n/took.Seconds(), "positions/s")
}

// seedPositions gives n users a USDT savings position earning from day 0:
// their earn balances come from the chain in postings of 30 users, each
// with the users' position items.
func seedPositions(b *testing.B, e *env, n int) {
	e.at(0, 0)
	today := DayOf(e.clk.Now())
	const per = 30
	parallel(b, (n+per-1)/per, func(k int) error {
		var legs []ledger.Leg
		var extra []store.Op
		for i := k * per; i < min(n, (k+1)*per); i++ {
			uid := fmt.Sprintf("3%07d", i)
			amount := int64(100+i%50_000) * 1_000_000
			legs = append(legs, ledger.Move(ledger.ChainAccount("TEST"), earnAccount(uid), "USDT", decimal.New(amount, -6)))
			p := newPosition(uid, "usdt", today)
			p.amt, p.elig = amount, amount
			extra = append(extra, store.PutOp(p.item(), nil))
		}
		_, err := e.led.Post(ctx, ledger.Posting{ID: fmt.Sprintf("seed:%d", k), Reason: "deposit", Legs: legs, Extra: extra})
		return err
	})
}
