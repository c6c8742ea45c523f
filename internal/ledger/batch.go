package ledger

import (
	"context"
	"sync"

	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Batching, in the manner of TigerBeetle: postings that arrive while another
// commit is in flight wait, and the next commit takes them together as ONE
// store transaction. A hot balance (the fee account, a market maker) is then
// written once per batch instead of once per posting, and one fsync
// acknowledges the batch.
//
// Safety: a batch's condition on each balance is "holds at least the sum of
// the batch's debits of it", credits ignored, so every posting would also
// succeed in any serial order. When a batch fails for any reason (a replayed
// id, a short balance, an extra's condition), its postings are committed one
// by one, which gives each its exact result. There is no background
// goroutine: the first waiting caller leads the next batch.

// maxBatchOps keeps a batch inside one store transaction.
const maxBatchOps = store.MaxTransactItems

// maxInflight is how many batches may be committing at once. The embedded
// store releases its key locks before the fsync and shares one fsync among
// the writers waiting for it, so a second batch can be applied while the
// first waits for the disk; with one batch at a time the ledger waited for
// every fsync in turn and left a core idle. DynamoDB runs the transactions
// in parallel. Batches in flight together are independent store
// transactions, each with its own conditions, so the safety argument above
// holds for each of them.
const maxInflight = 2

type batchReq struct {
	p    Posting
	res  Result
	err  error
	done bool          // guarded by batcher.mu
	poke chan struct{} // capacity 1: "done, or a batch slot may be free"
}

type batcher struct {
	mu       sync.Mutex
	pending  []*batchReq
	inflight int
}

func (b *batcher) post(ctx context.Context, l *Ledger, p Posting) (Result, error) {
	r := &batchReq{p: p, poke: make(chan struct{}, 1)}
	b.mu.Lock()
	b.pending = append(b.pending, r)
	for !r.done {
		if b.inflight < maxInflight && len(b.pending) > 0 {
			b.inflight++
			batch := b.take()
			b.mu.Unlock()
			results := l.commitBatch(context.WithoutCancel(ctx), batch)
			b.mu.Lock()
			b.inflight--
			for i, q := range batch {
				q.res, q.err, q.done = results[i].res, results[i].err, true
				if q != r {
					poke(q)
				}
			}
			continue
		}
		b.mu.Unlock()
		<-r.poke
		b.mu.Lock()
	}
	// Hand a free slot to the oldest waiter, if any, so no caller serves
	// others indefinitely and nobody waits for a leader that left.
	if len(b.pending) > 0 && b.inflight < maxInflight {
		poke(b.pending[0])
	}
	b.mu.Unlock()
	return r.res, r.err
}

func poke(r *batchReq) {
	select {
	case r.poke <- struct{}{}:
	default:
	}
}

// take removes the longest prefix of pending postings that fits one store
// transaction with no item written twice. Called with mu held and pending
// not empty.
func (b *batcher) take() []*batchReq {
	keys := map[store.Key]bool{}
	ops := 0
	n := 0
	for _, r := range b.pending {
		own := 1 + len(r.p.Extra) + 2*len(r.p.Legs)
		clash := keys[store.Key{PK: "POST#" + r.p.ID, SK: "POST"}]
		for _, x := range r.p.Extra {
			clash = clash || keys[x.Key]
		}
		if n > 0 && (clash || ops+own > maxBatchOps) {
			break
		}
		keys[store.Key{PK: "POST#" + r.p.ID, SK: "POST"}] = true
		for _, x := range r.p.Extra {
			keys[x.Key] = true
		}
		ops += own
		n++
	}
	batch := append([]*batchReq(nil), b.pending[:n]...)
	b.pending = append(b.pending[:0], b.pending[n:]...)
	return batch
}

type outcome struct {
	res Result
	err error
}

// commitBatch commits the batch as one transaction, or posting by posting
// when that fails or a single posting is all there is.
func (l *Ledger) commitBatch(ctx context.Context, batch []*batchReq) []outcome {
	out := make([]outcome, len(batch))
	if len(batch) > 1 {
		if ops, ok := l.buildBatch(batch); ok {
			if err := l.st.Transact(ctx, ops); err == nil {
				l.known.addOps(ops)
				return out
			}
		}
	}
	for i, r := range batch {
		out[i].res, out[i].err = l.postOne(ctx, r.p)
	}
	return out
}

// buildBatch builds the combined transaction: every posting's record and
// extras, and one update per balance carrying the sum of the batch's deltas
// with a condition on the sum of its debits.
func (l *Ledger) buildBatch(batch []*batchReq) ([]store.Op, bool) {
	type agg struct {
		d                delta
		debitAv, debitFr decimal.Decimal
	}
	bal := map[string]*agg{}
	var order []string
	var ops []store.Op
	for _, r := range batch {
		rec, err := l.record(r.p)
		if err != nil {
			return nil, false // invalid postings get their error one by one
		}
		ops = append(ops, rec)
		ops = append(ops, r.p.Extra...)
		for _, d := range mergeLegs(r.p.Legs) {
			k := d.pk + "|" + d.sk
			a := bal[k]
			if a == nil {
				a = &agg{d: delta{acct: d.acct, coin: d.coin, pk: d.pk, sk: d.sk}}
				bal[k] = a
				order = append(order, k)
			}
			a.d.avail = a.d.avail.Add(d.avail)
			a.d.frozen = a.d.frozen.Add(d.frozen)
			if d.avail.IsNegative() {
				a.debitAv = a.debitAv.Add(d.avail.Neg())
			}
			if d.frozen.IsNegative() {
				a.debitFr = a.debitFr.Add(d.frozen.Neg())
			}
		}
	}
	for _, k := range order {
		a := bal[k]
		if a.d.avail.IsZero() && a.d.frozen.IsZero() && a.debitAv.IsZero() && a.debitFr.IsZero() {
			continue
		}
		ops = append(ops, balanceOp(a.d, a.debitAv, a.debitFr, l.known.has(a.d.pk, a.d.sk)))
	}
	return ops, len(ops) <= store.MaxTransactItems
}
