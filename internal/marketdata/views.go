package marketdata

import (
	"context"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Depth steps: 0 is the raw book, 1 and 2 merge levels onto a grid 10 and
// 100 times the pair's price tick.
const MaxDepthStep = 2

// Depth limits.
const (
	DefaultDepthLimit = 100
	MaxDepthLimit     = 200
)

// DepthView is an order book snapshot: [price, quantity] pairs as decimal
// strings, best first. The field names are the ones pushed (buys, asks).
type DepthView struct {
	Buys [][2]string `json:"buys"`
	Asks [][2]string `json:"asks"`
	// TS is the engine's snapshot time in Unix milliseconds (0 before any).
	TS int64 `json:"ts"`
	// Seq is the snapshot's version (0 before any): it increases with
	// every snapshot the service applies for the symbol (see Listener),
	// and across restarts, being at least the snapshot's time in Unix
	// milliseconds. Not pushed; the Binance-compatible API answers it as
	// the depth's lastUpdateId and numbers its diff depth stream with it.
	Seq int64 `json:"-"`
}

// TradeView is a public trade.
type TradeView struct {
	ID     string `json:"id"`
	Side   string `json:"side" doc:"taker side, BUY or SELL"`
	Price  string `json:"price" doc:"with the pair's price decimals"`
	Vol    string `json:"vol" doc:"base quantity"`
	Amount string `json:"amount" doc:"quote amount = price × vol"`
	TS     int64  `json:"ts" doc:"Unix milliseconds"`
	Ds     string `json:"ds" doc:"UTC time yyyy-MM-dd HH:mm:ss"`
}

// Ticker is the 24 h rolling ticker of a symbol, built from one-minute
// candles (the window is the current minute and the 1439 before it).
type Ticker struct {
	Symbol string `json:"symbol"`
	Open   string `json:"open"`
	High   string `json:"high"`
	Low    string `json:"low"`
	Close  string `json:"close" doc:"last price"`
	Vol    string `json:"vol" doc:"base volume"`
	Amount string `json:"amount" doc:"quote volume"`
	Rose   string `json:"rose" doc:"change ratio (close-open)/open, 0.0123 = +1.23%"`
	Count  int64  `json:"count" doc:"number of trades"`
	TS     int64  `json:"ts"`
}

// KlineView is one candle; its prices show the pair's price decimals.
type KlineView struct {
	ID     int64  `json:"id" doc:"bucket start, Unix seconds"`
	Open   string `json:"open"`
	High   string `json:"high"`
	Low    string `json:"low"`
	Close  string `json:"close"`
	Vol    string `json:"vol"`
	Amount string `json:"amount"`
	Count  int64  `json:"count"`
}

func (s *Service) known(symbol string) (*symState, error) {
	st := s.state(symbol)
	if st == nil {
		return nil, apperr.New(apperr.CodeMarketSymbolUnknown, symbol)
	}
	return st, nil
}

// Symbol normalises a symbol ("BTC/USDT" → "btcusdt") or answers
// CodeMarketSymbolUnknown.
func (s *Service) Symbol(symbol string) (string, error) {
	p, ok := s.markets.Pair(symbol)
	if !ok || p.Closed {
		return "", apperr.New(apperr.CodeMarketSymbolUnknown, symbol)
	}
	return p.Symbol, nil
}

// Depth returns the latest book snapshot at a step (0..2), limit levels per side.
func (s *Service) Depth(symbol string, step, limit int) (DepthView, error) {
	if step < 0 || step > MaxDepthStep {
		return DepthView{}, apperr.New(apperr.CodeMarketStepInvalid)
	}
	if limit <= 0 {
		limit = DefaultDepthLimit
	}
	limit = min(limit, MaxDepthLimit)
	if err := s.refreshNow(symbol, partDepth); err != nil {
		return DepthView{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.known(symbol)
	if err != nil {
		return DepthView{}, err
	}
	return st.depthView(step, limit), nil
}

func (st *symState) depthView(step, limit int) DepthView {
	var v DepthView
	if step > 0 && step <= len(st.merged) {
		// Merged views a reader read from a depth item (reader.go).
		m := st.merged[step-1]
		v.Buys, v.Asks = m[0][:min(len(m[0]), limit):min(len(m[0]), limit)], m[1][:min(len(m[1]), limit):min(len(m[1]), limit)]
	} else {
		grid := st.pair.DepthStep(step)
		v = DepthView{Buys: mergeLevels(st.bids, grid, st.pair.PricePrecision, step > 0, true, limit),
			Asks: mergeLevels(st.asks, grid, st.pair.PricePrecision, step > 0, false, limit)}
	}
	if !st.depthAt.IsZero() {
		v.TS = st.depthAt.UnixMilli()
	}
	v.Seq = st.seq
	return v
}

// mergeLevels groups levels (best first) onto the price grid (merge set;
// otherwise the levels are the tick's): bids round down and asks round up,
// so merged levels never cross. Prices show the grid's decimals, at most
// the pair's.
func mergeLevels(levels []Level, grid decimal.Decimal, prec int32, merge bool, bid bool, limit int) [][2]string {
	out := make([][2]string, 0, min(len(levels), limit))
	if merge {
		prec = min(prec, max(-grid.Exponent(), 0))
	}
	var cur, qty decimal.Decimal
	have := false
	emit := func() {
		out = append(out, [2]string{cur.StringFixed(prec), qty.String()})
	}
	for _, l := range levels {
		p := l.Price
		if merge && grid.IsPositive() {
			n := p.Div(grid)
			if bid {
				n = n.Floor()
			} else {
				n = n.Ceil()
			}
			p = n.Mul(grid)
		}
		if have && p.Equal(cur) {
			qty = qty.Add(l.Qty)
			continue
		}
		if have {
			emit()
			if len(out) >= limit {
				return out
			}
		}
		cur, qty, have = p, l.Qty, true
	}
	if have && len(out) < limit {
		emit()
	}
	return out
}

// Trade limits.
const (
	DefaultTradeLimit = 50
	MaxTradeLimit     = RecentTrades
)

// Trades returns the recent trades, newest first.
func (s *Service) Trades(symbol string, limit int) ([]TradeView, error) {
	if limit <= 0 {
		limit = DefaultTradeLimit
	}
	limit = min(limit, MaxTradeLimit)
	if err := s.refreshNow(symbol, partRecent); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.known(symbol)
	if err != nil {
		return nil, err
	}
	out := make([]TradeView, 0, min(limit, len(st.recent)))
	for i := len(st.recent) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, tradeView(st.recent[i], st.pair.PricePrecision))
	}
	return out, nil
}

// tradeView shows the price with the pair's decimals, as tickers and depth
// do.
func tradeView(t Trade, prec int32) TradeView {
	return TradeView{ID: t.ID, Side: t.TakerSide, Price: t.Price.StringFixed(prec), Vol: t.Qty.String(),
		Amount: t.Price.Mul(t.Qty).String(), TS: t.At.UnixMilli(), Ds: t.At.UTC().Format("2006-01-02 15:04:05")}
}

// Ticker returns the 24 h ticker of a symbol.
func (s *Service) Ticker(symbol string) (Ticker, error) {
	if err := s.refreshNow(symbol, partRecent, candlePart(Min1)); err != nil {
		return Ticker{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.known(symbol)
	if err != nil {
		return Ticker{}, err
	}
	return st.ticker(s.now()), nil
}

// Tickers returns the 24 h tickers of every open pair, by symbol. A reader
// leaves out a pair it could not read at all.
func (s *Service) Tickers() map[string]Ticker {
	pairs := s.markets.List()
	var failed map[string]bool
	if s.refresh > 0 {
		syms := make([]string, len(pairs))
		for i, p := range pairs {
			syms[i] = p.Symbol
		}
		failed = s.refreshAll(syms, partRecent, candlePart(Min1))
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]Ticker{}
	for _, p := range pairs {
		if failed[p.Symbol] {
			continue
		}
		if st := s.state(p.Symbol); st != nil {
			out[p.Symbol] = st.ticker(now)
		}
	}
	return out
}

func (st *symState) ticker(now time.Time) Ticker {
	t, _ := st.tickerLeave(now)
	return t
}

// tickerWindow is the length of the ticker's window, in seconds: the
// current minute and the 1439 before it.
const tickerWindow = 1440 * 60

// tickerLeave is ticker, and the Unix second at which the window's oldest
// candle leaves it (the ticker changes then although nothing traded), or
// noLeave when the window holds no candle.
func (st *symState) tickerLeave(now time.Time) (Ticker, int64) {
	from := Min1.BucketStart(now) - 1439*60
	var open, high, low, vol, amount decimal.Decimal
	var count int64
	started := false
	leave := int64(noLeave)
	for _, c := range st.series[Min1] {
		if c.start < from || c.count == 0 {
			continue
		}
		if !started {
			open, high, low, started = c.open, c.high, c.low, true
			// The series is ascending: the first counted candle is the
			// oldest, out of the window once its start is a window ago.
			leave = c.start + tickerWindow
		}
		high = decimal.Max(high, c.high)
		low = decimal.Min(low, c.low)
		vol = vol.Add(c.vol)
		amount = amount.Add(c.amount)
		count += c.count
	}
	last, ok := st.lastPrice()
	if !started {
		open, high, low = last, last, last
	}
	rose := decimal.Zero
	if ok && open.IsPositive() {
		rose = last.Sub(open).DivRound(open, 6)
	}
	prec := st.pair.PricePrecision
	f := func(d decimal.Decimal) string { return d.StringFixed(prec) }
	return Ticker{Symbol: st.pair.Symbol, Open: f(open), High: f(high), Low: f(low), Close: f(last),
		Vol: vol.String(), Amount: amount.String(), Rose: rose.String(), Count: count, TS: now.UnixMilli()}, leave
}

// SparkPoints is how many points Sparkline returns once a pair has traded.
const SparkPoints = 24

// Sparkline returns SparkPoints prices, oldest first, that draw a pair's
// last 24 hours: the close of each hour (the current hour's close so far
// last; hours without trades repeat the previous close). A pair first
// traded within those hours has no price for the hours before, so its
// line covers the time since its first trade instead: its price at
// SparkPoints even steps from the start of its first trade's minute to
// now (read from the one-minute candles), so a new pair's line has as many
// points as an old one's. Together with the 24 h ticker's open, the price
// where the line starts, a client draws SparkPoints+1 points. Empty before
// the first trade.
func (s *Service) Sparkline(symbol string) []string {
	if err := s.refreshNow(symbol, candlePart(Min60)); err != nil {
		return []string{}
	}
	now := s.now()
	s.mu.Lock()
	st := s.state(symbol)
	if st == nil {
		s.mu.Unlock()
		return []string{}
	}
	out, since := st.hourlySparkline(now)
	s.mu.Unlock()
	if since < 0 {
		return out
	}
	// A young pair: its minutes (a reader loads them; a fed service holds
	// every one-minute candle of the window).
	if err := s.refreshNow(symbol, candlePart(Min1)); err != nil {
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if young := st.youngSparkline(since, now); len(young) > 0 {
		return young
	}
	return out
}

// hourlySparkline returns the closes of the hours of the last 24 that have
// a price, and since, the start of the pair's first hour with trades when
// that lies within them (the line then has fewer than SparkPoints points),
// else -1.
func (st *symState) hourlySparkline(now time.Time) (out []string, since int64) {
	ser := st.series[Min60]
	out = []string{}
	if len(ser) == 0 {
		return out, -1
	}
	first := Min60.BucketStart(now) - (SparkPoints-1)*3600
	var prev decimal.Decimal
	have := false
	i := 0
	for ; i < len(ser) && ser[i].start < first; i++ {
		prev, have = ser[i].close, true
	}
	for h := first; h <= Min60.BucketStart(now); h += 3600 {
		if i < len(ser) && ser[i].start == h {
			prev, have = ser[i].close, true
			i++
		}
		if have {
			out = append(out, prev.StringFixed(st.pair.PricePrecision))
		}
	}
	if len(out) < SparkPoints && len(out) > 0 && len(ser) < MemoryCandles {
		return out, ser[0].start
	}
	return out, -1
}

// youngSparkline samples the one-minute closes of a pair whose first trade
// was in the hour starting at since: SparkPoints prices at even steps from
// the start of its first minute to the current minute, each the close of
// the newest minute at or before its time. Empty unless the minutes held
// start in that hour (they always do: candles are added at the newest end
// only, and a pair younger than the window has fewer minutes than memory
// keeps).
func (st *symState) youngSparkline(since int64, now time.Time) []string {
	ser := st.series[Min1]
	if len(ser) == 0 || ser[0].start < since || ser[0].start >= since+3600 {
		return nil
	}
	i := 0
	from, end := ser[i].start, Min1.BucketStart(now)
	if end < from {
		return nil
	}
	out := make([]string, 0, SparkPoints)
	for k := int64(1); k <= SparkPoints; k++ {
		at := from + (end-from)*k/SparkPoints
		for i+1 < len(ser) && ser[i+1].start <= at {
			i++
		}
		out = append(out, ser[i].close.StringFixed(st.pair.PricePrecision))
	}
	return out
}

// Kline limits.
const (
	DefaultKlineLimit = 300
	MaxKlineLimit     = 1500
)

// Klines returns up to limit candles of a period, oldest first, whose bucket
// start lies in [from, to] (Unix seconds; zero means unbounded). Without
// from it returns the newest ones. Buckets without trades are absent.
func (s *Service) Klines(ctx context.Context, symbol string, p Period, from, to int64, limit int) ([]KlineView, error) {
	if limit < 0 || (from > 0 && to > 0 && from > to) {
		return nil, apperr.New(apperr.CodeMarketRangeInvalid)
	}
	if limit == 0 {
		limit = DefaultKlineLimit
	}
	limit = min(limit, MaxKlineLimit)
	if to <= 0 {
		to = 1<<62 - 1
	}
	if err := s.refreshSymbol(ctx, symbol, candlePart(p)); err != nil {
		return nil, err
	}
	s.mu.Lock()
	st, err := s.known(symbol)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	ser := st.series[p]
	// Memory holds everything when the series is short, or the newest part.
	inMemory := len(ser) < MemoryCandles || (len(ser) > 0 && from >= ser[0].start)
	if inMemory {
		var out []KlineView
		lo := sort.Search(len(ser), func(i int) bool { return ser[i].start >= from })
		hi := sort.Search(len(ser), func(i int) bool { return ser[i].start > to })
		sel := ser[lo:hi]
		if from > 0 && len(sel) > limit {
			sel = sel[:limit]
		} else if len(sel) > limit {
			sel = sel[len(sel)-limit:]
		}
		if from <= 0 && len(sel) < limit && len(ser) >= MemoryCandles {
			inMemory = false // the caller wants more than memory holds
		} else {
			out = make([]KlineView, 0, len(sel))
			for _, c := range sel {
				out = append(out, klineView(c, st.pair.PricePrecision))
			}
			s.mu.Unlock()
			return out, nil
		}
	}
	sym, prec := st.pair.Symbol, st.pair.PricePrecision
	s.mu.Unlock()
	q := store.Query{PK: klinePK(sym, p), SK: store.SKRange(klineSK(max(from, 0)), klineSK(min(to, 999999999999))),
		Desc: from <= 0}
	var got []*candle
	for len(got) < limit {
		q.Limit = limit - len(got)
		page, err := s.st.Query(ctx, q)
		if err != nil {
			return nil, apperr.New(apperr.CodeInternal).WithCause(err)
		}
		for _, it := range page.Items {
			got = append(got, candleFromItem(it))
		}
		if page.Cursor == "" {
			break
		}
		q.Cursor = page.Cursor
	}
	sort.Slice(got, func(i, j int) bool { return got[i].start < got[j].start })
	out := make([]KlineView, 0, len(got))
	for _, c := range got {
		out = append(out, klineView(c, prec))
	}
	return out, nil
}

// klineView shows the prices with the pair's decimals, as tickers do.
func klineView(c *candle, prec int32) KlineView {
	f := func(d decimal.Decimal) string { return d.StringFixed(prec) }
	return KlineView{ID: c.start, Open: f(c.open), High: f(c.high), Low: f(c.low),
		Close: f(c.close), Vol: c.vol.String(), Amount: c.amount.String(), Count: c.count}
}
