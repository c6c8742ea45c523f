package binance

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/marketdata"
	"tenger/internal/markets"
)

// Ticker endpoints: ticker/24hr, ticker/price, ticker/bookTicker and the
// rolling window ticker.
func (s *Server) addTickerRoutes() {
	s.route(http.MethodGet, "/api/v3/ticker/24hr", 2, SecNone, s.ticker24hr).
		params("symbol", "symbols", "type", "symbolStatus").weigh(ticker24Weight)
	s.route(http.MethodGet, "/api/v3/ticker/price", 2, SecNone, s.tickerPrice).
		params("symbol", "symbols", "symbolStatus").weigh(lightTickerWeight)
	s.route(http.MethodGet, "/api/v3/ticker/bookTicker", 2, SecNone, s.bookTicker).
		params("symbol", "symbols", "symbolStatus").weigh(lightTickerWeight)
	s.route(http.MethodGet, "/api/v3/ticker", 4, SecNone, s.rollingTicker).
		params("symbol", "symbols", "windowSize", "type", "symbolStatus").weigh(rollingWeight)
}

// ticker24Weight: a symbol 2; symbols 1-20 → 2, 21-100 → 40, more → 80;
// every symbol 80.
func ticker24Weight(p *Params) int {
	if p.Has("symbol") {
		return 2
	}
	n := symbolsCount(p)
	switch {
	case n == 0:
		return 80
	case n <= 20:
		return 2
	case n <= 100:
		return 40
	}
	return 80
}

// lightTickerWeight (ticker/price, bookTicker): a symbol 2, otherwise 4.
func lightTickerWeight(p *Params) int {
	if p.Has("symbol") {
		return 2
	}
	return 4
}

// rollingWeight: 4 per symbol, 200 for more than 50.
func rollingWeight(p *Params) int {
	if p.Has("symbol") {
		return 4
	}
	n := symbolsCount(p)
	if n > 50 {
		return 200
	}
	return 4 * max(n, 1)
}

// MaxRollingSymbols is how many symbols the rolling ticker takes.
const MaxRollingSymbols = 100

// tickerType reads type: FULL (default) or MINI; another value is -1139.
func tickerType(p *Params) (bool, error) {
	v, sent, err := p.String("type", false)
	if err != nil || !sent {
		return false, err
	}
	switch v {
	case "FULL":
		return false, nil
	case "MINI":
		return true, nil
	}
	return false, ErrInvalidTickerType()
}

// Ticker24 is the FULL 24 h ticker, fields in Binance's order.
type Ticker24 struct {
	Symbol             string `json:"symbol"`
	PriceChange        string `json:"priceChange"`
	PriceChangePercent string `json:"priceChangePercent"`
	WeightedAvgPrice   string `json:"weightedAvgPrice"`
	PrevClosePrice     string `json:"prevClosePrice"`
	LastPrice          string `json:"lastPrice"`
	LastQty            string `json:"lastQty"`
	BidPrice           string `json:"bidPrice"`
	BidQty             string `json:"bidQty"`
	AskPrice           string `json:"askPrice"`
	AskQty             string `json:"askQty"`
	OpenPrice          string `json:"openPrice"`
	HighPrice          string `json:"highPrice"`
	LowPrice           string `json:"lowPrice"`
	Volume             string `json:"volume"`
	QuoteVolume        string `json:"quoteVolume"`
	OpenTime           int64  `json:"openTime"`
	CloseTime          int64  `json:"closeTime"`
	FirstID            int64  `json:"firstId"`
	LastID             int64  `json:"lastId"`
	Count              int64  `json:"count"`
}

// TickerMini is the MINI ticker (24 h and rolling).
type TickerMini struct {
	Symbol      string `json:"symbol"`
	OpenPrice   string `json:"openPrice"`
	HighPrice   string `json:"highPrice"`
	LowPrice    string `json:"lowPrice"`
	LastPrice   string `json:"lastPrice"`
	Volume      string `json:"volume"`
	QuoteVolume string `json:"quoteVolume"`
	OpenTime    int64  `json:"openTime"`
	CloseTime   int64  `json:"closeTime"`
	FirstID     int64  `json:"firstId"`
	LastID      int64  `json:"lastId"`
	Count       int64  `json:"count"`
}

