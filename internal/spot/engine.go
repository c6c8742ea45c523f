package spot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/ledger"
	"tenger/internal/marketdata"
	"tenger/internal/markets"
	"tenger/internal/matching"
	"tenger/internal/queue"
	"tenger/internal/store"
)

// EngineOptions configure the engine process.
type EngineOptions struct {
	Store   store.Store
	Ledger  *ledger.Ledger
	Markets *markets.Catalogue
	Orders  queue.Queue
	// DataDir holds the journal (spot-journal/, see journal.go) and the
	// book snapshots (spot-snapshots/). Empty: an in-memory journal and no
	// snapshots (tests; a restart then relies on a journal handed over in
	// Journal, or on the rebuild from the stored open orders).
	DataDir string
	// Journal overrides the journal (tests share a MemoryJournal across a
	// simulated restart).
	Journal matching.Journal
	// Sync is the FileJournal policy; the default fsyncs once per batch.
	Sync matching.SyncPolicy
	// Feed receives trades and depth (nil: none).
	Feed marketdata.Feed
	// Prices are the reference prices a trade's fee-tier volume is valued
	// at (nil: USDT pairs count their quote amount, the others nothing).
	Prices RefPrices
	// Batch is the most commands read per batch (default 256).
	Batch int
	// Visibility is the queue visibility timeout (default 30 s).
	Visibility time.Duration
	// SweepAfter: outbox records older than this are sent again (default 3 s).
	SweepAfter time.Duration
	// SnapshotEvery is the snapshot interval (default 30 s; < 0 never).
	SnapshotEvery time.Duration
	// Exclusive takes the data directory's engine lock before anything is
	// read, waiting while another engine holds it (lock.go). The runtimes
	// set it; tests that simulate a crash inside one process (a journal
	// closed, an engine abandoned) leave it off.
	Exclusive bool
	Now       func() time.Time
	Log       zerolog.Logger
}

