package embedded

import (
	"container/heap"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"

	"tenger/internal/queue"
)

// Queue is one named FIFO queue of a DB. It implements queue.Queue.
type Queue struct {
	db     *DB
	name   string
	prefix []byte
	// epoch differs on every open, so receipts from before a restart are
	// recognised as stale.
	epoch string

	mu          sync.Mutex
	closed      bool
	maxReceives int
	dlq         *Queue
	groups      map[string]*group
	ready       []*group // groups that may deliver now, oldest first
	bySeq       map[uint64]*msg
	expiry      expiryHeap
	dedup       map[string]int64 // dedup id → window end, Unix ns
	inFlight    int
	wake        chan struct{}
	waiters     int
}

var _ queue.Queue = (*Queue)(nil)

type msg struct {
	seq      uint64
	g        *group
	m        queue.Message
	sentAt   time.Time
	count    int
	gen      uint64
	inflight bool
	deadline int64 // Unix ns, meaningful while inflight
}

type group struct {
	name     string
	msgs     []*msg // undeleted messages in sequence order
	inflight int
	ready    bool
}

type expiryEntry struct {
	deadline int64
	gen      uint64
	m        *msg
}

type expiryHeap []expiryEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].deadline < h[j].deadline }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiryEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func newEpoch() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func loadQueue(db *DB, name string) (*Queue, error) {
	q := &Queue{
		db:     db,
		name:   name,
		prefix: queuePrefix(name),
		epoch:  newEpoch(),
		groups: map[string]*group{},
		bySeq:  map[uint64]*msg{},
		dedup:  map[string]int64{},
		wake:   make(chan struct{}),
	}
	it, err := db.pdb.NewIter(&pebble.IterOptions{LowerBound: q.prefix, UpperBound: upperBound(q.prefix)})
	if err != nil {
		return nil, fmt.Errorf("queue/embedded: load %s: %w", name, err)
	}
	defer it.Close()
	nowNano := db.now().UnixNano()
	var orphans [][]byte
	// Count keys sort before message keys ('c' < 'm'), so they are matched
	// to their messages after the scan.
	counts := map[uint64]uint64{}
	countKeys := map[uint64][]byte{}
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()[len(q.prefix):]
		if len(k) == 0 {
			continue
		}
		switch k[0] {
		case kindMessage:
			if len(k) != 9 {
				continue
			}
			m, sent, err := decodeMessage(it.Value())
			if err != nil {
				return nil, fmt.Errorf("queue/embedded: load %s: %w", name, err)
			}
			q.insertLocked(&msg{seq: binary.BigEndian.Uint64(k[1:]), m: m, sentAt: sent})
		case kindCount:
			if len(k) != 9 {
				continue
			}
			seq := binary.BigEndian.Uint64(k[1:])
			n, _ := binary.Uvarint(it.Value())
			counts[seq] = n
			countKeys[seq] = append([]byte(nil), it.Key()...)
		case kindDedup:
			if v := it.Value(); len(v) == 8 {
				if exp := int64(binary.BigEndian.Uint64(v)); exp > nowNano {
					q.dedup[string(k[1:])] = exp
				}
			}
		}
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("queue/embedded: load %s: %w", name, err)
	}
	for seq, n := range counts {
		if m, ok := q.bySeq[seq]; ok {
			m.count = int(n)
		} else {
			// A count written by a receive that raced a delete.
			orphans = append(orphans, countKeys[seq])
		}
	}
	if len(orphans) > 0 {
		b := db.pdb.NewBatch()
		for _, k := range orphans {
			_ = b.Delete(k, nil)
		}
		_ = b.Commit(pebble.NoSync)
		_ = b.Close()
	}
	return q, nil
}

// Name returns the queue's name.
func (q *Queue) Name() string { return q.name }

// Stats is a snapshot of a queue's size.
type Stats struct {
	// Messages not deleted, in flight or not.
	Messages int
	// InFlight messages (received, not deleted, visibility not over).
	InFlight int
	// Groups with at least one message.
	Groups int
}

// Stats returns the queue's current size.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return Stats{Messages: len(q.bySeq), InFlight: q.inFlight, Groups: len(q.groups)}
}

// Send implements queue.Queue.
func (q *Queue) Send(ctx context.Context, m queue.Message) error {
	return q.SendBatch(ctx, []queue.Message{m})
}

