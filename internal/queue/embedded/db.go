// Package embedded is the durable, in-process adapter of the queue port for
// the local binary.
//
// Storage: Pebble used directly, one database (e.g. DATA/queues) holding any
// number of named queues, rather than the store port. The reasons: a queue
// needs ordered scans by sequence number and a group commit that turns many
// concurrent sends into one fsync; the store port offers neither cheaply
// (every write is its own durable transaction, and its change feed would
// carry every queue write to the push fan-out for nothing). Keeping all
// queues in one database also lets a message move to its dead-letter queue in
// one atomic batch.
//
// Durability: Send returns only after its message is fsynced (one group
// commit per burst of concurrent sends, see writer), unless every message
// of the commit is Backed (its sender holds a durable outbox copy and sends
// it again after a crash): such a commit is answered at once and fsynced
// by the syncer moments later, or earlier by the next synced commit, as
// the log is written in order. Receive counts and
// deletes are written without waiting for fsync (a DeleteBatch is one such
// write for all its messages); the syncer fsyncs them a few milliseconds
// later, once per burst (Pebble would otherwise keep them in its
// in-process WAL buffer until the next synced send, so a killed
// process could lose deletes made long before). A crash inside that window
// at worst redelivers a message, which the port already allows
// (at-least-once). Visibility deadlines are kept in memory only: after a
// restart every message is visible again, again a redelivery.
//
// The in-memory index (groups, in-flight set, expiry heap) is rebuilt from
// the database when a queue is opened.
package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/rs/zerolog"

	"tenger/internal/queue"
)

// Options configure the database.
type Options struct {
	// Logger receives warnings (failed dead-letter moves ...). Message
	// bodies and attributes are never logged. Zero value: nothing is logged.
	Logger zerolog.Logger
	// MaxBatchBytes bounds how many bytes of messages one group commit
	// carries; 0 means 4 MiB.
	MaxBatchBytes int
}

// QueueOptions configure one queue.
type QueueOptions struct {
	// MaxReceives is how many times a message is delivered before it moves
	// to DeadLetter. 0 disables dead-lettering.
	MaxReceives int
	// DeadLetter names the queue (in the same database) that receives
	// messages after MaxReceives deliveries. Required when MaxReceives > 0.
	DeadLetter string
}

// DB is one Pebble database holding named queues.
type DB struct {
	pdb  *pebble.DB
	opts Options
	now  func() time.Time
	log  zerolog.Logger

	reqs    chan *writeReq
	closing chan struct{}
	done    chan struct{}

	mu     sync.Mutex
	queues map[string]*Queue
	closed bool

	// seq is the last sequence number assigned; only the writer goroutine
	// touches it after Open.
	seq uint64

	// unsynced is set by writes committed without an fsync (receive counts,
	// deletes and backed sends); syncKick wakes the syncer, which makes them durable
	// soon after (see syncSoon). syncDone is closed when the syncer stops.
	unsynced atomic.Bool
	syncKick chan struct{}
	// syncedSends counts the writer's commits that waited for an fsync.
	syncedSends atomic.Int64
	syncDone    chan struct{}
}

// syncDelay is how long the syncer lets writes committed without an fsync
// gather before it syncs them all with one fsync.
const syncDelay = 5 * time.Millisecond

// Open opens (creating if needed) the queue database in dir.
func Open(dir string, opts Options) (*DB, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("queue/embedded: %w", err)
	}
	if opts.MaxBatchBytes <= 0 {
		opts.MaxBatchBytes = 4 << 20
	}
	pdb, err := pebble.Open(dir, &pebble.Options{Logger: pebbleLogger{log: opts.Logger}})
	if err != nil {
		return nil, fmt.Errorf("queue/embedded: open %s: %w", dir, err)
	}
	db := &DB{
		pdb:      pdb,
		opts:     opts,
		now:      time.Now,
		log:      opts.Logger,
		reqs:     make(chan *writeReq, 1024),
		closing:  make(chan struct{}),
		done:     make(chan struct{}),
		queues:   make(map[string]*Queue),
		syncKick: make(chan struct{}, 1),
		syncDone: make(chan struct{}),
	}
	v, closer, err := pdb.Get(seqKey)
	switch {
	case err == nil:
		if len(v) == 8 {
			db.seq = binary.BigEndian.Uint64(v)
		}
		_ = closer.Close()
	case errors.Is(err, pebble.ErrNotFound):
	default:
		_ = pdb.Close()
		return nil, fmt.Errorf("queue/embedded: read sequence: %w", err)
	}
	go db.writer()
	go db.syncer()
	return db, nil
}

