package embedded

import (
	"sync"
	"sync/atomic"
)

// sequencer hands out change-feed sequence numbers and keeps the durable
// watermark: the highest sequence at or below which every change is durable
// (or was never written, a hole left by a failed commit).
//
// Writers reserve their sequences before they hand their batch to Pebble,
// without holding any lock across the commit, so Pebble applies concurrent
// batches to its memtable in parallel. Two writers of one key are ordered by
// the key's lock, so one key's changes always carry rising sequences; writers
// of different keys may reach the WAL in another order than their sequences.
// That is why the watermark only advances over a contiguous run of completed
// reservations: a reader of the feed up to the watermark never skips a
// change that becomes visible later.
type sequencer struct {
	mu      sync.Mutex
	last    uint64            // last reserved; guarded by mu
	pending map[uint64]uint64 // completed reservations above the watermark: first → last
	durable atomic.Uint64     // the watermark; written under mu, read without
}

func (q *sequencer) init(last uint64) {
	q.last = last
	q.durable.Store(last)
}

// reserve returns n consecutive sequences, first to last.
func (q *sequencer) reserve(n int) (first, last uint64) {
	q.mu.Lock()
	first = q.last + 1
	q.last += uint64(n)
	last = q.last
	q.mu.Unlock()
	return first, last
}

// reserved returns the last reserved sequence.
func (q *sequencer) reserved() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.last
}

// complete marks the reservation first..last as finished: durable, or
// abandoned because its commit failed.
func (q *sequencer) complete(first, last uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	d := q.durable.Load()
	if first != d+1 {
		if q.pending == nil {
			q.pending = make(map[uint64]uint64)
		}
		q.pending[first] = last
		return
	}
	d = last
	for {
		l, ok := q.pending[d+1]
		if !ok {
			break
		}
		delete(q.pending, d+1)
		d = l
	}
	q.durable.Store(d)
}
