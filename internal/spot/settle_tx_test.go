package spot

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// gatedStore holds every Transact until the gate opens, so the test can
// queue units behind the commits in flight, and records each transaction.
type gatedStore struct {
	store.Store
	gate  chan struct{}
	mu    sync.Mutex
	sizes []int
}

func (g *gatedStore) Transact(ctx context.Context, ops []store.Op) error {
	g.mu.Lock()
	g.sizes = append(g.sizes, len(ops))
	g.mu.Unlock()
	<-g.gate
	return g.Store.Transact(ctx, ops)
}

// Units that arrive while a commit is in flight share the next commits;
// each still gets its own result (a failed condition fails only its unit,
// after the shared transaction is retried unit by unit), and two units
// writing one item never share a transaction.
func TestTxCombinerSharesCommitsAndKeepsResults(t *testing.T) {
	e := newEnv(t)
	g := &gatedStore{Store: e.st, gate: make(chan struct{})}
	c := newTxCombiner(g)
	put := func(pk string, cond store.Cond) []store.Op {
		return []store.Op{store.PutOp(store.Item{store.AttrPK: pk, store.AttrSK: "X", "v": decimal.NewFromInt(1)}, cond)}
	}
	if err := e.st.Put(e.ctx, store.Item{store.AttrPK: "TXC#taken", store.AttrSK: "X"}, nil); err != nil {
		t.Fatal(err)
	}
	waitFor := func(pending, inflight int) {
		for {
			p, in := c.State()
			if p == pending && in == inflight {
				return
			}
			runtime.Gosched()
		}
	}
	// Two units commit (the combiner's limit in flight), held by the gate;
	// then ten units queue behind them: one fails its condition, and two
	// write the same item.
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i, pk := range []string{"TXC#first", "TXC#second"} {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = c.Do(e.ctx, put(pk, nil)) }()
		waitFor(0, i+1)
	}
	for i := 2; i < 12; i++ {
		ops := put(fmt.Sprintf("TXC#u%d", i), nil)
		switch i {
		case 5:
			ops = put("TXC#taken", store.ItemNotExists())
		case 9:
			ops = put("TXC#u8", nil)
		}
		wg.Add(1)
		go func(i int, ops []store.Op) { defer wg.Done(); errs[i] = c.Do(e.ctx, ops) }(i, ops)
	}
	waitFor(10, maxTxInflight)
	close(g.gate)
	wg.Wait()
	for i, err := range errs {
		if i == 5 {
			if !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("unit 5: %v, want its condition failure", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("unit %d: %v", i, err)
		}
	}
	for _, pk := range []string{"TXC#first", "TXC#second", "TXC#u2", "TXC#u8", "TXC#u11"} {
		if _, err := e.st.Get(e.ctx, store.Key{PK: pk, SK: "X"}); err != nil {
			t.Fatalf("%s: %v", pk, err)
		}
	}
	// 2 single commits, then the 10 queued units in fewer transactions than
	// units even counting the unit-by-unit retry of the failed one.
	g.mu.Lock()
	sizes := append([]int(nil), g.sizes...)
	g.mu.Unlock()
	shared := 0
	for _, n := range sizes {
		if n > 1 {
			shared++
		}
	}
	if shared == 0 || len(sizes) >= 2+10+10 {
		t.Fatalf("transactions %v: the queued units were not combined", sizes)
	}
}
