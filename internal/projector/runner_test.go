package projector

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// flaky fails its first transactions, as a store that is briefly away.
type flaky struct {
	store.Store
	fails atomic.Int32
}

func (f *flaky) Transact(ctx context.Context, ops []store.Op) error {
	if f.fails.Add(-1) >= 0 {
		return errors.New("store away")
	}
	return f.Store.Transact(ctx, ops)
}

// The engine answers before the store is written; WaitProjected waits for
// it; a store that fails for a while delays the projection but loses
// nothing.
func TestRunnerWritesBehindAndRetries(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fl := &flaky{Store: st}
	p := New(Options{Store: fl, Counter: chainCounter})
	var hooked atomic.Int32
	r := NewRunner(p, 0, zerolog.Nop(), func(*engine.Batch) { hooked.Add(1) })
	e, err := engine.Open(context.Background(), engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Log: zerolog.Nop(),
		Checkpoint: p.Checkpoint, Deliver: r.Enqueue})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.Submit(context.Background(), engine.Command{Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8})
	fl.fails.Store(3)
	res := e.Submit(context.Background(), deposit("d1", 1, "USDT", 500))
	if res.Code != engine.OK {
		t.Fatal(res.Code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.WaitProjected(ctx, res.Seq); err != nil {
		t.Fatal(err)
	}
	b, err := ledger.New(st, nil).Balance(context.Background(), ledger.UserAccount(uid(1), ledger.Spot), "USDT")
	if err != nil || !b.Available.Equal(units(500, 8)) {
		t.Fatalf("projected balance %+v %v", b, err)
	}
	if h := hooked.Load(); h < 1 || h > 2 || r.Projected() != res.Seq { // batches queued together are written (and hooked) as one
		t.Fatalf("hooks %d, projected %d", hooked.Load(), r.Projected())
	}
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if err := r.WaitProjected(short, res.Seq+100); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting for a batch that never comes: %v", err)
	}
	if lag := r.Lag(true, 0.5, 0.99); lag[1] <= 0 {
		t.Fatalf("lag %v", lag)
	}
	r.Close()
}
