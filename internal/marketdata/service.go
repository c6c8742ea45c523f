package marketdata

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/markets"
	"tenger/internal/push"
	"tenger/internal/store"
)

// Sizes of what is kept in memory.
const (
	// RecentTrades is how many recent trades are kept (and stored) per symbol.
	RecentTrades = 200
	// MemoryCandles is how many of the newest candles per symbol and period
	// stay in memory; older ones are read from the store. 1500 one-minute
	// candles cover the 24 h ticker window.
	MemoryCandles = 1500
	// PushInterval is the least time between two depth (and ticker/kline)
	// pushes of one symbol.
	PushInterval = 100 * time.Millisecond
	// DepthStoreInterval is the least time between two writes of a
	// symbol's depth item (the REST depth of processes that read the
	// store; see Options.Refresh).
	DepthStoreInterval = time.Second
	// DefaultRefresh is the Refresh of the AWS functions: a warm container
	// serves market data at most about this old.
	DefaultRefresh = time.Second
)

// Options configure a Service.
type Options struct {
	Store   store.Store
	Markets *markets.Catalogue
	// Pusher receives the realtime messages; nil disables pushing.
	Pusher push.Pusher
	Log    zerolog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Refresh, when positive, makes the service a reader of the market
	// data another process (the engine's) keeps in the store: New loads
	// nothing, and a read of a symbol first reloads from the store the
	// parts of that symbol's state it needs (depth, recent trades, the
	// candles of a period) when they were read more than Refresh ago. A
	// reader is not fed: OnTrades, OnDepth, Start and Sync are not used.
	// Zero: the service is fed by the engine in this process and keeps
	// everything in memory (reader.go).
	Refresh time.Duration
}

// Service keeps the market data of every pair: it implements Feed for the
// engine, answers the REST queries and pushes realtime channels.
//
// Trades are buffered by OnTrades and applied by the background loop
// (Start) or by Sync. Klines, the recent trades and the depth are stored;
// on New they are read back, so tickers and klines survive a restart, and
// readers in other processes (Options.Refresh) serve them. Each stored candle
// remembers the last trade id applied to it, so trades the engine replays
// after a restart are not counted twice.
type Service struct {
	st      store.Store
	markets *markets.Catalogue
	pusher  push.Pusher
	log     zerolog.Logger
	now     func() time.Time
	refresh time.Duration

	qmu   sync.Mutex
	queue []batch
	wake  chan struct{}

	mu   sync.Mutex
	syms map[string]*symState
	// listeners are told of each book and trade applied (Listen).
	listeners []*listening

	// syncMu serialises Sync so candle states reach the store in order;
	// retry holds the writes of a Sync whose store write failed.
	syncMu sync.Mutex
	retry  []store.Op

	stop chan struct{}
	done chan struct{}
}

var _ TradeMarks = (*Service)(nil)

type batch struct {
	symbol string
	trades []Trade
	depth  bool
	bids   []Level
	asks   []Level
	at     time.Time
}

type symState struct {
	pair   markets.Pair
	recent []Trade // oldest first
	lastID string
	series map[Period][]*candle // ascending by start

	bids, asks []Level
	depthAt    time.Time
	// seq is the version of the book in bids and asks (DepthView.Seq).
	seq        int64
	depthDirty bool
	depthPush  time.Time
	// depthStore is set when the book changed since the depth item was
	// last written (at depthStoredAt).
	depthStore    bool
	depthStoredAt time.Time
	// merged holds the views of steps 1..MaxDepthStep a reader read from
	// a depth item whose book was longer than the item keeps raw; nil
	// when they are merged from bids and asks.
	merged [][2][][2]string

	// Reader mode (Options.Refresh): loadMu serialises the reloads of the
	// symbol; fresh says when each part was last read from the store
	// (both only touched under loadMu).
	loadMu sync.Mutex
	fresh  map[part]time.Time

	pending    []Trade
	tickDirty  bool
	dirtyK     map[Period]int64 // per period, the earliest candle start changed since the last push
	tickPushAt time.Time
	// tickSent is the ticker last pushed (TS zero), or the one clients
	// loaded over REST when nothing was pushed since New; tickLeave is
	// the Unix second at which the 24 h window next loses a candle
	// (noLeave when it holds none), so the ticker is pushed then without
	// recomputing it on every tick (push.go).
	tickSent  Ticker
	tickLeave int64
}