// Engine is the matching engine process: one goroutine that reads order
// commands, sequences, journals, matches and settles them.
type Engine struct {
	o       EngineOptions
	journal matching.Journal
	// unlock releases the data directory's engine lock (lock.go).
	unlock  func()
	books   *matching.Books
	buf     *matching.EventBuffer
	set     *settler
	bySym   map[string]uint32
	bookCfg map[uint32]matching.BookConfig
	// marketsVersion is the catalogue version the books follow (pairs.go).
	marketsVersion uint64
	seq            uint64
	// rebuilt is set when recovery rebuilt the books from the stored open
	// orders (see rebuild.go).
	rebuilt bool

	lastDepth map[uint32]time.Time
	dirty     map[uint32]bool
	lastSnap  time.Time
	lastSweep time.Time
	changed   bool
	// unsettled is set while the books hold commands whose events are not
	// all stored; no snapshot may be written then.
	unsettled bool
	depthBuf  []matching.DepthLevel
	// batchAt is when the batch being settled was matched: the time of its
	// trades in the store (trade rows) and in market data alike.
	batchAt time.Time

	// crashAfterJournal (tests) makes the next batch stop after the
	// journal is synced and the books applied, before any settlement.
	crashAfterJournal bool
	// crashMidSettle (tests), when set, picks the jobs of the next batch's
	// settlement that run before a simulated crash.
	crashMidSettle func(jobs []job) []job

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// NewEngine builds the engine and recovers its state: every pair of the
// catalogue gets a book (pairs added later get theirs between batches,
// pairs.go), snapshots are restored,
// the journal after them is replayed and its events are settled again
// (idempotently), and stored outbox records are sent again. When there is
// no usable journal (empty storage, a lost or incomplete journal, or a
// snapshot older than what the store has settled), the books are rebuilt
// from the stored open orders instead (rebuild.go).
func NewEngine(ctx context.Context, o EngineOptions) (*Engine, error) {
	if o.Batch <= 0 {
		o.Batch = 256
	}
	if o.Visibility <= 0 {
		o.Visibility = 30 * time.Second
	}
	if o.SweepAfter <= 0 {
		o.SweepAfter = 3 * time.Second
	}
	if o.SnapshotEvery == 0 {
		o.SnapshotEvery = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sync == 0 && o.DataDir != "" {
		o.Sync = matching.SyncOnDemand
	}
	e := &Engine{o: o, buf: matching.NewEventBuffer(4096), bySym: map[string]uint32{},
		bookCfg: map[uint32]matching.BookConfig{}, lastDepth: map[uint32]time.Time{}, dirty: map[uint32]bool{}}
	e.set = &settler{st: o.Store, tx: newTxCombiner(o.Store), led: o.Ledger, pairs: map[uint32]markets.Pair{}, cfgs: map[uint32]matching.SymbolConfig{},
		meta: map[uint64]*orderMeta{}, prices: o.Prices}
	e.set.now = func() int64 {
		if e.batchAt.IsZero() {
			return o.Now().UnixMilli()
		}
		return e.batchAt.UnixMilli()
	}
	e.marketsVersion = o.Markets.Version()
	for _, p := range o.Markets.List() {
		if err := e.addPair(p); err != nil {
			return nil, err
		}
	}
	if err := e.resetBooks(); err != nil {
		return nil, err
	}
	switch {
	case o.Journal != nil:
		e.journal = o.Journal
	case o.DataDir != "":
		if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
			return nil, err
		}
		if o.Exclusive {
			release, err := lockDataDir(ctx, o.DataDir, o.Log)
			if err != nil {
				return nil, err
			}
			e.unlock = release
		}
		j, err := openSegmentJournal(o.DataDir, o.Sync)
		if err != nil {
			e.releaseLock()
			return nil, err
		}
		e.journal = j
	default:
		e.journal = &matching.MemoryJournal{}
	}
	if err := e.recover(ctx); err != nil {
		_ = e.closeJournal()
		return nil, err
	}
	return e, nil
}

func (e *Engine) closeJournal() error {
	if e.o.Journal != nil {
		return nil // owned by the caller
	}
	err := e.journal.Close()
	e.releaseLock() // after the journal is closed: the next engine may open it
	return err
}

func (e *Engine) releaseLock() {
	if e.unlock != nil {
		e.unlock()
		e.unlock = nil
	}
}

func (e *Engine) snapDir() string { return filepath.Join(e.o.DataDir, "spot-snapshots") }

// resetBooks gives every pair of the catalogue an empty book.
func (e *Engine) resetBooks() error {
	e.books = matching.NewBooks(e.buf)
	for _, id := range e.bySym {
		if err := e.books.Add(matching.NewBook(e.bookCfg[id], e.buf)); err != nil {
			return err
		}
	}
	return nil
}

// recover restores the books: the snapshots, then the journal after them
// (settling its events again), or, when that cannot give the state the
// store has settled, a rebuild from the stored open orders.
func (e *Engine) recover(ctx context.Context) error {
	started := time.Now()
	from, err := e.restoreSnapshots()
	if err != nil {
		return err
	}
	replayed := 0
	// The journal must continue right after the restored state: sequence
	// numbers have no gaps, so a first record beyond from+1 means the
	// commands between were lost (snapshots deleted, or a journal from
	// another run). Replaying it would settle events of a wrong book.
	first, err := e.firstJournalSeq(from)
	if err != nil {
		return err
	}
	rebuild := first != 0 && first != from+1
	if rebuild {
		e.o.Log.Warn().Uint64("restored", from).Uint64("journal", first).
			Msg("spot: journal does not continue the restored books; rebuilding them from the store")
	} else if replayed, err = e.replay(ctx, from); err != nil {
		return err
	}
	if s := e.journal.LastSeq(); s > e.seq {
		e.seq = s
	}
	for _, id := range e.books.Symbols() {
		if s := e.books.Book(id).LastSeq(); s > e.seq {
			e.seq = s
		}
	}
	if !rebuild {
		// Snapshots and journal can be consistent with each other and still
		// older than the store (a lost journal tail, or an empty data
		// directory: no snapshot, no journal).
		if rebuild, err = e.storeAhead(ctx); err != nil {
			return err
		}
	}
	if rebuild {
		// Complete the last batch first: a crash may have left it half
		// settled, and the rebuild reads what settlement stored.
		if err := e.settlePending(ctx); err != nil {
			return err
		}
		if err := e.rebuildFromStore(ctx); err != nil {
			return err
		}
		// Market data may lack trades the journal would have replayed.
		if err := e.catchUpFeed(ctx); err != nil {
			return err
		}
	} else if e.seq == 0 {
		if err := e.checkNoHistory(ctx); err != nil {
			return err
		}
	}
	for _, id := range e.books.Symbols() {
		if err := e.books.Book(id).Check(); err != nil {
			return err
		}
	}
	if e.rebuilt && e.o.DataDir != "" {
		// The journal on disk does not lead to the rebuilt books: a
		// snapshot now makes them the base of every later restore, and
		// drops that journal.
		if err := e.snapshot(); err != nil {
			return fmt.Errorf("spot: snapshot of the rebuilt books: %w", err)
		}
	}
	e.changed = true
	for id := range e.set.pairs {
		e.dirty[id] = true
	}
	// What a restart did, for the operator: a crash shows as commands
	// replayed after the last snapshot (their events settled again).
	e.o.Log.Info().Uint64("snapshot", from).Int("replayed", replayed).Bool("rebuilt", e.rebuilt).
		Uint64("seq", e.seq).Dur("took", time.Since(started)).Msg("spot: books recovered")
	return e.sweep(ctx, true)
}

// restoreSnapshots restores each book's snapshot and returns the seq after
// which the journal must be replayed. It raises e.seq to the seq file.
func (e *Engine) restoreSnapshots() (uint64, error) {
	from := uint64(0)
	first := true
	for sym, id := range e.bySym {
		b := e.books.Book(id)
		if e.o.DataDir != "" {
			f, err := os.Open(filepath.Join(e.snapDir(), sym+".snap"))
			if err == nil {
				err = b.Restore(f)
				_ = f.Close()
				if err != nil {
					return 0, fmt.Errorf("spot: restore %s: %w", sym, err)
				}
			} else if !errors.Is(err, os.ErrNotExist) {
				return 0, err
			}
		}
		if first || b.LastSeq() < from {
			from, first = b.LastSeq(), false
		}
	}
	// Every book was snapshotted at the same point (between batches), and
	// the seq file is written after all of them: books idle since then
	// (LastSeq far behind) need not force a replay of the whole journal,
	// and the journal may have been truncated up to that point.
	if e.o.DataDir != "" {
		if b, err := os.ReadFile(filepath.Join(e.snapDir(), "seq")); err == nil {
			if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil {
				if v > from {
					from = v
				}
				if v > e.seq {
					e.seq = v
				}
			}
		}
	}
	return from, nil
}

// errStopReplay ends a journal scan early.
var errStopReplay = errors.New("spot: stop replay")

// firstJournalSeq returns the seq of the first journalled command after
// from (0 when there is none).
func (e *Engine) firstJournalSeq(from uint64) (uint64, error) {
	var first uint64
	err := e.journal.Replay(from, func(c *matching.Command) error {
		first = c.Seq
		return errStopReplay
	})
	if err != nil && !errors.Is(err, errStopReplay) {
		return 0, fmt.Errorf("spot: read journal: %w", err)
	}
	return first, nil
}

// replay applies the journal after from to the books and settles the
// events again (idempotently). It returns how many commands it replayed.
func (e *Engine) replay(ctx context.Context, from uint64) (int, error) {
	var cmds []matching.Command
	n := 0
	var starts []int
	flush := func() error {
		e.batchAt = e.o.Now()
		if err := e.settleAll(ctx, cmds, starts); err != nil {
			return err
		}
		// Market data may have lost these trades with the process (it
		// applies them asynchronously); it skips the ones it already has.
		e.publishTrades()
		cmds, starts = cmds[:0], starts[:0]
		e.buf.Reset()
		return nil
	}
	err := e.journal.Replay(from, func(c *matching.Command) error {
		if c.Seq > e.seq {
			e.seq = c.Seq
		}
		starts = append(starts, len(e.buf.Events))
		cmds = append(cmds, *c)
		e.books.Apply(c)
		n++
		if len(cmds) >= 512 {
			return flush()
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("spot: replay journal: %w", err)
	}
	return n, flush()
}

// ErrJournalLost: the engine found no journal and no snapshot, and the
// store holds settled trades but none of the book records the rebuild
// needs (data settled before they existed). Starting with empty books would
// restart trade ids at 1 (so new trades would look like replays of settled
// ones) and drop resting orders, so the engine refuses; restore the data
// directory.
var ErrJournalLost = errors.New("spot: engine journal and snapshots missing, trades settled and no book records to rebuild from; restore the engine data directory")

// checkNoHistory makes sure an engine starting from nothing, with no book
// records in the store, really is the first: no pair has a settled trade 1.
func (e *Engine) checkNoHistory(ctx context.Context) error {
	for sym := range e.bySym {
		_, err := e.o.Ledger.Lookup(ctx, "trade:"+sym+":1")
		if err == nil {
			return fmt.Errorf("%w (%s)", ErrJournalLost, sym)
		}
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// settleAll settles the events of cmds; starts[i] is the index in the event
// buffer of command i's first event.
func (e *Engine) settleAll(ctx context.Context, cmds []matching.Command, starts []int) error {
	evs := e.buf.Events
	var jobs []job
	var done []uint64
	pending := map[uint64]int{}
	for i := range cmds {
		end := len(evs)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		var err error
		if jobs, err = e.set.plan(ctx, &cmds[i], evs[starts[i]:end], jobs, &done, pending); err != nil {
			return err
		}
	}
	jobs = e.bookRecordJobs(cmds, starts, evs, jobs)
	if pick := e.crashMidSettle; pick != nil {
		e.crashMidSettle = nil
		if err := run(ctx, pick(jobs), settleWorkers); err != nil {
			return err
		}
		return errCrash
	}
	if err := run(ctx, jobs, settleWorkers); err != nil {
		return err
	}
	for _, id := range done {
		delete(e.set.meta, id)
	}
	return nil
}

// settleWorkers bounds the concurrent settlement writes of one batch.
const settleWorkers = 64

// sweep sends again the outbox records (orders, and amends, stored but
// maybe never sent) older than SweepAfter, or all of them when all is set
// (at start). A record names its deduplication id, or is a place.
func (e *Engine) sweep(ctx context.Context, all bool) error {
	now := e.o.Now()
	e.lastSweep = now
	for sym := range e.bySym {
		q := store.Query{PK: pkOutbox + sym, Limit: 500}
		for {
			page, err := e.o.Store.Query(ctx, q)
			if err != nil {
				return err
			}
			var msgs []queue.Message
			for _, it := range page.Items {
				if !all && now.UnixMilli()-it.Int("at") < e.o.SweepAfter.Milliseconds() {
					continue
				}
				dedup := it.Str("dedup")
				if dedup == "" {
					dedup = "place:" + trimZeros(it.Str(store.AttrSK))
				}
				// Backed: the record stays until the command is settled,
				// and a lost copy is sent again by a later sweep.
				msgs = append(msgs, queue.Message{Group: sym, DedupID: dedup, Body: it.Bytes("cmd"), Backed: true})
			}
			if len(msgs) > 0 {
				if err := e.o.Orders.SendBatch(ctx, msgs); err != nil {
					return err
				}
			}
			if page.Cursor == "" {
				break
			}
			q.Cursor = page.Cursor
		}
	}
	return nil
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// Start runs the engine loop on its own goroutine until Stop.
func (e *Engine) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	e.mu.Lock()
	e.cancel, e.done = cancel, make(chan struct{})
	e.mu.Unlock()
	go func() {
		defer close(e.done)
		err := e.Run(ctx)
		if err != nil && !errors.Is(err, context.Canceled) {
			e.o.Log.Error().Err(err).Msg("spot: engine stopped")
		}
		e.mu.Lock()
		e.err = err
		e.mu.Unlock()
	}()
}

// Stop ends the loop (after the batch in hand), writes a snapshot and
// closes the journal.
func (e *Engine) Stop() error {
	e.mu.Lock()
	cancel, done := e.cancel, e.done
	e.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	var errs []error
	if e.o.DataDir != "" && !e.unsettled {
		errs = append(errs, e.snapshot())
	}
	errs = append(errs, e.closeJournal())
	return errors.Join(errs...)
}

// Run is the engine loop: receive a batch, process it, repeat.
func (e *Engine) Run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		ds, err := e.o.Orders.Receive(ctx, e.o.Batch, e.o.Visibility, 100*time.Millisecond)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			e.o.Log.Warn().Err(err).Msg("spot: receive")
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if len(ds) > 0 {
			if err := e.process(ctx, ds); err != nil {
				return err
			}
		}
		e.publishDepth(false)
		now := e.o.Now()
		if now.Sub(e.lastSweep) >= e.o.SweepAfter {
			if err := e.sweep(ctx, false); err != nil && ctx.Err() == nil {
				e.o.Log.Warn().Err(err).Msg("spot: outbox sweep")
			}
		}
		if e.o.DataDir != "" && e.o.SnapshotEvery > 0 && e.changed && !e.unsettled && now.Sub(e.lastSnap) >= e.o.SnapshotEvery {
			if err := e.snapshot(); err != nil {
				e.o.Log.Warn().Err(err).Msg("spot: snapshot")
			}
		}
	}
}

// errCrash is the simulated crash of crashAfterJournal.
var errCrash = errors.New("spot: simulated crash after journal")

// process runs one batch: sequence, journal and apply the commands, sync
// the journal once, settle every event, publish, and only then delete the
// messages. A crash anywhere leaves either messages to redeliver (skipped
// if their order was sequenced) or a journal whose replay settles again.
//
// Each command is applied right after it is appended (nothing is settled
// or published before the sync), so that an amend is translated against
// the book as it is at the amend's place in the sequence (prepareAmend).
func (e *Engine) process(ctx context.Context, ds []queue.Delivery) error {
	if err := e.openNewPairs(); err != nil {
		return err
	}
	cmds := make([]matching.Command, 0, len(ds))
	starts := make([]int, 0, len(ds))
	e.buf.Reset()
	// From the first apply on, the books hold commands whose events are not
	// settled: no snapshot until the batch is (even if this call fails).
	e.unsettled = true
	for i := range ds {
		var c matching.Command
		if err := matching.DecodeCommand(ds[i].Body, &c); err != nil {
			e.o.Log.Warn().Err(err).Str("msg", ds[i].ID).Msg("spot: undecodable command dropped")
			continue
		}
		if c.Kind == matching.CmdPlace {
			fresh, err := e.freshPlace(ctx, c.OrderID)
			if err != nil {
				return err
			}
			if !fresh {
				continue
			}
		}
		e.seq++
		c.Seq = e.seq
		if c.Kind == matching.CmdAmend {
			e.prepareAmend(&c)
		}
		if err := e.journal.Append(&c); err != nil {
			return err
		}
		starts = append(starts, len(e.buf.Events))
		cmds = append(cmds, c)
		e.books.Apply(&c)
		e.dirty[c.Symbol] = true
	}
	if err := e.journal.Sync(); err != nil {
		return err
	}
	if e.crashAfterJournal {
		return errCrash
	}
	e.batchAt = e.o.Now()
	// A journaled batch is settled and acknowledged even while the engine
	// is stopping: shutdown stops taking new batches, not finishing this one.
	wctx := context.WithoutCancel(ctx)
	saved := false
	for backoff := 10 * time.Millisecond; ; backoff *= 2 {
		// The batch is stored (once) before its settlement begins (pending.go).
		var err error
		if !saved {
			err = savePending(wctx, e.o.Store, cmds, starts, e.buf.Events)
			saved = err == nil
		}
		if err == nil {
			err = e.settleAll(wctx, cmds, starts)
		}
		if err == nil {
			break
		}
		if errors.Is(err, errCrash) {
			return err
		}
		// The books have moved on; settlement must catch up or the engine
		// must stop (a restart replays the journal and settles again).
		e.o.Log.Error().Err(err).Msg("spot: settlement failed, retrying")
		if backoff > 2*time.Second {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
	e.changed, e.unsettled = true, false
	e.publishTrades()
	e.publishDepth(false)
	// One batch delete (SQS: one request per ten). Messages whose delete
	// failed come back: a place is skipped as already sequenced, an amend
	// or cancel is sequenced again and refused (the order is already
	// reduced or gone), which changes nothing.
	receipts := make([]string, len(ds))
	for i := range ds {
		receipts[i] = ds[i].ReceiptHandle
	}
	if err := e.o.Orders.DeleteBatch(wctx, receipts); err != nil {
		e.o.Log.Warn().Err(err).Int("messages", len(receipts)).Msg("spot: delete messages")
	}
	return nil
}

// freshPlace reports whether a place command has not been sequenced yet:
// neither by this process nor (the order's seq attribute) by an earlier one.
func (e *Engine) freshPlace(ctx context.Context, id uint64) (bool, error) {
	if m := e.set.meta[id]; m != nil && m.placedSeen {
		return false, nil
	}
	it, err := e.o.Store.Get(ctx, orderKey(id))
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if it.Has("seq") {
		return false, nil
	}
	m := metaOf(it)
	m.placedSeen = true
	e.set.meta[id] = m
	return true, nil
}

func (e *Engine) publishTrades() {
	if e.o.Feed == nil {
		return
	}
	var cur uint32
	var trades []marketdata.Trade
	at := e.batchAt
	flush := func() {
		if len(trades) > 0 {
			e.o.Feed.OnTrades(e.set.pairs[cur].Symbol, trades)
		}
		trades = nil
	}
	for i := range e.buf.Events {
		ev := &e.buf.Events[i]
		if ev.Kind != matching.EvTrade {
			continue
		}
		if ev.Symbol != cur {
			flush()
			cur = ev.Symbol
		}
		cfg := e.set.cfgs[ev.Symbol]
		trades = append(trades, marketdata.Trade{ID: fmt.Sprintf("%d", ev.TradeID), Symbol: cfg.Symbol,
			Price: cfg.FromTicks(ev.Price), Qty: cfg.FromLots(ev.Qty), TakerSide: sideText(ev.Side), At: at})
	}
	flush()
}

// maxDepthLevels bounds the price levels a depth update carries per side
// (merged steps need more than the MaxDepthLimit levels step 0 shows; a
// bucket the bound would cut is left out whole).
const maxDepthLevels = 5_000

// publishDepth sends each changed book's levels, every level the merged
// steps group (whole buckets of the coarsest step, at most maxDepthLevels),
// at most every 100 ms per symbol.
func (e *Engine) publishDepth(force bool) {
	if e.o.Feed == nil {
		return
	}
	now := e.o.Now()
	for id := range e.dirty {
		if !force && now.Sub(e.lastDepth[id]) < 100*time.Millisecond {
			continue
		}
		b := e.books.Book(id)
		if b == nil {
			delete(e.dirty, id)
			continue
		}
		var bids, asks []marketdata.Level
		bids, asks, e.depthBuf = depthOf(b, e.set.pairs[id], e.depthBuf)
		e.o.Feed.OnDepth(e.set.cfgs[id].Symbol, bids, asks, now)
		e.lastDepth[id] = now
		delete(e.dirty, id)
	}
}

// depthOf is a book's levels as market data publishes them: every level
// the merged steps group (whole buckets of the coarsest step, at most
// maxDepthLevels per side). buf is scratch space, returned for reuse.
func depthOf(b *matching.Book, p markets.Pair, buf []matching.DepthLevel) (bids, asks []marketdata.Level, _ []matching.DepthLevel) {
	cfg := symbolConfig(p)
	// Enough levels for every view: the merged steps group the levels of
	// the first MaxDepthLimit buckets of the coarsest step's grid that hold
	// any, whole (however far apart they lie).
	span, err := cfg.ToTicks(p.DepthStep(marketdata.MaxDepthStep))
	if err != nil {
		span = 1
	}
	conv := func(side matching.Side) []marketdata.Level {
		buf = b.AppendDepthBuckets(buf[:0], side, span, marketdata.MaxDepthLimit, maxDepthLevels)
		out := make([]marketdata.Level, len(buf))
		for i, l := range buf {
			out[i] = marketdata.Level{Price: cfg.FromTicks(l.Price), Qty: cfg.FromLots(l.Qty)}
		}
		return out
	}
	bids = conv(matching.Buy)
	asks = conv(matching.Sell)
	return bids, asks, buf
}

// snapshot writes every book atomically (temp file, fsync, rename). It is
// only called between batches, when every applied command is settled, so a
// restore never skips an unsettled event.
func (e *Engine) snapshot() error {
	// The journal before a snapshot is dropped, so trades published to a
	// feed that applies them asynchronously must be stored first, or a
	// crash would lose them from market data for good.
	if f, ok := e.o.Feed.(interface{ Sync(context.Context) error }); ok {
		if err := f.Sync(context.Background()); err != nil {
			return fmt.Errorf("spot: market data not stored, snapshot postponed: %w", err)
		}
	}
	if err := os.MkdirAll(e.snapDir(), 0o755); err != nil {
		return err
	}
	for sym, id := range e.bySym {
		path := filepath.Join(e.snapDir(), sym+".snap")
		tmp := path + ".tmp"
		f, err := os.Create(tmp)
		if err != nil {
			return err
		}
		err = e.books.Book(id).Snapshot(f)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, path)
		}
		if err != nil {
			return err
		}
	}
	seqPath := filepath.Join(e.snapDir(), "seq")
	if err := writeFileSync(seqPath+".tmp", []byte(strconv.FormatUint(e.seq, 10))); err != nil {
		return err
	}
	if err := os.Rename(seqPath+".tmp", seqPath); err != nil {
		return err
	}
	// The renames must be on disk before the journal they replace goes.
	if err := syncDir(e.snapDir()); err != nil {
		return err
	}
	e.lastSnap = e.o.Now()
	e.changed = false
	if t, ok := e.journal.(journalTruncater); ok {
		// Everything up to e.seq is in the snapshot (it is only written
		// between batches, with every applied command settled). A failed
		// truncation loses nothing: the segments stay and are skipped.
		if err := t.TruncateThrough(e.seq); err != nil {
			e.o.Log.Warn().Err(err).Msg("spot: journal truncation")
		}
	}
	return nil
}

// writeFileSync writes a file and syncs it before closing.
func writeFileSync(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// BookDepth returns the book's top levels (tests and diagnostics; call only
// while the engine loop is stopped).
func (e *Engine) BookDepth(symbol string, side matching.Side, max int) []matching.DepthLevel {
	id, ok := e.bySym[symbol]
	if !ok {
		return nil
	}
	return e.books.Book(id).AppendDepth(nil, side, max)
}

// StateHash returns the book's state hash (tests; engine loop stopped).
func (e *Engine) StateHash(symbol string) uint64 {
	id, ok := e.bySym[symbol]
	if !ok {
		return 0
	}
	return e.books.Book(id).StateHash()
}
