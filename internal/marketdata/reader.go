package marketdata

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// A reader (Options.Refresh > 0) serves market data that another process
// keeps: in AWS the engine task is fed by the engine and writes candles,
// the recent trades and the depth items, while the Lambda functions read
// them. A symbol's state is split into parts, each reloaded on its own
// when a read needs it and it was read more than Refresh ago:
//
//	depth      one Get of the depth item (Depth)
//	recent     one Get of the recent-trades item (Trades, Ticker, LastPrice)
//	candles    one Query per period (Ticker: 1min; Sparkline: 60min; Klines)
//
// The first read of a period loads its newest MemoryCandles candles, as
// New does; later reloads query only from the newest candle in memory on
// (the writer changes candles at the newest end only: trades are applied
// in time order), usually one or two items. Reloads of one symbol are
// serialised, so concurrent requests share one reload; different symbols
// reload in parallel. When a reload fails, what was read before is served
// (and the failure logged); a part never read answers an internal error.

// part is one separately reloaded piece of a symbol's state.
type part int

const (
	partRecent part = iota
	partDepth
	partCandles // + the period's index in Periods
)

func candlePart(p Period) part {
	for i, q := range Periods {
		if q == p {
			return partCandles + part(i)
		}
	}
	return partCandles
}

// refreshTimeout bounds a reload made for a call that has no context.
const refreshTimeout = 5 * time.Second

// refreshParallel is how many symbols Tickers reloads at once.
const refreshParallel = 8

// refreshSymbol reloads the parts of the symbol's state that are older than
// the refresh interval; it does nothing unless the service is a reader. An
// unknown symbol is left to the caller's own check.
func (s *Service) refreshSymbol(ctx context.Context, symbol string, parts ...part) error {
	if s.refresh <= 0 {
		return nil
	}
	s.mu.Lock()
	st := s.state(symbol)
	s.mu.Unlock()
	if st == nil {
		return nil
	}
	st.loadMu.Lock()
	defer st.loadMu.Unlock()
	for _, p := range parts {
		now := s.now()
		last, ok := st.fresh[p]
		if ok && now.Sub(last) < s.refresh && !now.Before(last) {
			continue
		}
		if err := s.reload(ctx, st, p); err != nil {
			if !ok {
				return apperr.New(apperr.CodeInternal).WithCause(err)
			}
			s.log.Warn().Err(err).Str("symbol", st.pair.Symbol).Msg("marketdata: reload failed; serving the last state read")
			continue
		}
		// Stamped with the time the read started: the data is at least
		// this fresh.
		st.fresh[p] = now
	}
	return nil
}

// refreshNow is refreshSymbol for calls without a context.
func (s *Service) refreshNow(symbol string, parts ...part) error {
	if s.refresh <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	return s.refreshSymbol(ctx, symbol, parts...)
}