// noLeave is the tickLeave of a window without candles.
const noLeave = math.MaxInt64

// New builds the service and rebuilds tickers, klines and recent trades of
// every pair of the catalogue from the store.
func New(ctx context.Context, o Options) (*Service, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Service{st: o.Store, markets: o.Markets, pusher: o.Pusher, log: o.Log, now: o.Now, refresh: o.Refresh,
		wake: make(chan struct{}, 1), syms: map[string]*symState{}}
	if s.refresh > 0 {
		return s, nil // a reader loads each symbol when it is first read
	}
	for _, p := range o.Markets.List() {
		st, err := s.loadState(ctx, p)
		if err != nil {
			return nil, err
		}
		s.syms[p.Symbol] = st
	}
	return s, nil
}

// loadState reads a pair's state from the store: its candles, recent
// trades and the ticker clients see now (the last process pushed it, or
// REST answers it), which is not pushed again until it changes.
func (s *Service) loadState(ctx context.Context, p markets.Pair) (*symState, error) {
	st := newSymState(p)
	if err := s.load(ctx, st); err != nil {
		return nil, fmt.Errorf("marketdata: load %s: %w", p.Symbol, err)
	}
	st.tickSent, st.tickLeave = st.tickerLeave(s.now())
	st.tickSent.TS = 0
	return st, nil
}

func newSymState(p markets.Pair) *symState {
	return &symState{pair: p, series: map[Period][]*candle{}, dirtyK: map[Period]int64{}, fresh: map[part]time.Time{},
		tickLeave: noLeave}
}

// Store layout: candles under pk "md#k#<symbol>#<period>", sk the bucket
// start in Unix seconds, zero padded; the recent trades of a symbol in one
// item pk "md#recent", sk <symbol>; its depth in one item pk "md#depth",
// sk <symbol> (depthItem).
func klinePK(symbol string, p Period) string { return "md#k#" + symbol + "#" + string(p) }
func klineSK(start int64) string             { return fmt.Sprintf("%012d", start) }

const (
	recentPK = "md#recent"
	depthPK  = "md#depth"
)

func (s *Service) load(ctx context.Context, st *symState) error {
	for _, p := range Periods {
		got, err := s.newestCandles(ctx, st.pair.Symbol, p, store.SKCond{})
		if err != nil {
			return err
		}
		st.series[p] = got
	}
	recent, err := s.readRecent(ctx, st.pair.Symbol)
	if err != nil {
		return err
	}
	st.recent = recent
	if n := len(st.recent); n > 0 {
		st.lastID = st.recent[n-1].ID
	}
	// A crash between the candle and recent-trades writes leaves the 1min
	// candle ahead; its last id is the true high-water mark.
	if m := st.series[Min1]; len(m) > 0 && (st.lastID == "" || compareIDs(m[len(m)-1].last, st.lastID) > 0) {
		st.lastID = m[len(m)-1].last
	}
	return nil
}

// newestCandles reads the newest MemoryCandles candles of a period whose
// sort keys match sk, oldest first.
func (s *Service) newestCandles(ctx context.Context, symbol string, p Period, sk store.SKCond) ([]*candle, error) {
	var got []*candle
	cursor := ""
	for len(got) < MemoryCandles {
		page, err := s.st.Query(ctx, store.Query{PK: klinePK(symbol, p), SK: sk, Desc: true,
			Limit: MemoryCandles - len(got), Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			got = append(got, candleFromItem(it))
		}
		cursor = page.Cursor
		if cursor == "" {
			break
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i].start < got[j].start })
	return got, nil
}