// TickerRolling is the FULL rolling window ticker.
type TickerRolling struct {
	Symbol             string `json:"symbol"`
	PriceChange        string `json:"priceChange"`
	PriceChangePercent string `json:"priceChangePercent"`
	WeightedAvgPrice   string `json:"weightedAvgPrice"`
	OpenPrice          string `json:"openPrice"`
	HighPrice          string `json:"highPrice"`
	LowPrice           string `json:"lowPrice"`
	LastPrice          string `json:"lastPrice"`
	Volume             string `json:"volume"`
	QuoteVolume        string `json:"quoteVolume"`
	OpenTime           int64  `json:"openTime"`
	CloseTime          int64  `json:"closeTime"`
	FirstID            int64  `json:"firstId"`
	LastID             int64  `json:"lastId"`
	Count              int64  `json:"count"`
}

// stats are a window's figures.
type stats struct {
	open, high, low, last decimal.Decimal
	vol, amount           decimal.Decimal
	count                 int64
	openTime, closeTime   int64 // Unix ms
	firstID, lastID       int64
}

func (st stats) change(pr markets.Pair) (abs, pct, wavg string) {
	abs = fmtPrice(pr, st.last.Sub(st.open))
	p := decimal.Zero
	if st.open.IsPositive() {
		p = st.last.Sub(st.open).Mul(decimal.NewFromInt(100)).DivRound(st.open, 3)
	}
	w := decimal.Zero
	if st.vol.IsPositive() {
		w = st.amount.DivRound(st.vol, avgDecimals(pr))
	}
	return abs, p.StringFixed(3), w.StringFixed(avgDecimals(pr))
}

func (st stats) mini(pr markets.Pair) TickerMini {
	return TickerMini{Symbol: SymbolOf(pr), OpenPrice: fmtPrice(pr, st.open), HighPrice: fmtPrice(pr, st.high),
		LowPrice: fmtPrice(pr, st.low), LastPrice: fmtPrice(pr, st.last), Volume: fmtQty(pr, st.vol),
		QuoteVolume: fmtQuote(pr, st.amount), OpenTime: st.openTime, CloseTime: st.closeTime,
		FirstID: st.firstID, LastID: st.lastID, Count: st.count}
}

// setIDs sets the window's first and last trade ids: the engine numbers a
// pair's trades 1, 2, 3..., and a window reaching to now holds the newest
// count of them; -1 for both without trades (as Binance).
func (st *stats) setIDs(newest int64) {
	st.firstID, st.lastID = -1, -1
	if st.count > 0 && newest > 0 {
		st.lastID = newest
		st.firstID = max(newest-st.count+1, 0)
	}
}

// newestTrade is the pair's last trade (ok false before any).
func (s *Server) newestTrade(pr markets.Pair) (marketdata.TradeView, bool, error) {
	list, err := s.md.Trades(pr.Symbol, 1)
	if err != nil || len(list) == 0 {
		return marketdata.TradeView{}, false, err
	}
	return list[0], true, nil
}

// bookTop is the best bid and ask with their quantities (zeros on an
// empty side).
func (s *Server) bookTop(pr markets.Pair) (bid, bidQty, ask, askQty string, err error) {
	v, err := s.md.Depth(pr.Symbol, 0, 1)
	if err != nil {
		return "", "", "", "", err
	}
	bid, bidQty, ask, askQty = fmtPrice(pr, decimal.Zero), fmtQty(pr, decimal.Zero), fmtPrice(pr, decimal.Zero), fmtQty(pr, decimal.Zero)
	if len(v.Buys) > 0 {
		bid, bidQty = fmtPrice(pr, dec(v.Buys[0][0])), fmtQty(pr, dec(v.Buys[0][1]))
	}
	if len(v.Asks) > 0 {
		ask, askQty = fmtPrice(pr, dec(v.Asks[0][0])), fmtQty(pr, dec(v.Asks[0][1]))
	}
	return bid, bidQty, ask, askQty, nil
}

// ticker24Window is the 24 h ticker's window in seconds: market data's
// ticker counts the current minute and the 1439 before it.
const ticker24Window = 1439 * 60