// refreshAll reloads the parts of every listed symbol, several symbols at
// once, and returns the symbols whose reload failed before any state was read.
func (s *Service) refreshAll(symbols []string, parts ...part) map[string]bool {
	if s.refresh <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	defer cancel()
	var (
		mu     sync.Mutex
		failed = map[string]bool{}
		wg     sync.WaitGroup
		sem    = make(chan struct{}, refreshParallel)
	)
	for _, sym := range symbols {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := s.refreshSymbol(ctx, sym, parts...); err != nil {
				s.log.Warn().Err(err).Str("symbol", sym).Msg("marketdata: load failed")
				mu.Lock()
				failed[sym] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}

// reload reads one part of the symbol's state from the store and puts it
// in memory. The caller holds st.loadMu.
func (s *Service) reload(ctx context.Context, st *symState, p part) error {
	sym := st.pair.Symbol
	switch p {
	case partRecent:
		recent, err := s.readRecent(ctx, sym)
		if err != nil {
			return err
		}
		s.mu.Lock()
		st.recent = recent
		if n := len(recent); n > 0 {
			st.lastID = recent[n-1].ID
		}
		s.mu.Unlock()
		return nil
	case partDepth:
		it, err := s.st.Get(ctx, store.Key{PK: depthPK, SK: sym})
		if err != nil && err != store.ErrNotFound {
			return err
		}
		dv := depthFromItem(it) // an empty book when there is no item
		s.mu.Lock()
		st.bids, st.asks, st.merged, st.depthAt, st.seq = dv.bids, dv.asks, dv.merged, dv.at, dv.seq
		s.mu.Unlock()
		return nil
	}
	per := Periods[p-partCandles]
	_, loaded := st.fresh[p]
	s.mu.Lock()
	ser := st.series[per]
	var from int64 = -1
	if loaded && len(ser) > 0 {
		from = ser[len(ser)-1].start
	}
	s.mu.Unlock()
	sk := store.SKCond{}
	if from >= 0 {
		sk = store.SKCond{Kind: store.SKGe, A: klineSK(from)}
	}
	got, err := s.newestCandles(ctx, sym, per, sk)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if from < 0 || len(got) >= MemoryCandles {
		st.series[per] = got
		return nil
	}
	// Only this process's reloads change the series (under loadMu), so it
	// is the one read above: keep the candles before from, take the rest.
	ser = st.series[per]
	i := sort.Search(len(ser), func(i int) bool { return ser[i].start >= from })
	merged := append(ser[:i:i], got...)
	if len(merged) > MemoryCandles {
		merged = merged[len(merged)-MemoryCandles:]
	}
	st.series[per] = merged
	return nil
}

// The depth item (pk "md#depth", sk <symbol>) holds what the REST depth
// call answers at every step, written by the fed service at most once per
// DepthStoreInterval per symbol when the book changed:
//
//	t        the engine's snapshot time, Unix ms
//	u        the snapshot's version (DepthView.Seq; an item without it,
//	         written before versions were kept, reads as version t)
//	b, a     the best MaxDepthLimit bids and asks, "price,qty;price,qty;..."
//	m        true when a side had more levels than that: then
//	b1, a1,  the merged views of steps 1 and 2 (MaxDepthLimit levels each,
//	b2, a2   as Depth shows them) are stored too, since the stored levels
//	         no longer hold every level a merged bucket adds up
//
// An empty side is left out. At most 6 lists of 200 levels, some tens of
// kilobytes, well under DynamoDB's 400 KB item limit.
func depthItem(st *symState) store.Item {
	it := store.Item{store.AttrPK: depthPK, store.AttrSK: st.pair.Symbol}
	if !st.depthAt.IsZero() {
		it["t"] = st.depthAt.UnixMilli()
	}
	if st.seq > 0 {
		it["u"] = st.seq
	}
	put := func(name, v string) {
		if v != "" {
			it[name] = v
		}
	}
	put("b", encodeLevels(st.bids[:min(len(st.bids), MaxDepthLimit)]))
	put("a", encodeLevels(st.asks[:min(len(st.asks), MaxDepthLimit)]))
	if len(st.bids) > MaxDepthLimit || len(st.asks) > MaxDepthLimit {
		it["m"] = true
		for step := 1; step <= MaxDepthStep; step++ {
			v := st.depthView(step, MaxDepthLimit)
			n := strconv.Itoa(step)
			put("b"+n, encodeView(v.Buys))
			put("a"+n, encodeView(v.Asks))
		}
	}
	return it
}

type storedDepth struct {
	bids, asks []Level
	merged     [][2][][2]string
	at         time.Time
	seq        int64
}

// depthFromItem reads a depth item (nil: an empty book).
func depthFromItem(it store.Item) storedDepth {
	var d storedDepth
	if it == nil {
		return d
	}
	if ms := it.Int("t"); ms > 0 {
		d.at = time.UnixMilli(ms).UTC()
		d.seq = ms
	}
	if u := it.Int("u"); u > 0 {
		d.seq = u
	}
	d.bids, d.asks = decodeLevels(it.Str("b")), decodeLevels(it.Str("a"))
	if it.Bool("m") {
		d.merged = make([][2][][2]string, MaxDepthStep)
		for step := 1; step <= MaxDepthStep; step++ {
			n := strconv.Itoa(step)
			d.merged[step-1] = [2][][2]string{decodeView(it.Str("b" + n)), decodeView(it.Str("a" + n))}
		}
	}
	return d
}

func encodeLevels(ls []Level) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(l.Price.String())
		b.WriteByte(',')
		b.WriteString(l.Qty.String())
	}
	return b.String()
}

func encodeView(v [][2]string) string {
	var b strings.Builder
	for i, l := range v {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(l[0])
		b.WriteByte(',')
		b.WriteString(l[1])
	}
	return b.String()
}

func decodeView(s string) [][2]string {
	out := [][2]string{}
	if s == "" {
		return out
	}
	for _, e := range strings.Split(s, ";") {
		p, q, ok := strings.Cut(e, ",")
		if ok {
			out = append(out, [2]string{p, q})
		}
	}
	return out
}

func decodeLevels(s string) []Level {
	v := decodeView(s)
	out := make([]Level, 0, len(v))
	for _, e := range v {
		p, err1 := decimal.NewFromString(e[0])
		q, err2 := decimal.NewFromString(e[1])
		if err1 == nil && err2 == nil {
			out = append(out, Level{Price: p, Qty: q})
		}
	}
	return out
}

// depthStoreParallel is how many depth items are written at once.
const depthStoreParallel = 8

// storeDepth writes the depth item of every symbol whose book changed and
// whose item was written DepthStoreInterval ago or more (all changed ones
// when final). A failed write is tried again after another interval; it
// never holds up the trades. Sync calls it, so writes are in order.
func (s *Service) storeDepth(ctx context.Context, now time.Time, final bool) {
	var items []store.Item
	var sts []*symState
	s.mu.Lock()
	for _, st := range s.syms {
		if st.depthStore && (final || now.Sub(st.depthStoredAt) >= DepthStoreInterval || now.Before(st.depthStoredAt)) {
			items = append(items, depthItem(st))
			sts = append(sts, st)
			st.depthStore, st.depthStoredAt = false, now
		}
	}
	s.mu.Unlock()
	if len(items) == 0 {
		return
	}
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	sem := make(chan struct{}, depthStoreParallel)
	for i, it := range items {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = s.st.Put(ctx, it, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			continue
		}
		s.log.Warn().Err(err).Str("symbol", sts[i].pair.Symbol).Msg("marketdata: depth item not stored")
		s.mu.Lock()
		sts[i].depthStore = true
		s.mu.Unlock()
	}
}
