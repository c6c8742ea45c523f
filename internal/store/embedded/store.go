package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/store"
)

// Defaults of Options.
const (
	DefaultSweepInterval = 30 * time.Second
	DefaultFeedRetention = 24 * time.Hour
	defaultCacheSize     = 256 << 20
	numStripes           = 16384
)

// Options tune the store. The zero value is a sensible configuration.
type Options struct {
	// SweepInterval is how often the background sweeper deletes expired
	// items and prunes old feed records: 0 means DefaultSweepInterval, a
	// negative value disables the sweeper (SweepExpired still works).
	SweepInterval time.Duration
	// FeedRetention is how long change records are kept: 0 means
	// DefaultFeedRetention.
	FeedRetention time.Duration
	// CacheSize is Pebble's block cache in bytes: 0 means 256 MiB. Pebble
	// charges its memtables (32 MiB each, two or three at a time) to this
	// budget, so it must be well above their size: at 64 MiB the memtables
	// took all of it and no block was ever cached.
	CacheSize int64
	// Logger receives background errors and Pebble's messages; nil discards them.
	Logger *zerolog.Logger
}

// Store is the embedded implementation of store.Store.
type Store struct {
	db   *pebble.DB
	opts Options
	log  zerolog.Logger

	// closeMu is held shared by every operation and exclusively by Close,
	// so Close waits for in-flight operations and later ones see closed.
	closeMu sync.RWMutex
	closed  bool
	// applied counts transactions handed back by TransactApplied whose
	// durable has not returned; Close waits for them.
	applied sync.WaitGroup

	stripes [numStripes]stripe

	seqs sequencer // change-feed sequences and the durable watermark
	// reservedHook, when set (tests only), runs between a writer's sequence
	// reservation and its commit.
	reservedHook func(first uint64)

	stopSweep chan struct{}
	sweepDone sync.WaitGroup
}

// stripe is one of the striped key locks. It also caches the latest
// committed state of a few recently written keys of the stripe, so the
// read-validate step of hot keys (account balances) skips Pebble. The cache
// is only read and written under the stripe's lock, and every write of a key
// holds that lock, so it is always current.
type stripe struct {
	sync.Mutex
	cache map[store.Key]cachedItem
	_     [48]byte // keep stripes on separate cache lines
}

// cachedItem is the committed state of a key; item == nil means absent.
type cachedItem struct {
	item store.Item
	raw  []byte
}

// stripeCacheSize bounds each stripe's cache (16384 stripes × 4 keys).
const stripeCacheSize = 4

func (st *stripe) remember(k store.Key, c cachedItem) {
	if st.cache == nil {
		st.cache = make(map[store.Key]cachedItem, stripeCacheSize)
	}
	if _, ok := st.cache[k]; !ok && len(st.cache) >= stripeCacheSize {
		for old := range st.cache { // evict an arbitrary entry
			delete(st.cache, old)
			break
		}
	}
	st.cache[k] = c
}

var _ store.Store = (*Store)(nil)

// Open opens (creating when needed) the store in dir. Pebble replays its
// write-ahead log, so every write acknowledged before a crash is present.
func Open(dir string, opts Options) (*Store, error) {
	if opts.SweepInterval == 0 {
		opts.SweepInterval = DefaultSweepInterval
	}
	if opts.FeedRetention <= 0 {
		opts.FeedRetention = DefaultFeedRetention
	}
	if opts.CacheSize <= 0 {
		opts.CacheSize = defaultCacheSize
	}
	log := zerolog.Nop()
	if opts.Logger != nil {
		log = opts.Logger.With().Str("component", "store/embedded").Logger()
	}
	cache := pebble.NewCache(opts.CacheSize)
	defer cache.Unref()
	db, err := pebble.Open(dir, &pebble.Options{
		Cache:              cache,
		FormatMajorVersion: pebble.FormatNewest,
		MemTableSize:       32 << 20,
		Logger:             pebbleLogger{log},
		// Bloom filters on every level: conditional puts of new ids (posting
		// records, orders, idempotency keys) read keys that do not exist, and
		// without a filter each such read searches the sstables block by block.
		Levels: bloomLevels(),
	})
	if err != nil {
		return nil, fmt.Errorf("embedded: open %s: %w", dir, err)
	}
	s := &Store{db: db, opts: opts, log: log, stopSweep: make(chan struct{})}
	last, err := s.lastSequence()
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	s.seqs.init(last)
	if opts.SweepInterval > 0 {
		s.sweepDone.Add(1)
		go s.sweepLoop(opts.SweepInterval)
	}
	return s, nil
}

