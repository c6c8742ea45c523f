package spot

import (
	"context"

	"tenger/internal/combine"
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
type txCombiner = combine.Combiner[[]store.Op, error]

// maxTxInflight bounds the commits applied at once. On the embedded store a
// combined commit frees its slot before waiting for its fsync (see
// commitUnits), so the slots bound CPU work, not disk waits; on DynamoDB
// they let two transactions overlap.
const maxTxInflight = 2

// newTxCombiner returns the combiner of settlement's transactions on st.
func newTxCombiner(st store.Store) *txCombiner {
	return &txCombiner{Max: maxTxInflight, Take: takeUnits,
		Commit: func(ctx context.Context, units [][]store.Op) ([]error, func()) { return commitUnits(ctx, st, units) }}
}

// takeUnits returns how many of the pending units, a prefix, fit one
// transaction with no item written twice.
func takeUnits(pending [][]store.Op) int {
	return combine.Prefix(pending, store.MaxTransactItems,
		func(u []store.Op) int { return len(u) },
		func(u []store.Op) []store.Key {
			ks := make([]store.Key, len(u))
			for i, op := range u {
				ks[i] = opKey(op)
			}
			return ks
		})
}

// opKey is the item an operation writes (a put names it in its item).
func opKey(op store.Op) store.Key {
	if op.Kind == store.OpPut && op.Key == (store.Key{}) {
		return op.Item.Key()
	}
	return op.Key
}

// commitUnits runs the batch as one transaction, or unit by unit when that
// fails or there is only one. On a pipelined store the combined
// transaction's fsync is waited for after the slot is freed (the returned
// wait), as the ledger does.
func commitUnits(ctx context.Context, st store.Store, batch [][]store.Op) ([]error, func()) {
	errs := make([]error, len(batch))
	if len(batch) > 1 {
		var all []store.Op
		for _, u := range batch {
			all = append(all, u...)
		}
		if durable, err := store.TransactApplied(ctx, st, all); err == nil {
			return errs, func() {
				if err := durable(); err != nil {
					for i := range errs {
						errs[i] = err
					}
				}
			}
		}
	}
	for i, u := range batch {
		errs[i] = st.Transact(ctx, u)
	}
	return errs, nil
}