// readRecent reads the recent trades of a symbol, oldest first.
func (s *Service) readRecent(ctx context.Context, symbol string) ([]Trade, error) {
	it, err := s.st.Get(ctx, store.Key{PK: recentPK, SK: symbol})
	if err == store.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	list, _ := it["trades"].([]any)
	out := make([]Trade, 0, len(list))
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		ti := store.Item(m)
		out = append(out, Trade{ID: ti.Str("id"), Symbol: symbol, Price: ti.Dec("p"),
			Qty: ti.Dec("q"), TakerSide: ti.Str("s"), At: time.UnixMilli(ti.Int("t")).UTC()})
	}
	return out, nil
}

func candleFromItem(it store.Item) *candle {
	return &candle{start: it.Int("t"), open: it.Dec("o"), high: it.Dec("h"), low: it.Dec("l"), close: it.Dec("c"),
		vol: it.Dec("v"), amount: it.Dec("a"), count: it.Int("n"), last: it.Str("last")}
}

func candleItem(symbol string, p Period, c *candle) store.Item {
	return store.Item{store.AttrPK: klinePK(symbol, p), store.AttrSK: klineSK(c.start), "t": c.start,
		"o": c.open, "h": c.high, "l": c.low, "c": c.close, "v": c.vol, "a": c.amount, "n": c.count, "last": c.last}
}

// OnTrades implements Feed: it queues the trades and returns at once.
func (s *Service) OnTrades(symbol string, trades []Trade) {
	if len(trades) == 0 {
		return
	}
	s.enqueue(batch{symbol: symbol, trades: append([]Trade(nil), trades...)})
}

// OnDepth implements Feed: it queues the snapshot and returns at once.
func (s *Service) OnDepth(symbol string, bids, asks []Level, at time.Time) {
	s.enqueue(batch{symbol: symbol, depth: true, bids: append([]Level(nil), bids...),
		asks: append([]Level(nil), asks...), at: at})
}

func (s *Service) enqueue(b batch) {
	s.qmu.Lock()
	s.queue = append(s.queue, b)
	s.qmu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Start runs the background loop that applies queued trades and depth and
// pushes the realtime channels, until Stop.
func (s *Service) Start() {
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		tick := time.NewTicker(PushInterval / 2)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				_ = s.sync(context.Background(), true)
				return
			case <-s.wake:
			case <-tick.C:
			}
			if err := s.Sync(context.Background()); err != nil {
				s.log.Error().Err(err).Msg("marketdata: apply")
			}
		}
	}()
}

// Stop ends the loop started by Start after applying what is queued.
func (s *Service) Stop() {
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.stop = nil
}

// Sync applies every queued trade and depth snapshot, stores the changed
// candles and the depth items due, and pushes what is due. Tests and the
// background loop call it.
func (s *Service) Sync(ctx context.Context) error { return s.sync(ctx, false) }

// sync is Sync; final (the loop's last run, on Stop) also stores the depth
// items not yet due.
func (s *Service) sync(ctx context.Context, final bool) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	s.qmu.Lock()
	q := s.queue
	s.queue = nil
	s.qmu.Unlock()
	ops := s.retry
	s.retry = nil
	for i, b := range q {
		if b.depth {
			s.applyDepth(b)
			continue
		}
		o, err := s.applyTrades(ctx, b.symbol, b.trades)
		if err != nil {
			// Only a store read fails here; the batch is not applied, so
			// it is queued again in front of later ones.
			s.requeue(q[i:])
			s.retry = ops
			return err
		}
		ops = append(ops, o...)
	}
	if err := s.write(ctx, ops); err != nil {
		s.retry = ops // memory is ahead; the same states are written next time
		return err
	}
	now := s.now()
	s.flush(ctx, now)
	s.storeDepth(ctx, now, final)
	return nil
}

// write stores the ops in transactions of at most MaxTransactItems; the
// same item written twice keeps its last state.
func (s *Service) write(ctx context.Context, ops []store.Op) error {
	if len(ops) == 0 {
		return nil
	}
	last := map[store.Key]int{}
	for i, op := range ops {
		last[op.Key] = i
	}
	var uniq []store.Op
	for i, op := range ops {
		if last[op.Key] == i {
			uniq = append(uniq, op)
		}
	}
	for len(uniq) > 0 {
		n := min(len(uniq), store.MaxTransactItems)
		if err := s.st.Transact(ctx, uniq[:n]); err != nil {
			return fmt.Errorf("marketdata: store: %w", err)
		}
		uniq = uniq[n:]
	}
	return nil
}