// syncSoon makes the writes committed so far without an fsync durable
// within about syncDelay. Pebble keeps a record committed with NoSync in
// its in-process WAL buffer until a later synced write or a full WAL block
// pushes it out, so without this a killed process loses deletes and
// receive counts made while no message was being sent, however long ago:
// every restart would then deliver the same handled messages again.
func (db *DB) syncSoon() {
	db.unsynced.Store(true)
	select {
	case db.syncKick <- struct{}{}:
	default:
	}
}

// syncer syncs the WAL, once per burst, after writes committed without an
// fsync, until the database closes.
func (db *DB) syncer() {
	defer close(db.syncDone)
	for {
		select {
		case <-db.closing:
			return
		case <-db.syncKick:
		}
		t := time.NewTimer(syncDelay)
		select {
		case <-db.closing:
			t.Stop()
			return
		case <-t.C:
		}
		if db.unsynced.Swap(false) {
			if err := db.pdb.LogData(nil, pebble.Sync); err != nil {
				db.log.Warn().Err(err).Msg("queue: syncing deletes and receive counts failed")
			}
		}
	}
}

// Queue opens the named queue (loading its messages from disk on first use)
// and returns the same *Queue on later calls, with opts applied. Its
// dead-letter queue, if any, is opened too.
func (db *DB) Queue(name string, opts QueueOptions) (*Queue, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: queue name is required", queue.ErrInvalid)
	}
	if opts.MaxReceives > 0 && (opts.DeadLetter == "" || opts.DeadLetter == name) {
		return nil, fmt.Errorf("%w: MaxReceives needs a dead-letter queue other than the queue itself", queue.ErrInvalid)
	}
	var dlq *Queue
	if opts.DeadLetter != "" {
		var err error
		if dlq, err = db.queue(opts.DeadLetter); err != nil {
			return nil, err
		}
	}
	q, err := db.queue(name)
	if err != nil {
		return nil, err
	}
	q.mu.Lock()
	q.maxReceives = opts.MaxReceives
	q.dlq = dlq
	moves := q.collectExhaustedLocked()
	q.mu.Unlock()
	if err := q.deadLetter(moves); err != nil {
		return nil, err
	}
	return q, nil
}

func (db *DB) queue(name string) (*Queue, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return nil, queue.ErrClosed
	}
	if q, ok := db.queues[name]; ok {
		return q, nil
	}
	q, err := loadQueue(db, name)
	if err != nil {
		return nil, err
	}
	db.queues[name] = q
	return q, nil
}

// Close stops the writer and closes the database. Sends still waiting get
// ErrClosed; everything already acknowledged is durable.
func (db *DB) Close() error {
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	db.mu.Unlock()
	close(db.closing)
	<-db.done
	<-db.syncDone
	db.mu.Lock()
	for _, q := range db.queues {
		// Taking each queue's lock waits out operations that are using
		// Pebble right now; later ones see closed and stop.
		q.mu.Lock()
		q.closed = true
		q.wakeLocked()
		q.mu.Unlock()
	}
	db.mu.Unlock()
	return db.pdb.Close()
}

func (db *DB) isClosed() bool {
	select {
	case <-db.closing:
		return true
	default:
		return false
	}
}

// pebbleLogger keeps Pebble's informational chatter off stderr and routes
// its errors to the queue's logger.
type pebbleLogger struct{ log zerolog.Logger }

func (pebbleLogger) Infof(string, ...any) {}
func (l pebbleLogger) Errorf(format string, args ...any) {
	l.log.Error().Msgf("pebble: "+format, args...)
}
func (l pebbleLogger) Fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "queue/embedded: pebble: "+format+"\n", args...)
	os.Exit(1)
}
