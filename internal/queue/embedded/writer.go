package embedded

import (
	"encoding/binary"
	"time"

	"github.com/cockroachdb/pebble"

	"tenger/internal/queue"
)

// writeReq is one unit of work for the writer: messages to send to q, or
// messages to move from q to its dead-letter queue.
type writeReq struct {
	q     *Queue
	msgs  []queue.Message
	moves []*msg
	dlq   *Queue
	done  chan error
}

func (r *writeReq) size() int {
	n := 0
	for _, m := range r.msgs {
		n += len(m.Body) + len(m.Group) + 64
	}
	for _, m := range r.moves {
		n += len(m.m.Body) + 64
	}
	return n
}

// submit hands a request to the writer and waits for its commit.
func (db *DB) submit(r *writeReq) error {
	r.done = make(chan error, 1)
	select {
	case db.reqs <- r:
	case <-db.closing:
		return queue.ErrClosed
	}
	select {
	case err := <-r.done:
		return err
	case <-db.done:
		// The writer is gone; it either answered already or never will.
		select {
		case err := <-r.done:
			return err
		default:
			return queue.ErrClosed
		}
	}
}

// writer is the single goroutine that assigns sequence numbers and commits
// sends and dead-letter moves. It drains every request waiting at the moment
// into one Pebble batch and one fsync (group commit), which is what makes
// many small concurrent sends cheap, and it publishes the committed messages
// to the in-memory index in sequence order, so FIFO order is the commit order.
func (db *DB) writer() {
	defer close(db.done)
	lastPrune := db.now()
	for {
		var first *writeReq
		select {
		case first = <-db.reqs:
		case <-db.closing:
			for {
				select {
				case r := <-db.reqs:
					r.done <- queue.ErrClosed
				default:
					return
				}
			}
		}
		batch := []*writeReq{first}
		size := first.size()
	collect:
		for size < db.opts.MaxBatchBytes && len(batch) < 8192 {
			select {
			case r := <-db.reqs:
				batch = append(batch, r)
				size += r.size()
			default:
				break collect
			}
		}
		db.commit(batch)
		if now := db.now(); now.Sub(lastPrune) > 10*time.Second {
			lastPrune = now
			db.pruneDedup(now)
		}
	}
}

type pendingInsert struct {
	q *Queue
	m *msg
}

func (db *DB) commit(reqs []*writeReq) {
	now := db.now()
	nowNano := now.UnixNano()
	b := db.pdb.NewBatch()
	defer b.Close()
	var inserts []pendingInsert
	type dedupEntry struct {
		q      *Queue
		id     string
		expiry int64
	}
	var dedups []dedupEntry
	batchDedup := map[*Queue]map[string]bool{}
	seq := db.seq
	expiry := now.Add(queue.DedupWindow).UnixNano()
	for _, r := range reqs {
		q := r.q
		if len(r.msgs) > 0 {
			q.mu.Lock()
			seen := batchDedup[q]
			for _, m := range r.msgs {
				if m.DedupID != "" {
					if exp, ok := q.dedup[m.DedupID]; (ok && exp > nowNano) || seen[m.DedupID] {
						continue // accepted, not enqueued twice
					}
					if seen == nil {
						seen = map[string]bool{}
						batchDedup[q] = seen
					}
					seen[m.DedupID] = true
					dedups = append(dedups, dedupEntry{q: q, id: m.DedupID, expiry: expiry})
					var v [8]byte
					binary.BigEndian.PutUint64(v[:], uint64(expiry))
					_ = b.Set(dedupKey(q.prefix, m.DedupID), v[:], nil)
				}
				seq++
				_ = b.Set(seqKeyOf(q.prefix, kindMessage, seq), encodeMessage(m, now), nil)
				inserts = append(inserts, pendingInsert{q: q, m: &msg{seq: seq, m: m, sentAt: now}})
			}
			q.mu.Unlock()
		}
		for _, mv := range r.moves {
			_ = b.Delete(seqKeyOf(q.prefix, kindMessage, mv.seq), nil)
			_ = b.Delete(seqKeyOf(q.prefix, kindCount, mv.seq), nil)
			seq++
			// The dead-letter copy keeps group, body, attributes and the
			// original send time; the dedup id is kept for reference but is
			// not registered in the dead-letter queue's window.
			_ = b.Set(seqKeyOf(r.dlq.prefix, kindMessage, seq), encodeMessage(mv.m, mv.sentAt), nil)
			inserts = append(inserts, pendingInsert{q: r.dlq, m: &msg{seq: seq, m: mv.m, sentAt: mv.sentAt}})
		}
	}
	var sv [8]byte
	binary.BigEndian.PutUint64(sv[:], seq)
	_ = b.Set(seqKey, sv[:], nil)
	// A batch of backed messages only (their senders hold durable copies)
	// is answered without waiting for the fsync; the syncer makes it
	// durable soon after, and any synced commit before that does too.
	synced := needsSync(reqs)
	wo := pebble.NoSync
	if synced {
		wo = pebble.Sync
	}
	err := b.Commit(wo)
	if synced {
		db.syncedSends.Add(1)
	} else if err == nil {
		db.syncSoon()
	}
	if err == nil {
		db.seq = seq
		// Publish in sequence order, one lock per run of the same queue.
		for i := 0; i < len(inserts); {
			q := inserts[i].q
			q.mu.Lock()
			for ; i < len(inserts) && inserts[i].q == q; i++ {
				q.insertLocked(inserts[i].m)
			}
			q.wakeLocked()
			q.mu.Unlock()
		}
		for _, d := range dedups {
			d.q.mu.Lock()
			d.q.dedup[d.id] = d.expiry
			d.q.mu.Unlock()
		}
	}
	for _, r := range reqs {
		r.done <- err
	}
}

// needsSync reports whether a commit of reqs must be durable before it is
// answered: it must unless every message in it is Backed (a dead-letter
// move has no other copy).
func needsSync(reqs []*writeReq) bool {
	for _, r := range reqs {
		if len(r.moves) > 0 {
			return true
		}
		for _, m := range r.msgs {
			if !m.Backed {
				return true
			}
		}
	}
	return false
}

// pruneDedup forgets dedup ids whose window has passed.
func (db *DB) pruneDedup(now time.Time) {
	nowNano := now.UnixNano()
	db.mu.Lock()
	qs := make([]*Queue, 0, len(db.queues))
	for _, q := range db.queues {
		qs = append(qs, q)
	}
	db.mu.Unlock()
	b := db.pdb.NewBatch()
	defer b.Close()
	for _, q := range qs {
		q.mu.Lock()
		for id, exp := range q.dedup {
			if exp <= nowNano {
				delete(q.dedup, id)
				_ = b.Delete(dedupKey(q.prefix, id), nil)
			}
		}
		q.mu.Unlock()
	}
	if !b.Empty() {
		if err := b.Commit(pebble.NoSync); err != nil {
			db.log.Warn().Err(err).Msg("queue: pruning dedup ids failed")
		}
	}
}