// bloomLevels returns the level options of Pebble's seven levels, each
// with a 10-bit-per-key bloom filter (about 1% false positives).
func bloomLevels() []pebble.LevelOptions {
	lv := make([]pebble.LevelOptions, 7)
	for i := range lv {
		lv[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	return lv
}

// lastSequence finds the highest feed sequence ever assigned: the last feed
// record, or the pruning watermark when every record has been pruned.
func (s *Store) lastSequence() (uint64, error) {
	var last uint64
	v, closer, err := s.db.Get(metaPruned)
	switch {
	case err == nil:
		if len(v) == 8 {
			last = binary.BigEndian.Uint64(v)
		}
		closer.Close()
	case !errors.Is(err, pebble.ErrNotFound):
		return 0, fmt.Errorf("embedded: read feed watermark: %w", err)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{nsFeed}, UpperBound: []byte{nsFeed + 1}})
	if err != nil {
		return 0, err
	}
	if it.Last() && len(it.Key()) == 9 {
		err := forEachRecord(binary.BigEndian.Uint64(it.Key()[1:]), it.Value(), func(seq uint64, _ []byte) error {
			last = max(last, seq)
			return nil
		})
		if err != nil {
			_ = it.Close()
			return 0, fmt.Errorf("embedded: last feed record: %w", err)
		}
	}
	return last, it.Close()
}

// Close stops the sweeper, waits for in-flight operations and closes Pebble.
// Every acknowledged write is already durable.
func (s *Store) Close() error {
	s.closeMu.Lock()
	if s.closed {
		s.closeMu.Unlock()
		return store.ErrClosed
	}
	s.closed = true
	close(s.stopSweep)
	s.closeMu.Unlock()
	// The sweeper takes closeMu shared per sweep; it sees closed and exits.
	s.sweepDone.Wait()
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	s.applied.Wait()
	return s.db.Close()
}

// enter marks the start of an operation; it fails once the store is closed.
// The caller must call s.closeMu.RUnlock when done.
func (s *Store) enter(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return store.ErrClosed
	}
	return nil
}

// Get reads one item.
func (s *Store) Get(ctx context.Context, k store.Key) (store.Item, error) {
	if err := store.ValidateKey(k); err != nil {
		return nil, err
	}
	if err := s.enter(ctx); err != nil {
		return nil, err
	}
	defer s.closeMu.RUnlock()
	it, _, err := s.read(s.db, itemKey(nil, k), k)
	if err != nil {
		return nil, err
	}
	if it == nil {
		return nil, store.ErrNotFound
	}
	return it, nil
}

type reader interface {
	Get(key []byte) ([]byte, io.Closer, error)
}

// read returns the decoded item under k (whose Pebble key is key) and its
// raw encoding, or nil, nil when absent.
func (s *Store) read(r reader, key []byte, k store.Key) (store.Item, []byte, error) {
	v, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("embedded: read: %w", err)
	}
	raw := bytes.Clone(v)
	closer.Close()
	it, err := decodeItem(raw, k)
	if err != nil {
		return nil, nil, err
	}
	return it, raw, nil
}

// Put writes a whole item if cond holds.
func (s *Store) Put(ctx context.Context, item store.Item, cond store.Cond) error {
	op, err := prepareOp(store.Op{Kind: store.OpPut, Item: item, Cond: cond})
	if err != nil {
		return err
	}
	_, err = s.write(ctx, []writeOp{op}, false)
	return err
}

// Update applies upd to the item under key if cond holds (creating the item
// when missing) and returns the item after the update.
func (s *Store) Update(ctx context.Context, k store.Key, upd *store.Update, cond store.Cond) (store.Item, error) {
	op, err := prepareOp(store.Op{Kind: store.OpUpdate, Key: k, Update: upd, Cond: cond})
	if err != nil {
		return nil, err
	}
	it, err := s.write(ctx, []writeOp{op}, false)
	// The store keeps the new item in its cache: hand out a copy.
	return it.Clone(), err
}