func (s *Service) requeue(q []batch) {
	s.qmu.Lock()
	s.queue = append(append([]batch(nil), q...), s.queue...)
	s.qmu.Unlock()
}

func (s *Service) state(symbol string) *symState {
	st := s.syms[symbol]
	if st == nil {
		p, ok := s.markets.Pair(symbol)
		if !ok {
			return nil
		}
		if st = s.syms[p.Symbol]; st == nil {
			// A pair added after start (or a closed one still trading out).
			st = newSymState(p)
			s.syms[p.Symbol] = st
		}
	}
	return st
}

func (s *Service) applyDepth(b batch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state(b.symbol)
	if st == nil {
		return
	}
	st.bids, st.asks, st.depthAt, st.depthDirty, st.depthStore = b.bids, b.asks, b.at, true, true
	st.seq = nextSeq(st.seq, b.at)
	for _, l := range s.listeners {
		l.l.BookApplied(st.pair.Symbol, st.seq, st.bids, st.asks)
	}
}

// nextSeq is the version of a book snapshot taken at at that follows
// version prev: the snapshot's time in Unix milliseconds, or prev+1 when
// that is not above prev. So versions increase per symbol, and across a
// restart too (the engine sends at most one snapshot per 100 ms per
// symbol, so they never run ahead of the clock).
func nextSeq(prev int64, at time.Time) int64 {
	if at.IsZero() {
		return prev + 1
	}
	return max(prev+1, at.UnixMilli())
}

// applyTrades updates memory and returns the store writes.
func (s *Service) applyTrades(ctx context.Context, symbol string, trades []Trade) ([]store.Op, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state(symbol)
	if st == nil {
		s.log.Warn().Str("symbol", symbol).Msg("marketdata: trades of an unknown pair ignored")
		return nil, nil
	}
	sym := st.pair.Symbol
	dirty := map[Period]map[int64]*candle{}
	recentChanged := false
	var applied []Trade
	if len(s.listeners) > 0 {
		// Told even when a store read stops the batch half way: the
		// trades applied so far stay applied (and pushed).
		defer func() {
			if len(applied) > 0 {
				for _, l := range s.listeners {
					l.l.TradesApplied(sym, applied)
				}
			}
		}()
	}
	for _, t := range trades {
		if t.ID == "" || !t.Price.IsPositive() || !t.Qty.IsPositive() {
			continue
		}
		// Trades arrive in order per symbol, so anything at or below the
		// high-water mark was applied before: the engine publishes the
		// trades it replays after a crash again, stamped with the time of
		// the replay, and the per-candle check alone would count them
		// again in another candle.
		if st.lastID != "" && compareIDs(t.ID, st.lastID) <= 0 {
			continue
		}
		t.Symbol = sym
		for _, p := range Periods {
			c, err := s.candleFor(ctx, st, p, p.BucketStart(t.At))
			if err != nil {
				return nil, err
			}
			if c.apply(t) {
				if dirty[p] == nil {
					dirty[p] = map[int64]*candle{}
				}
				dirty[p][c.start] = c
				if from, ok := st.dirtyK[p]; !ok || c.start < from {
					st.dirtyK[p] = c.start
				}
				st.tickDirty = true
			}
		}
		st.lastID = t.ID // above the mark, checked at the top
		st.recent = append(st.recent, t)
		if len(st.recent) > RecentTrades {
			st.recent = append(st.recent[:0:0], st.recent[len(st.recent)-RecentTrades:]...)
		}
		st.pending = append(st.pending, t)
		if len(s.listeners) > 0 {
			applied = append(applied, t)
		}
		recentChanged = true
	}
	// The 1min candles and the recent-trades item carry the high-water mark
	// a restart starts from (load), so they are written after the other
	// periods: a crash between the transactions of a large write then
	// leaves the mark behind, and the replayed trades fill the rest in.
	var ops []store.Op
	for _, p := range Periods {
		if p == Min1 {
			continue
		}
		for _, c := range dirty[p] {
			ops = append(ops, store.PutOp(candleItem(sym, p, c), nil))
		}
	}
	for _, c := range dirty[Min1] {
		ops = append(ops, store.PutOp(candleItem(sym, Min1, c), nil))
	}
	if recentChanged {
		list := make([]any, 0, len(st.recent))
		for _, t := range st.recent {
			list = append(list, map[string]any{"id": t.ID, "p": t.Price, "q": t.Qty, "s": t.TakerSide, "t": t.At.UnixMilli()})
		}
		ops = append(ops, store.PutOp(store.Item{store.AttrPK: recentPK, store.AttrSK: sym, "trades": list}, nil))
	}
	return ops, nil
}