// ticker24hr answers market data's 24 h ticker (the one the web app
// shows): openTime is the start of its window's first minute, closeTime
// the time of the answer.
func (s *Server) ticker24hr(c *Call) (any, error) {
	mini, err := tickerType(c.Params)
	if err != nil {
		return nil, err
	}
	sel, err := s.selectPairs(c.Params, false)
	if err != nil {
		return nil, err
	}
	var all map[string]marketdata.Ticker
	if !sel.single && !c.Params.Has("symbols") {
		all = s.md.Tickers() // one pass, and a reader reloads the pairs in parallel
	}
	out := make([]any, 0, len(sel.pairs))
	for _, pr := range sel.pairs {
		var t marketdata.Ticker
		if all != nil {
			var ok bool
			if t, ok = all[pr.Symbol]; !ok {
				continue // market data could not read the pair
			}
		} else if t, err = s.md.Ticker(pr.Symbol); err != nil {
			return nil, err
		}
		v, err := s.ticker24(c.Ctx, pr, t, mini)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if sel.single {
		return out[0], nil
	}
	return out, nil
}

func (s *Server) ticker24(ctx context.Context, pr markets.Pair, t marketdata.Ticker, mini bool) (any, error) {
	st := stats{open: dec(t.Open), high: dec(t.High), low: dec(t.Low), last: dec(t.Close), vol: dec(t.Vol),
		amount: dec(t.Amount), count: t.Count, closeTime: t.TS}
	windowStart := marketdata.Min1.BucketStart(time.UnixMilli(t.TS)) - ticker24Window
	st.openTime = windowStart * 1000
	newest, traded, err := s.newestTrade(pr)
	if err != nil {
		return nil, err
	}
	st.setIDs(tradeID(newest.ID))
	if mini {
		return st.mini(pr), nil
	}
	prevClose := decimal.Zero
	before, err := s.md.Klines(ctx, pr.Symbol, marketdata.Min1, 0, windowStart-1, 1)
	if err != nil {
		return nil, err
	}
	if len(before) > 0 {
		prevClose = dec(before[0].Close)
	}
	lastQty := decimal.Zero
	if traded {
		lastQty = dec(newest.Vol)
	}
	bid, bidQty, ask, askQty, err := s.bookTop(pr)
	if err != nil {
		return nil, err
	}
	abs, pct, wavg := st.change(pr)
	return Ticker24{Symbol: SymbolOf(pr), PriceChange: abs, PriceChangePercent: pct, WeightedAvgPrice: wavg,
		PrevClosePrice: fmtPrice(pr, prevClose), LastPrice: fmtPrice(pr, st.last), LastQty: fmtQty(pr, lastQty),
		BidPrice: bid, BidQty: bidQty, AskPrice: ask, AskQty: askQty, OpenPrice: fmtPrice(pr, st.open),
		HighPrice: fmtPrice(pr, st.high), LowPrice: fmtPrice(pr, st.low), Volume: fmtQty(pr, st.vol),
		QuoteVolume: fmtQuote(pr, st.amount), OpenTime: st.openTime, CloseTime: st.closeTime,
		FirstID: st.firstID, LastID: st.lastID, Count: st.count}, nil
}

// PriceTicker is ticker/price.
type PriceTicker struct {
	Symbol string `json:"symbol"`
	Price  string `json:"price"`
}

// BookTicker is ticker/bookTicker.
type BookTicker struct {
	Symbol   string `json:"symbol"`
	BidPrice string `json:"bidPrice"`
	BidQty   string `json:"bidQty"`
	AskPrice string `json:"askPrice"`
	AskQty   string `json:"askQty"`
}

// tickerPrice answers the last trade price (zero before any trade).
func (s *Server) tickerPrice(c *Call) (any, error) {
	sel, err := s.selectPairs(c.Params, false)
	if err != nil {
		return nil, err
	}
	out := make([]PriceTicker, 0, len(sel.pairs))
	for _, pr := range sel.pairs {
		px, _ := s.md.LastPrice(pr.Symbol)
		out = append(out, PriceTicker{Symbol: SymbolOf(pr), Price: fmtPrice(pr, px)})
	}
	if sel.single {
		return out[0], nil
	}
	return out, nil
}

// bookTicker answers the best bid and ask of the book market data last
// received.
func (s *Server) bookTicker(c *Call) (any, error) {
	sel, err := s.selectPairs(c.Params, false)
	if err != nil {
		return nil, err
	}
	out := make([]BookTicker, 0, len(sel.pairs))
	for _, pr := range sel.pairs {
		bid, bidQty, ask, askQty, err := s.bookTop(pr)
		if err != nil {
			return nil, err
		}
		out = append(out, BookTicker{Symbol: SymbolOf(pr), BidPrice: bid, BidQty: bidQty, AskPrice: ask, AskQty: askQty})
	}
	if sel.single {
		return out[0], nil
	}
	return out, nil
}

var windowSizeRE = regexp.MustCompile(`^([1-9][0-9]?)([mhd])$`)

// windowSizeParam reads windowSize (1m..59m, 1h..23h, 1d..7d; default
// 1d) in seconds.
func windowSizeParam(p *Params) (int64, error) {
	v, sent, err := p.String("windowSize", false)
	if err != nil {
		return 0, err
	}
	if !sent {
		return 86400, nil
	}
	m := windowSizeRE.FindStringSubmatch(v)
	if m == nil {
		return 0, ErrInvalidParam("windowSize")
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	switch {
	case m[2] == "m" && n <= 59:
		return n * 60, nil
	case m[2] == "h" && n <= 23:
		return n * 3600, nil
	case m[2] == "d" && n <= 7:
		return n * 86400, nil
	}
	return 0, ErrInvalidParam("windowSize")
}

// rollingTicker answers the rolling window ticker. As on Binance the
// window opens on a minute, windowSize before the current minute's start,
// and closes now; it is summed from candles: one-minute ones at its ends
// and hourly ones between, so every windowSize is exact to the minute.
func (s *Server) rollingTicker(c *Call) (any, error) {
	window, err := windowSizeParam(c.Params)
	if err != nil {
		return nil, err
	}
	mini, err := tickerType(c.Params)
	if err != nil {
		return nil, err
	}
	if n := symbolsCount(c.Params); n > MaxRollingSymbols {
		return nil, ErrTooManyParams(MaxRollingSymbols, n)
	}
	sel, err := s.selectPairs(c.Params, true)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(sel.pairs))
	for _, pr := range sel.pairs {
		st, err := s.rolling(c.Ctx, pr, c.Now, window)
		if err != nil {
			return nil, err
		}
		if mini {
			out = append(out, st.mini(pr))
			continue
		}
		abs, pct, wavg := st.change(pr)
		out = append(out, TickerRolling{Symbol: SymbolOf(pr), PriceChange: abs, PriceChangePercent: pct,
			WeightedAvgPrice: wavg, OpenPrice: fmtPrice(pr, st.open), HighPrice: fmtPrice(pr, st.high),
			LowPrice: fmtPrice(pr, st.low), LastPrice: fmtPrice(pr, st.last), Volume: fmtQty(pr, st.vol),
			QuoteVolume: fmtQuote(pr, st.amount), OpenTime: st.openTime, CloseTime: st.closeTime,
			FirstID: st.firstID, LastID: st.lastID, Count: st.count})
	}
	if sel.single {
		return out[0], nil
	}
	return out, nil
}

// rolling sums the window [minute start of now - window, now].
func (s *Server) rolling(ctx context.Context, pr markets.Pair, now time.Time, window int64) (stats, error) {
	cur := marketdata.Min1.BucketStart(now)
	from := cur - window
	st := stats{openTime: from * 1000, closeTime: now.UnixMilli()}
	type seg struct {
		p        marketdata.Period
		from, to int64
		step     int64
	}
	var segs []seg
	if (cur-from)/60 < 180 {
		segs = []seg{{marketdata.Min1, from, cur, 60}}
	} else {
		h1 := marketdata.Min60.BucketStart(time.Unix(from, 0))
		if h1 < from {
			h1 += 3600
		}
		h2 := marketdata.Min60.BucketStart(now)
		segs = []seg{{marketdata.Min1, from, h1 - 60, 60}, {marketdata.Min60, h1, h2 - 3600, 3600},
			{marketdata.Min1, h2, cur, 60}}
	}
	started := false
	for _, sg := range segs {
		if sg.to < sg.from {
			continue
		}
		ks, err := s.md.Klines(ctx, pr.Symbol, sg.p, sg.from, sg.to, int((sg.to-sg.from)/sg.step)+1)
		if err != nil {
			return stats{}, err
		}
		for _, k := range ks {
			if k.Count == 0 {
				continue
			}
			if !started {
				st.open, st.high, st.low, started = dec(k.Open), dec(k.High), dec(k.Low), true
			}
			st.high = decimal.Max(st.high, dec(k.High))
			st.low = decimal.Min(st.low, dec(k.Low))
			st.last = dec(k.Close)
			st.vol = st.vol.Add(dec(k.Vol))
			st.amount = st.amount.Add(dec(k.Amount))
			st.count += k.Count
		}
	}
	newest, traded, err := s.newestTrade(pr)
	if err != nil {
		return stats{}, err
	}
	if !started {
		// No trade in the window: every price is the last one.
		if traded {
			st.last = dec(newest.Price)
		}
		st.open, st.high, st.low = st.last, st.last, st.last
	}
	st.setIDs(tradeID(newest.ID))
	return st, nil
}