// SendBatch implements queue.Queue: all messages commit in one batch.
func (q *Queue) SendBatch(ctx context.Context, ms []queue.Message) error {
	if len(ms) == 0 {
		return nil
	}
	for _, m := range ms {
		if err := m.Validate(); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return q.db.submit(&writeReq{q: q, msgs: ms})
}

// Receive implements queue.Queue.
func (q *Queue) Receive(ctx context.Context, max int, visibility, wait time.Duration) ([]queue.Delivery, error) {
	if max <= 0 || visibility < 0 || wait < 0 {
		return nil, fmt.Errorf("%w: max must be positive and durations not negative", queue.ErrInvalid)
	}
	end := time.Now().Add(wait)
	for {
		out, moves, next, wake, err := q.receiveOnce(max, visibility)
		if err != nil {
			return nil, err
		}
		if len(moves) > 0 {
			if err := q.deadLetter(moves); err != nil {
				q.stopWaiting(wake)
				return nil, err
			}
			if len(out) == 0 {
				q.stopWaiting(wake)
				continue // the moved messages may have unblocked their groups
			}
		}
		if len(out) > 0 {
			return out, nil
		}
		now := time.Now()
		remaining := end.Sub(now)
		if remaining <= 0 {
			q.stopWaiting(wake)
			return nil, nil
		}
		if next > 0 {
			if d := time.Duration(next - now.UnixNano()); d < remaining {
				remaining = d
				if remaining < 0 {
					remaining = 0
				}
			}
		}
		t := time.NewTimer(remaining)
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			q.stopWaiting(wake)
			return nil, ctx.Err()
		}
		t.Stop()
		q.stopWaiting(wake)
	}
}

func (q *Queue) stopWaiting(wake chan struct{}) {
	if wake == nil {
		return
	}
	q.mu.Lock()
	q.waiters--
	q.mu.Unlock()
}

// receiveOnce delivers what is visible now. When it delivers nothing it
// registers the caller as a waiter and returns the channel that is closed
// when something becomes visible, and the earliest visibility deadline.
func (q *Queue) receiveOnce(max int, visibility time.Duration) (out []queue.Delivery, moves []*msg, next int64, wake chan struct{}, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil, nil, 0, nil, queue.ErrClosed
	}
	now := time.Now().UnixNano()
	moves = q.expireLocked(now)
	deadline := now + int64(visibility)
	var counts *pebble.Batch
	for len(out) < max && len(q.ready) > 0 {
		g := q.ready[0]
		q.ready[0] = nil
		q.ready = q.ready[1:]
		g.ready = false
		if g.inflight > 0 || len(g.msgs) == 0 {
			continue
		}
		// Every message of a group with nothing in flight is visible; hand
		// out a run from its head, as SQS returns several messages of one
		// group in order.
		for _, m := range g.msgs {
			if len(out) >= max {
				break
			}
			m.count++
			m.gen++
			m.inflight = true
			m.deadline = deadline
			g.inflight++
			q.inFlight++
			heap.Push(&q.expiry, expiryEntry{deadline: deadline, gen: m.gen, m: m})
			out = append(out, queue.Delivery{
				Message:       m.m,
				ID:            strconv.FormatUint(m.seq, 10),
				ReceiptHandle: receipt{epoch: q.epoch, seq: m.seq, gen: m.gen}.String(),
				ReceiveCount:  m.count,
				SentAt:        m.sentAt,
			})
			if counts == nil {
				counts = q.db.pdb.NewBatch()
			}
			_ = counts.Set(seqKeyOf(q.prefix, kindCount, m.seq), binary.AppendUvarint(nil, uint64(m.count)), nil)
		}
	}
	if counts != nil {
		// Written under the lock so a later Delete's removal of the count
		// is ordered after it. Not fsynced: see the package doc.
		if err := counts.Commit(pebble.NoSync); err != nil {
			q.db.log.Warn().Err(err).Str("queue", q.name).Msg("queue: persisting receive counts failed")
		}
		q.db.syncSoon()
		_ = counts.Close()
	}
	if len(out) == 0 && len(moves) == 0 {
		q.waiters++
		wake = q.wake
		if len(q.expiry) > 0 {
			next = q.expiry[0].deadline
		}
	}
	return out, moves, next, wake, nil
}