// Delete removes the item under key if cond holds.
func (s *Store) Delete(ctx context.Context, k store.Key, cond store.Cond) error {
	op, err := prepareOp(store.Op{Kind: store.OpDelete, Key: k, Cond: cond})
	if err != nil {
		return err
	}
	_, err = s.write(ctx, []writeOp{op}, false)
	return err
}

// Transact applies the operations atomically.
func (s *Store) Transact(ctx context.Context, ops []store.Op) error {
	wops, err := prepareTx(ops)
	if err != nil {
		return err
	}
	_, err = s.write(ctx, wops, true)
	return err
}

var _ store.Pipelined = (*Store)(nil)

// TransactApplied is Transact returning once the batch is applied, before
// its fsync (see store.Pipelined); durable waits for the fsync.
func (s *Store) TransactApplied(ctx context.Context, ops []store.Op) (durable func() error, err error) {
	wops, err := prepareTx(ops)
	if err != nil {
		return nil, err
	}
	_, _, durable, err = s.writeApplied(ctx, wops, true)
	return durable, err
}

// prepareTx validates a transaction's operations.
func prepareTx(ops []store.Op) ([]writeOp, error) {
	if len(ops) == 0 || len(ops) > store.MaxTransactItems {
		return nil, fmt.Errorf("%w: a transaction holds 1 to %d operations, got %d", store.ErrInvalid, store.MaxTransactItems, len(ops))
	}
	wops := make([]writeOp, len(ops))
	for i, o := range ops {
		op, err := prepareOp(o)
		if err != nil {
			return nil, fmt.Errorf("operation %d: %w", i, err)
		}
		wops[i] = op
	}
	if dup := duplicateKey(wops); dup != "" {
		return nil, fmt.Errorf("%w: item %s appears twice in one transaction", store.ErrInvalid, dup)
	}
	return wops, nil
}

func duplicateKey(ops []writeOp) string {
	if len(ops) <= 16 {
		for i := range ops {
			for j := i + 1; j < len(ops); j++ {
				if ops[i].key == ops[j].key {
					return ops[i].key.String()
				}
			}
		}
		return ""
	}
	seen := make(map[store.Key]struct{}, len(ops))
	for _, o := range ops {
		if _, ok := seen[o.key]; ok {
			return o.key.String()
		}
		seen[o.key] = struct{}{}
	}
	return ""
}

// opExpire is an internal operation kind: delete the item if its ttl is
// still before expireBefore (used by the sweeper).
const opExpire store.OpKind = 100

// writeOp is a validated operation.
type writeOp struct {
	stripe       int // set by lockKeys
	kind         store.OpKind
	key          store.Key
	item         store.Item // normalized, for Put
	upd          *store.Update
	cond         store.Cond
	expireBefore int64
}

func prepareOp(o store.Op) (writeOp, error) {
	op := writeOp{kind: o.Kind, key: o.Key, upd: o.Update, cond: o.Cond}
	switch o.Kind {
	case store.OpPut:
		it, err := store.Normalize(o.Item)
		if err != nil {
			return op, err
		}
		if err := store.ValidateItem(it); err != nil {
			return op, err
		}
		op.item = it
		if k := it.Key(); o.Key != (store.Key{}) && o.Key != k {
			return op, fmt.Errorf("%w: put key %s differs from the item's key %s", store.ErrInvalid, o.Key, k)
		} else {
			op.key = k
		}
	case store.OpUpdate:
		if err := store.ValidateKey(o.Key); err != nil {
			return op, err
		}
		if err := o.Update.Validate(); err != nil {
			return op, err
		}
	case store.OpDelete:
		if err := store.ValidateKey(o.Key); err != nil {
			return op, err
		}
	case store.OpCheck:
		if err := store.ValidateKey(o.Key); err != nil {
			return op, err
		}
		if o.Cond == nil {
			return op, fmt.Errorf("%w: a check needs a condition", store.ErrInvalid)
		}
	default:
		return op, fmt.Errorf("%w: unknown operation kind %d", store.ErrInvalid, o.Kind)
	}
	return op, nil
}

