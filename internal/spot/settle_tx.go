package spot

import (
	"context"
	"sync"

	"tenger/internal/store"
)

// txCombiner commits settlement's plain transactions (an order's
// acceptance, an order's end that releases nothing) together: the jobs of a
// batch run concurrently, and the writes that arrive while one commit is in
// flight go into the next commit as ONE store transaction, as the ledger
// does with postings. Without it every order cost a store transaction of
// its own for these two items, most of a batch's commits.
//
// A combined transaction that fails (a condition of one unit, e.g. the end
// of an order that a replay already ended) is retried unit by unit, so
// each unit gets exactly the result it would have had alone. Units never
// share an item within one commit (the store refuses that), so a unit that
// touches an item already taken waits for the next commit.
type txCombiner struct {
	mu       sync.Mutex
	pending  []*txUnit
	inflight int
}

// maxTxInflight matches the ledger: one commit can be applied while the
// previous one waits for its fsync.
const maxTxInflight = 2

type txUnit struct {
	ops  []store.Op
	err  error
	done bool          // guarded by txCombiner.mu
	poke chan struct{} // capacity 1: "done, or a commit slot may be free"
}

// do commits ops atomically, possibly in one transaction with other units.
func (c *txCombiner) do(ctx context.Context, st store.Store, ops []store.Op) error {
	u := &txUnit{ops: ops, poke: make(chan struct{}, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, u)
	for !u.done {
		if c.inflight < maxTxInflight && len(c.pending) > 0 {
			c.inflight++
			batch := c.take()
			c.mu.Unlock()
			errs := commitUnits(context.WithoutCancel(ctx), st, batch)
			c.mu.Lock()
			c.inflight--
			for i, x := range batch {
				x.err, x.done = errs[i], true
				if x != u {
					pokeUnit(x)
				}
			}
			continue
		}
		c.mu.Unlock()
		<-u.poke
		c.mu.Lock()
	}
	// Hand a free slot to the oldest waiter so nobody waits for a leader
	// that left.
	if len(c.pending) > 0 && c.inflight < maxTxInflight {
		pokeUnit(c.pending[0])
	}
	c.mu.Unlock()
	return u.err
}

func pokeUnit(u *txUnit) {
	select {
	case u.poke <- struct{}{}:
	default:
	}
}

// take removes the longest prefix of pending units that fits one
// transaction with no item written twice. Called with mu held; pending is
// not empty.
func (c *txCombiner) take() []*txUnit {
	keys := make(map[store.Key]bool, 16)
	n, ops := 0, 0
	for _, u := range c.pending {
		clash := false
		for _, op := range u.ops {
			clash = clash || keys[opKey(op)]
		}
		if n > 0 && (clash || ops+len(u.ops) > store.MaxTransactItems) {
			break
		}
		for _, op := range u.ops {
			keys[opKey(op)] = true
		}
		ops += len(u.ops)
		n++
	}
	batch := append([]*txUnit(nil), c.pending[:n]...)
	c.pending = append(c.pending[:0], c.pending[n:]...)
	return batch
}

// opKey is the item an operation writes (a put names it in its item).
func opKey(op store.Op) store.Key {
	if op.Kind == store.OpPut && op.Key == (store.Key{}) {
		return op.Item.Key()
	}
	return op.Key
}

// commitUnits runs the batch as one transaction, or unit by unit when that
// fails or there is only one.
func commitUnits(ctx context.Context, st store.Store, batch []*txUnit) []error {
	errs := make([]error, len(batch))
	if len(batch) > 1 {
		var all []store.Op
		for _, u := range batch {
			all = append(all, u.ops...)
		}
		if st.Transact(ctx, all) == nil {
			return errs
		}
	}
	for i, u := range batch {
		errs[i] = st.Transact(ctx, u.ops)
	}
	return errs
}
