package projector

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// crashingStore fails every transaction after the first n of its writes,
// as a process killed in the middle of writing a batch.
type crashingStore struct {
	store.Store
	left atomic.Int32
}

var errKilled = errors.New("killed")

func (s *crashingStore) Transact(ctx context.Context, ops []store.Op) error {
	if s.left.Add(-1) < 0 {
		return errKilled
	}
	return s.Store.Transact(ctx, ops)
}

// A batch the projection wrote in part before a crash is written again as
// the same batch, whatever batch size the engine runs with after it: its
// postings are not applied twice (the chain account moves once), and every
// balance ends as the engine's.
func TestPartlyWrittenBatchIsResumedWhole(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var apply atomic.Bool
	open := func(s store.Store, maxBatch int, on bool) (*engine.Engine, *error) {
		apply.Store(on)
		p := New(Options{Store: s, Counter: chainCounter})
		var perr error
		e, err := engine.Open(ctx, engine.Options{Dir: dir, Policy: journal.NoFsync, MaxBatch: maxBatch, Log: zerolog.Nop(),
			Checkpoint: p.Checkpoint, Resume: p.Resume, Deliver: func(b *engine.Batch) {
				if apply.Load() && perr == nil {
					perr = p.Apply(ctx, b)
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		return e, &perr
	}
	// The store has the first 50 deposits; the journal holds 300 more.
	e, _ := open(st, 1024, true)
	e.Submit(ctx, engine.Command{Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8})
	for i := range 350 {
		if i == 50 {
			apply.Store(false)
		}
		u := uint64(i + 1)
		if r := e.Submit(ctx, engine.Command{Kind: engine.KindCredit, Ref: fmt.Sprint("d", i), User: u, UserID: uid(u), Coin: "USDT",
			Amount: 100_000_000, Note: []byte("chain:TRC20")}); r.Code != engine.OK {
			t.Fatal(r.Code)
		}
	}
	e.Crash()
	// Recovery hands the 300 on as one batch (the 50 before it change no
	// balance of it); its writes die after two transactions (the posting
	// and the first 100 balances).
	cs := &crashingStore{Store: st}
	cs.left.Store(2)
	e, perr := open(cs, 1024, true)
	if !errors.Is(*perr, errKilled) {
		t.Fatalf("the batch was written whole: %v", *perr)
	}
	e.Crash()
	// Recovery with smaller batches: the first is cut where the crashed
	// batch ended.
	e, perr = open(st, 64, true)
	defer e.Close()
	if *perr != nil {
		t.Fatal(*perr)
	}
	led := ledger.New(st, nil)
	chain, err := led.Balance(ctx, ledger.ChainAccount("TRC20"), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !chain.Available.Equal(decimal.RequireFromString("-350")) {
		t.Fatalf("chain account %s, want -350 (each deposit once)", chain.Available)
	}
	for _, u := range []uint64{1, 50, 51, 150, 350} {
		b, err := led.Balance(ctx, ledger.UserAccount(uid(u), ledger.Spot), "USDT")
		if err != nil || !b.Available.Equal(decimal.RequireFromString("1")) {
			t.Fatalf("user %d: %+v %v", u, b, err)
		}
	}
	rep, err := led.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %+v", rep.Problems)
	}
}