// stripeOf hashes a key to its lock stripe (FNV-1a).
func stripeOf(k store.Key) int {
	h := uint32(2166136261)
	for i := 0; i < len(k.PK); i++ {
		h = (h ^ uint32(k.PK[i])) * 16777619
	}
	h = (h ^ 0xFF) * 16777619
	for i := 0; i < len(k.SK); i++ {
		h = (h ^ uint32(k.SK[i])) * 16777619
	}
	return int(h % numStripes)
}

// lockKeys locks the stripes of the keys in ascending order, each once,
// and returns them for unlockKeys.
func (s *Store) lockKeys(ops []writeOp, buf []int) []int {
	idx := buf[:0]
	for i := range ops {
		ops[i].stripe = stripeOf(ops[i].key)
		idx = append(idx, ops[i].stripe)
	}
	if len(idx) > 1 {
		sort.Ints(idx)
		j := 1
		for i := 1; i < len(idx); i++ {
			if idx[i] != idx[j-1] {
				idx[j] = idx[i]
				j++
			}
		}
		idx = idx[:j]
	}
	for _, i := range idx {
		s.stripes[i].Lock()
	}
	return idx
}

func (s *Store) unlockKeys(idx []int) {
	for _, i := range idx {
		s.stripes[i].Unlock()
	}
}

// change is one item write of a commit.
type change struct {
	stripe   int
	kind     store.ChangeKind
	key      store.Key
	old, new store.Item
	oldRaw   []byte
	newRaw   []byte
	// hot marks a read-modify-write (an update): the kind of key that is
	// written again soon (balances, orders, counters), worth caching. Puts
	// of new records (postings, trades, outbox messages) are rarely read
	// back and would only push the hot keys out of the cache.
	hot bool
}

// write runs operations atomically: lock, read, check, compute, commit,
// unlock, sync. It returns the new item of the first operation (for Update).
func (s *Store) write(ctx context.Context, ops []writeOp, tx bool) (store.Item, error) {
	it, _, err := s.writeN(ctx, ops, tx)
	return it, err
}

// writeN is write that also returns how many items it changed.
//
// The key locks are released once the batch is applied, before its fsync:
// the next writer of a hot key (a fee account credited by every trade) then
// runs while this one's fsync is in flight, and both share it. That is safe
// because the next writer's batch enters the WAL after this one, so its own
// acknowledgement (after its fsync) implies this batch is durable too. An
// outcome that writes nothing (a failed condition, a check, a no-op) still
// depends on what it read, so it first waits until that state is durable.
func (s *Store) writeN(ctx context.Context, ops []writeOp, tx bool) (store.Item, int, error) {
	it, n, durable, err := s.writeApplied(ctx, ops, tx)
	if err != nil {
		return nil, 0, err
	}
	if err := durable(); err != nil {
		return nil, 0, err
	}
	return it, n, nil
}

// durableNow is the durable of a write that is durable when it returns.
func durableNow() error { return nil }