// expireLocked makes messages whose visibility has ended visible again and
// returns those that have used up their receives (already removed from this
// queue's index) for the caller to move to the dead-letter queue.
func (q *Queue) expireLocked(now int64) (moves []*msg) {
	for len(q.expiry) > 0 && q.expiry[0].deadline <= now {
		e := heap.Pop(&q.expiry).(expiryEntry)
		m := e.m
		if !m.inflight || m.gen != e.gen || m.deadline != e.deadline {
			continue // deleted, or its visibility was changed since
		}
		if mv := q.makeVisibleLocked(m); mv != nil {
			moves = append(moves, mv)
		}
	}
	return moves
}

// compactExpiryLocked drops stale heap entries (of deleted messages or
// superseded deadlines) once they outnumber the live ones, so a busy queue
// with a long visibility timeout does not keep every acknowledged message
// reachable until its old deadline.
func (q *Queue) compactExpiryLocked() {
	if len(q.expiry) < 1024 || len(q.expiry) < 4*q.inFlight {
		return
	}
	live := q.expiry[:0]
	for _, e := range q.expiry {
		if e.m.inflight && e.m.gen == e.gen && e.m.deadline == e.deadline {
			live = append(live, e)
		}
	}
	for i := len(live); i < len(q.expiry); i++ {
		q.expiry[i] = expiryEntry{}
	}
	q.expiry = live
	heap.Init(&q.expiry)
}

// makeVisibleLocked ends m's flight. It returns m when m must go to the
// dead-letter queue instead (and removes it from the index).
func (q *Queue) makeVisibleLocked(m *msg) *msg {
	m.inflight = false
	m.g.inflight--
	q.inFlight--
	g := m.g
	var moved *msg
	if q.maxReceives > 0 && q.dlq != nil && m.count >= q.maxReceives {
		q.removeLocked(m)
		moved = m
	}
	if g.inflight == 0 && len(g.msgs) > 0 {
		q.markReadyLocked(g)
	}
	return moved
}