// candleFor finds (or creates) the candle of bucket start, reading the store
// for a bucket older than the memory holds (a late replayed trade).
func (s *Service) candleFor(ctx context.Context, st *symState, p Period, start int64) (*candle, error) {
	ser := st.series[p]
	if n := len(ser); n > 0 && ser[n-1].start == start {
		return ser[n-1], nil
	}
	i := sort.Search(len(ser), func(i int) bool { return ser[i].start >= start })
	if i < len(ser) && ser[i].start == start {
		return ser[i], nil
	}
	if i == 0 && len(ser) >= MemoryCandles {
		it, err := s.st.Get(ctx, store.Key{PK: klinePK(st.pair.Symbol, p), SK: klineSK(start)})
		if err == nil {
			return candleFromItem(it), nil // written back but not kept in memory
		}
		if err != store.ErrNotFound {
			return nil, err
		}
		return &candle{start: start}, nil
	}
	c := &candle{start: start}
	ser = append(ser, nil)
	copy(ser[i+1:], ser[i:])
	ser[i] = c
	if len(ser) > MemoryCandles {
		ser = append(ser[:0:0], ser[len(ser)-MemoryCandles:]...)
	}
	st.series[p] = ser
	return c, nil
}

// LastTradeID implements TradeMarks: the id of the last trade applied for
// the symbol, "" when none (or the pair is unknown). Trades queued by
// OnTrades and not applied yet are not counted.
func (s *Service) LastTradeID(symbol string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.state(symbol); st != nil {
		return st.lastID
	}
	return ""
}

// LastPrice is the price of the symbol's last trade.
func (s *Service) LastPrice(symbol string) (decimal.Decimal, bool) {
	ctx := context.Background()
	if s.refresh > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, refreshTimeout)
		defer cancel()
	}
	p, ok, _ := s.lastPriceOf(ctx, symbol)
	return p, ok
}

// lastPriceOf is LastPrice; a reader first reloads the recent trades when
// they are due, and answers the error when it never read them.
func (s *Service) lastPriceOf(ctx context.Context, symbol string) (decimal.Decimal, bool, error) {
	if err := s.refreshSymbol(ctx, symbol, partRecent); err != nil {
		return decimal.Zero, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state(symbol)
	if st == nil {
		return decimal.Zero, false, nil
	}
	p, ok := st.lastPrice()
	return p, ok, nil
}

func (st *symState) lastPrice() (decimal.Decimal, bool) {
	if n := len(st.recent); n > 0 {
		return st.recent[n-1].Price, true
	}
	if m := st.series[Min1]; len(m) > 0 {
		return m[len(m)-1].close, true
	}
	return decimal.Zero, false
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// BestBidAsk is the best bid and ask of the symbol's book as the engine
// last published it; ok is false for an unknown pair or one without a
// published book. The reference price service samples it (refprice.Book).
func (s *Service) BestBidAsk(symbol string) (bid, ask decimal.Decimal, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state(symbol)
	if st == nil || st.depthAt.IsZero() {
		return decimal.Zero, decimal.Zero, false
	}
	if len(st.bids) > 0 {
		bid = st.bids[0].Price
	}
	if len(st.asks) > 0 {
		ask = st.asks[0].Price
	}
	return bid, ask, true
}