// writeApplied is writeN up to the fsync: it returns once the batch is
// applied, with durable, which waits for the fsync and must be called.
// A write that wrote nothing has waited for what it read already.
func (s *Store) writeApplied(ctx context.Context, ops []writeOp, tx bool) (store.Item, int, func() error, error) {
	if err := s.enter(ctx); err != nil {
		return nil, 0, nil, err
	}
	defer s.closeMu.RUnlock()

	var stripeBuf [8]int
	locked := s.lockKeys(ops, stripeBuf[:])
	isLocked := true
	unlock := func() {
		if isLocked {
			s.unlockKeys(locked)
			isLocked = false
		}
	}
	defer unlock()
	// readOnly ends a write that wrote nothing: once what it read is durable.
	readOnly := func(result error) error {
		seen := s.seqs.reserved()
		unlock()
		if err := s.syncTo(seen); err != nil {
			return err
		}
		return result
	}

	var chBuf [2]change
	changes := chBuf[:0]
	if len(ops) > len(chBuf) {
		changes = make([]change, 0, len(ops))
	}
	var firstItem store.Item
	keyBuf := make([]byte, 0, 64)
	for i, op := range ops {
		var (
			cur    store.Item
			curRaw []byte
			err    error
		)
		if c, ok := s.stripes[op.stripe].cache[op.key]; ok {
			cur, curRaw = c.item, c.raw
		} else {
			keyBuf = itemKey(keyBuf[:0], op.key)
			if cur, curRaw, err = s.read(s.db, keyBuf, op.key); err != nil {
				return nil, 0, nil, err
			}
		}
		ok, err := store.Eval(op.cond, cur)
		if err != nil {
			return nil, 0, nil, err
		}
		if !ok {
			if tx {
				return nil, 0, nil, readOnly(&store.TxCanceledError{Index: i})
			}
			return nil, 0, nil, readOnly(fmt.Errorf("%w: %s", store.ErrConditionFailed, op.key))
		}
		var next store.Item
		switch op.kind {
		case store.OpCheck:
			continue
		case store.OpPut:
			next = op.item
		case store.OpUpdate:
			if next, err = op.upd.Apply(op.key, cur); err != nil {
				return nil, 0, nil, err
			}
		case store.OpDelete:
			if cur == nil {
				continue
			}
		case opExpire:
			if cur == nil || !expired(cur, op.expireBefore) {
				continue
			}
		}
		if i == 0 {
			firstItem = next
		}
		c := change{key: op.key, stripe: op.stripe, old: cur, new: next, oldRaw: curRaw, hot: op.kind == store.OpUpdate}
		switch {
		case next == nil:
			c.kind = store.ChangeRemove
		case cur == nil:
			c.kind = store.ChangeInsert
		default:
			c.kind = store.ChangeModify
		}
		if next != nil {
			c.newRaw = encodeItem(make([]byte, 0, len(curRaw)+32), next)
			if bytes.Equal(c.newRaw, curRaw) {
				continue // nothing changes: no write, no change record
			}
		}
		changes = append(changes, c)
	}
	if len(changes) == 0 {
		if err := readOnly(nil); err != nil {
			return nil, 0, nil, err
		}
		return firstItem, 0, durableNow, nil
	}
	b, first, last, err := s.apply(changes)
	if err != nil {
		// The batch may or may not be applied: forget what is cached.
		for _, c := range changes {
			delete(s.stripes[c.stripe].cache, c.key)
		}
		return nil, 0, nil, err
	}
	for _, c := range changes {
		st := &s.stripes[c.stripe]
		if _, cached := st.cache[c.key]; c.hot || cached { // a cached key must stay current
			st.remember(c.key, cachedItem{item: c.new, raw: c.newRaw})
		}
	}
	unlock()
	// Close waits for the fsync of every batch applied before it.
	s.applied.Add(1)
	durable := func() error {
		defer s.applied.Done()
		err := b.SyncWait()
		b.Close()
		if err != nil {
			return fmt.Errorf("embedded: sync: %w", err)
		}
		s.seqs.complete(first, last)
		return nil
	}
	return firstItem, len(changes), durable, nil
}

// apply builds the batch of the changes, their index entries and feed
// records, reserves the records' sequences and hands the batch to Pebble.
// It returns before the fsync; the caller waits for it with Batch.SyncWait,
// then completes the reservation and closes the batch. No lock is held
// across the commit: Pebble orders concurrent batches in its WAL and applies
// them to the memtable in parallel (see sequencer for the feed's order).
func (s *Store) apply(changes []change) (b *pebble.Batch, first, last uint64, err error) {
	b = s.db.NewBatch()
	at := time.Now().UnixMilli()
	// Pebble copies keys and values into the batch, so one scratch buffer
	// serves every key and record.
	var scratch []byte
	for i := range changes {
		c := &changes[i]
		scratch = itemKey(scratch[:0], c.key)
		if c.new == nil {
			err = b.Delete(scratch, nil)
		} else {
			err = b.Set(scratch, c.newRaw, nil)
		}
		if err == nil {
			err = maintainIndexes(b, c)
		}
		if err != nil {
			b.Close()
			return nil, 0, 0, err
		}
	}
	first, last = s.seqs.reserve(len(changes))
	if s.reservedHook != nil {
		s.reservedHook(first)
	}
	// The batch's change records go under one feed key (feed.go), encoded
	// straight into the batch.
	var key [9]byte
	feedKey := appendFeedKey(key[:0], first)
	op := b.SetDeferred(len(feedKey), feedValueLen(changes, at))
	copy(op.Key, feedKey)
	if v := putFeedValue(op.Value[:0], changes, at); len(v) != len(op.Value) {
		err = fmt.Errorf("embedded: feed value of %d bytes, %d reserved", len(v), len(op.Value))
	} else {
		err = op.Finish()
	}
	if err == nil {
		// ApplyNoSyncWait returns once the batch is in the WAL buffer and
		// visible; Batch.SyncWait then waits for its fsync, which Pebble
		// shares among all batches queued meanwhile (group commit).
		if err = s.db.ApplyNoSyncWait(b, pebble.Sync); err != nil {
			// A batch whose commit failed must not be reused or closed twice.
			b = nil
			err = fmt.Errorf("embedded: commit: %w", err)
		}
	}
	if err != nil {
		if b != nil {
			b.Close()
		}
		s.seqs.complete(first, last) // a hole: nothing of it was written
		return nil, 0, 0, err
	}
	return b, first, last, nil
}