// collectExhaustedLocked removes the visible messages that have used up
// their receives (after a restart or a lowered MaxReceives).
func (q *Queue) collectExhaustedLocked() (moves []*msg) {
	if q.maxReceives <= 0 || q.dlq == nil {
		return nil
	}
	var all []*msg
	for _, m := range q.bySeq {
		if !m.inflight && m.count >= q.maxReceives {
			all = append(all, m)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	for _, m := range all {
		g := m.g
		q.removeLocked(m)
		if g.inflight == 0 && len(g.msgs) > 0 {
			q.markReadyLocked(g)
		}
	}
	return all
}

// deadLetter moves messages (already out of this queue's index) to the
// dead-letter queue in one durable batch.
func (q *Queue) deadLetter(moves []*msg) error {
	if len(moves) == 0 {
		return nil
	}
	q.mu.Lock()
	dlq := q.dlq
	q.mu.Unlock()
	err := q.db.submit(&writeReq{q: q, moves: moves, dlq: dlq})
	if err != nil {
		// Still stored in this queue: the move happens again on the next open.
		q.db.log.Warn().Err(err).Str("queue", q.name).Int("messages", len(moves)).Msg("queue: dead-letter move failed")
	}
	return err
}

func (q *Queue) insertLocked(m *msg) {
	g := q.groups[m.m.Group]
	if g == nil {
		g = &group{name: m.m.Group}
		q.groups[m.m.Group] = g
	}
	m.g = g
	g.msgs = append(g.msgs, m)
	q.bySeq[m.seq] = m
	if g.inflight == 0 {
		q.markReadyLocked(g)
	}
}

func (q *Queue) removeLocked(m *msg) {
	g := m.g
	i := sort.Search(len(g.msgs), func(i int) bool { return g.msgs[i].seq >= m.seq })
	if i < len(g.msgs) && g.msgs[i] == m {
		if i == 0 {
			g.msgs[0] = nil
			g.msgs = g.msgs[1:]
		} else {
			g.msgs = append(g.msgs[:i], g.msgs[i+1:]...)
		}
	}
	delete(q.bySeq, m.seq)
	if len(g.msgs) == 0 && g.inflight == 0 && q.groups[g.name] == g {
		delete(q.groups, g.name)
	}
}

func (q *Queue) markReadyLocked(g *group) {
	if !g.ready {
		g.ready = true
		q.ready = append(q.ready, g)
	}
}

// wakeLocked wakes long-polling receivers, if any.
func (q *Queue) wakeLocked() {
	if q.waiters > 0 {
		close(q.wake)
		q.wake = make(chan struct{})
	}
}

func (q *Queue) lookupLocked(receiptHandle string) (*msg, receipt, error) {
	r, err := parseReceipt(receiptHandle)
	if err != nil {
		return nil, r, err
	}
	if r.epoch != q.epoch {
		return nil, r, fmt.Errorf("%w: receipt from another queue or an earlier run", queue.ErrInvalidReceipt)
	}
	return q.bySeq[r.seq], r, nil
}

// Delete implements queue.Queue. Any receipt of the message deletes it, as
// a consumer whose visibility ran out may still finish first; deleting a
// message that is gone is not an error.
func (q *Queue) Delete(ctx context.Context, receiptHandle string) error {
	errs, err := q.deleteAll(ctx, []string{receiptHandle})
	if err != nil {
		return err
	}
	return errs[0]
}

// DeleteBatch implements queue.Queue: the receipts are deleted as Delete
// deletes one, under one lock and in one write (not fsynced either, see the
// package doc). An invalid receipt fails only its entry.
func (q *Queue) DeleteBatch(ctx context.Context, receiptHandles []string) error {
	if len(receiptHandles) == 0 {
		return ctx.Err()
	}
	errs, err := q.deleteAll(ctx, receiptHandles)
	if err != nil {
		return err
	}
	var failed []queue.BatchFailure
	for i, e := range errs {
		if e != nil {
			failed = append(failed, queue.BatchFailure{Index: i, Err: e})
		}
	}
	if len(failed) > 0 {
		return &queue.BatchError{Op: "delete batch", Total: len(receiptHandles), Failed: failed}
	}
	return nil
}

// deleteAll deletes the messages the receipts name and returns each
// receipt's error (a malformed or foreign receipt), or an error of the
// whole call (closed queue, cancelled context, failed write).
func (q *Queue) deleteAll(ctx context.Context, receiptHandles []string) ([]error, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return nil, queue.ErrClosed
	}
	errs := make([]error, len(receiptHandles))
	var b *pebble.Batch
	wake := false
	for i, rh := range receiptHandles {
		m, r, err := q.lookupLocked(rh)
		if err != nil {
			errs[i] = err
			continue
		}
		if m == nil {
			continue
		}
		g := m.g
		if m.inflight {
			m.inflight = false
			g.inflight--
			q.inFlight--
		}
		q.removeLocked(m)
		if g.inflight == 0 && len(g.msgs) > 0 {
			q.markReadyLocked(g)
			wake = true
		}
		if b == nil {
			b = q.db.pdb.NewBatch()
		}
		_ = b.Delete(seqKeyOf(q.prefix, kindMessage, r.seq), nil)
		_ = b.Delete(seqKeyOf(q.prefix, kindCount, r.seq), nil)
	}
	if wake {
		q.wakeLocked()
	}
	q.compactExpiryLocked()
	if b == nil {
		return errs, nil
	}
	defer b.Close()
	// Not fsynced here: the syncer makes it durable moments later, and a
	// delete lost in between only means a redelivery (package doc).
	if err := b.Commit(pebble.NoSync); err != nil {
		return nil, err
	}
	q.db.syncSoon()
	return errs, nil
}

// ChangeVisibility implements queue.Queue.
func (q *Queue) ChangeVisibility(ctx context.Context, receiptHandle string, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("%w: negative visibility", queue.ErrInvalid)
	}
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return queue.ErrClosed
	}
	now := time.Now().UnixNano()
	moves := q.expireLocked(now)
	m, r, err := q.lookupLocked(receiptHandle)
	if err == nil && (m == nil || !m.inflight || m.gen != r.gen) {
		err = fmt.Errorf("%w: message is not in flight under this receipt", queue.ErrInvalidReceipt)
	}
	if err == nil {
		if d == 0 {
			if mv := q.makeVisibleLocked(m); mv != nil {
				moves = append(moves, mv)
			}
			q.wakeLocked()
		} else {
			m.deadline = now + int64(d)
			heap.Push(&q.expiry, expiryEntry{deadline: m.deadline, gen: m.gen, m: m})
			// A long-polling receiver may be sleeping until the old deadline;
			// it re-reads the earliest deadline when woken.
			q.wakeLocked()
		}
	}
	q.mu.Unlock()
	if derr := q.deadLetter(moves); derr != nil && err == nil {
		err = derr
	}
	return err
}