// syncTo makes every batch up to sequence seq durable, syncing the WAL when
// the durable watermark is below it. The sync enters the WAL after every
// batch applied so far, so what a caller read is durable once it returns;
// it does not move the watermark, which only completed reservations do.
func (s *Store) syncTo(seq uint64) error {
	if s.seqs.durable.Load() >= seq {
		return nil
	}
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		return fmt.Errorf("embedded: sync: %w", err)
	}
	return nil
}

// maintainIndexes adds the batch operations that move an item's gsi1, gsi2
// and TTL entries from the old item to the new one.
func maintainIndexes(b *pebble.Batch, c *change) error {
	for _, ix := range [...]struct {
		ns     byte
		pk, sk string
	}{{nsGSI1, store.AttrGSI1PK, store.AttrGSI1SK}, {nsGSI2, store.AttrGSI2PK, store.AttrGSI2SK}} {
		opk, osk, oin := indexAttrs(c.old, ix.pk, ix.sk)
		npk, nsk, nin := indexAttrs(c.new, ix.pk, ix.sk)
		if oin == nin && opk == npk && osk == nsk {
			continue
		}
		if oin {
			if err := b.Delete(indexKey(ix.ns, opk, osk, c.key), nil); err != nil {
				return err
			}
		}
		if nin {
			if err := b.Set(indexKey(ix.ns, npk, nsk, c.key), nil, nil); err != nil {
				return err
			}
		}
	}
	ot, oin := ttlOf(c.old)
	nt, nin := ttlOf(c.new)
	if oin != nin || ot != nt {
		if oin {
			if err := b.Delete(ttlKey(ot, c.key), nil); err != nil {
				return err
			}
		}
		if nin {
			if err := b.Set(ttlKey(nt, c.key), nil, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexAttrs reports an item's index key; like a DynamoDB GSI with a sort
// key, the item is in the index only when it has both attributes.
func indexAttrs(it store.Item, pkAttr, skAttr string) (string, string, bool) {
	if it == nil {
		return "", "", false
	}
	pk, ok1 := it[pkAttr].(string)
	sk, ok2 := it[skAttr].(string)
	if !ok1 || !ok2 || pk == "" || sk == "" {
		return "", "", false
	}
	return pk, sk, true
}

// ttlOf returns the item's expiry in Unix seconds (clamped to uint64).
func ttlOf(it store.Item) (uint64, bool) {
	if it == nil {
		return 0, false
	}
	if _, ok := it[store.AttrTTL]; !ok {
		return 0, false
	}
	d := it.Dec(store.AttrTTL)
	if d.Sign() <= 0 {
		return 0, true
	}
	if d.GreaterThanOrEqual(maxTTL) {
		return uint64(maxTTL.IntPart()), true
	}
	return uint64(d.IntPart()), true
}

var maxTTL = decimal.NewFromInt(math.MaxInt64)

// expired reports whether the item's ttl lies before the given Unix second.
func expired(it store.Item, before int64) bool {
	t, ok := ttlOf(it)
	return ok && before > 0 && t < uint64(before)
}
