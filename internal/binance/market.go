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

// Market data endpoints: depth, trades, historicalTrades, aggTrades,
// klines, uiKlines, avgPrice.
func (s *Server) addMarketRoutes() {
	s.route(http.MethodGet, "/api/v3/depth", 5, SecNone, s.depth).
		params("symbol", "limit", "symbolStatus").weigh(depthWeight)
	s.route(http.MethodGet, "/api/v3/trades", 25, SecNone, s.trades).params("symbol", "limit")
	s.route(http.MethodGet, "/api/v3/historicalTrades", 25, SecNone, s.historicalTrades).
		params("symbol", "limit", "fromId")
	s.route(http.MethodGet, "/api/v3/aggTrades", 4, SecNone, s.aggTrades).
		params("symbol", "fromId", "startTime", "endTime", "limit")
	for _, path := range []string{"/api/v3/klines", "/api/v3/uiKlines"} {
		s.route(http.MethodGet, path, 2, SecNone, s.klines).
			params("symbol", "interval", "startTime", "endTime", "timeZone", "limit")
	}
	s.route(http.MethodGet, "/api/v3/avgPrice", 2, SecNone, s.avgPrice).params("symbol")
}

// Limits of the market data endpoints (Binance's defaults and maxima).
const (
	DefaultDepthLimit = 100
	MaxDepthLimit     = 5000
	DefaultTradeLimit = 500
	MaxTradeLimit     = 1000
	DefaultKlineLimit = 500
	MaxKlineLimit     = 1000
)

// depthWeight is Binance's depth weight by limit: 1-100 → 5, 101-500 →
// 25, 501-1000 → 50, more → 250.
func depthWeight(p *Params) int {
	n := DefaultDepthLimit
	if v, ok := p.Raw("limit"); ok {
		if x, err := strconv.Atoi(v); err == nil && x > 0 {
			n = x
		}
	}
	switch {
	case n <= 100:
		return 5
	case n <= 500:
		return 25
	case n <= 1000:
		return 50
	}
	return 250
}

// pairWithStatus reads symbol and the optional symbolStatus filter.
func (s *Server) pairWithStatus(p *Params) (markets.Pair, error) {
	pr, err := s.symbolParam(p)
	if err != nil {
		return pr, err
	}
	status, err := symbolStatusParam(p)
	if err != nil {
		return pr, err
	}
	if status != "" && status != statusOf(pr) {
		return pr, ErrSymbolStatusMismatch()
	}
	return pr, nil
}

// DepthResp is the order book.
type DepthResp struct {
	// LastUpdateID is the version of the book snapshot shown
	// (marketdata.DepthView.Seq, 0 before the first one): the diff depth
	// stream's U and u count the same versions.
	LastUpdateID int64       `json:"lastUpdateId"`
	Bids         [][2]string `json:"bids"`
	Asks         [][2]string `json:"asks"`
}

// depth answers the book. Market data keeps at most
// marketdata.MaxDepthLimit (200) levels per side: a larger limit is
// weighed as Binance does but answered with those.
func (s *Server) depth(c *Call) (any, error) {
	pr, err := s.pairWithStatus(c.Params)
	if err != nil {
		return nil, err
	}
	limit, err := c.Params.Limit("limit", DefaultDepthLimit, MaxDepthLimit)
	if err != nil {
		return nil, err
	}
	v, err := s.md.Depth(pr.Symbol, 0, limit)
	if err != nil {
		return nil, err
	}
	levels := func(in [][2]string) [][2]string {
		out := make([][2]string, 0, len(in))
		for _, l := range in {
			out = append(out, [2]string{fmtPrice(pr, dec(l[0])), fmtQty(pr, dec(l[1]))})
		}
		return out
	}
	return DepthResp{LastUpdateID: v.Seq, Bids: levels(v.Buys), Asks: levels(v.Asks)}, nil
}

// Trade is a public trade.
type Trade struct {
	ID           int64  `json:"id"`
	Price        string `json:"price"`
	Qty          string `json:"qty"`
	QuoteQty     string `json:"quoteQty"`
	Time         int64  `json:"time"`
	IsBuyerMaker bool   `json:"isBuyerMaker"`
	IsBestMatch  bool   `json:"isBestMatch"`
}

// AggTrade is an aggregate trade; Tenger answers each trade as its own
// aggregate (f = l = a).
type AggTrade struct {
	A int64  `json:"a"`
	P string `json:"p"`
	Q string `json:"q"`
	F int64  `json:"f"`
	L int64  `json:"l"`
	T int64  `json:"T"`
	M bool   `json:"m"`
	B bool   `json:"M"`
}

// tradeID is a trade id as a number (the engine's ids are 1, 2, 3... per
// pair); -1 for one that is not.
func tradeID(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// recentTrades is every trade market data keeps for the pair
// (marketdata.RecentTrades, 200), oldest first.
func (s *Server) recentTrades(pr markets.Pair) ([]marketdata.TradeView, error) {
	list, err := s.md.Trades(pr.Symbol, marketdata.MaxTradeLimit)
	if err != nil {
		return nil, err
	}
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	return list, nil
}

func toTrade(pr markets.Pair, t marketdata.TradeView) Trade {
	price, qty := dec(t.Price), dec(t.Vol)
	return Trade{ID: tradeID(t.ID), Price: fmtPrice(pr, price), Qty: fmtQty(pr, qty),
		QuoteQty: fmtQuote(pr, price.Mul(qty)), Time: t.TS, IsBuyerMaker: t.Side == "SELL", IsBestMatch: true}
}

// lastN keeps the newest n of a list sorted oldest first.
func lastN[T any](list []T, n int) []T {
	if len(list) > n {
		return list[len(list)-n:]
	}
	return list
}

// trades answers the newest trades, oldest first. Market data keeps the
// last marketdata.RecentTrades (200) per pair: a larger limit gets those.
func (s *Server) trades(c *Call) (any, error) {
	pr, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	limit, err := c.Params.Limit("limit", DefaultTradeLimit, MaxTradeLimit)
	if err != nil {
		return nil, err
	}
	list, err := s.recentTrades(pr)
	if err != nil {
		return nil, err
	}
	out := []Trade{}
	for _, t := range lastN(list, limit) {
		out = append(out, toTrade(pr, t))
	}
	return out, nil
}

// historicalTrades answers trades from fromId on (the newest without it),
// from the trades market data keeps: an id older than those starts at the
// oldest kept.
func (s *Server) historicalTrades(c *Call) (any, error) {
	pr, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	limit, err := c.Params.Limit("limit", DefaultTradeLimit, MaxTradeLimit)
	if err != nil {
		return nil, err
	}
	fromID, hasFrom, err := c.Params.Long("fromId", false)
	if err != nil {
		return nil, err
	}
	list, err := s.recentTrades(pr)
	if err != nil {
		return nil, err
	}
	out := []Trade{}
	if !hasFrom {
		for _, t := range lastN(list, limit) {
			out = append(out, toTrade(pr, t))
		}
		return out, nil
	}
	for _, t := range list {
		if len(out) == limit {
			break
		}
		if tradeID(t.ID) >= fromID {
			out = append(out, toTrade(pr, t))
		}
	}
	return out, nil
}

// aggTrades answers trades as aggregates, filtered by fromId, startTime
// and endTime (inclusive): with fromId or startTime the oldest matching
// ones, otherwise the newest.
func (s *Server) aggTrades(c *Call) (any, error) {
	p := c.Params
	pr, err := s.symbolParam(p)
	if err != nil {
		return nil, err
	}
	fromID, hasFrom, err := p.Long("fromId", false)
	if err != nil {
		return nil, err
	}
	start, hasStart, err := p.Time("startTime")
	if err != nil {
		return nil, err
	}
	end, hasEnd, err := p.Time("endTime")
	if err != nil {
		return nil, err
	}
	limit, err := p.Limit("limit", DefaultTradeLimit, MaxTradeLimit)
	if err != nil {
		return nil, err
	}
	list, err := s.recentTrades(pr)
	if err != nil {
		return nil, err
	}
	var match []AggTrade
	for _, t := range list {
		id := tradeID(t.ID)
		if (hasFrom && id < fromID) || (hasStart && t.TS < start) || (hasEnd && t.TS > end) {
			continue
		}
		price, qty := dec(t.Price), dec(t.Vol)
		match = append(match, AggTrade{A: id, P: fmtPrice(pr, price), Q: fmtQty(pr, qty), F: id, L: id, T: t.TS,
			M: t.Side == "SELL", B: true})
	}
	if hasFrom || hasStart {
		if len(match) > limit {
			match = match[:limit]
		}
	} else {
		match = lastN(match, limit)
	}
	if match == nil {
		match = []AggTrade{}
	}
	return match, nil
}

// interval is a kline interval Binance names and market data keeps.
type interval struct {
	period marketdata.Period
	// fixed is the length in seconds; 0 for months.
	fixed int64
}

// intervals maps Binance's interval names to market data's periods. The
// others Binance has (1s, 3m, 2h, 6h, 8h, 12h, 3d) are not kept: -1120.
var intervals = map[string]interval{
	"1m": {marketdata.Min1, 60}, "5m": {marketdata.Min5, 300}, "15m": {marketdata.Min15, 900},
	"30m": {marketdata.Min30, 1800}, "1h": {marketdata.Min60, 3600}, "4h": {marketdata.Hour4, 4 * 3600},
	"1d": {marketdata.Day1, 86400}, "1w": {marketdata.Week1, 7 * 86400}, "1M": {marketdata.Month1, 0},
}

// IntervalNames lists the kline intervals served.
var IntervalNames = []string{"1m", "5m", "15m", "30m", "1h", "4h", "1d", "1w", "1M"}

func (iv interval) next(start int64) int64 {
	if iv.fixed > 0 {
		return start + iv.fixed
	}
	return time.Unix(start, 0).UTC().AddDate(0, 1, 0).Unix()
}

func (iv interval) prev(start int64) int64 {
	if iv.fixed > 0 {
		return start - iv.fixed
	}
	return time.Unix(start, 0).UTC().AddDate(0, -1, 0).Unix()
}

// intervalParam reads the mandatory interval.
func intervalParam(p *Params) (interval, error) {
	v, _, err := p.String("interval", true)
	if err != nil {
		return interval{}, err
	}
	iv, ok := intervals[v]
	if !ok {
		return interval{}, ErrBadInterval()
	}
	return iv, nil
}

var timeZoneRE = regexp.MustCompile(`^([+-])?([0-9]{1,2})(?::([0-9]{2}))?$`)

// timeZoneParam reads timeZone (hours, or hours:minutes, from -12:00 to
// +14:00) as an offset in seconds.
func timeZoneParam(p *Params) (int64, error) {
	v, sent, err := p.String("timeZone", false)
	if err != nil || !sent {
		return 0, err
	}
	m := timeZoneRE.FindStringSubmatch(v)
	if m == nil {
		return 0, ErrInvalidParam("timeZone")
	}
	h, _ := strconv.ParseInt(m[2], 10, 64)
	var mins int64
	if m[3] != "" {
		mins, _ = strconv.ParseInt(m[3], 10, 64)
	}
	off := h*3600 + mins*60
	if m[1] == "-" {
		off = -off
	}
	if mins >= 60 || off < -12*3600 || off > 14*3600 {
		return 0, ErrInvalidParam("timeZone")
	}
	return off, nil
}

// Kline is one row of klines: open time, open, high, low, close, volume,
// close time, quote volume, trades, taker buy base volume, taker buy quote
// volume, and an unused "0".
type Kline [12]any

// klines answers candles. Buckets are market data's (UTC; weeks from
// Monday, months from the 1st), so a timeZone is served only where its
// offset is a whole number of intervals (-1020 otherwise). As on Binance
// every bucket since the pair's first trade has a candle: one without
// trades repeats the previous close with zero volume, and the current one
// is included. With startTime the candles opening at or after it (from
// the first trade when that is later), otherwise the newest; none opening
// after endTime. Market data does not keep the taker buy volumes: they are
// answered as zero.
func (s *Server) klines(c *Call) (any, error) {
	p := c.Params
	pr, err := s.symbolParam(p)
	if err != nil {
		return nil, err
	}
	iv, err := intervalParam(p)
	if err != nil {
		return nil, err
	}
	start, hasStart, err := p.Time("startTime")
	if err != nil {
		return nil, err
	}
	end, hasEnd, err := p.Time("endTime")
	if err != nil {
		return nil, err
	}
	off, err := timeZoneParam(p)
	if err != nil {
		return nil, err
	}
	if off != 0 && (iv.fixed == 0 || iv.fixed > 4*3600 || off%iv.fixed != 0) {
		return nil, ErrUnsupported()
	}
	limit, err := p.Limit("limit", DefaultKlineLimit, MaxKlineLimit)
	if err != nil {
		return nil, err
	}
	return s.candles(c.Ctx, pr, iv, c.Now, start, hasStart, end, hasEnd, limit)
}

func (s *Server) candles(ctx context.Context, pr markets.Pair, iv interval, now time.Time, start int64, hasStart bool,
	end int64, hasEnd bool, limit int) ([]Kline, error) {
	out := []Kline{}
	endB := iv.period.BucketStart(now)
	if hasEnd {
		endB = min(endB, iv.period.BucketStart(time.UnixMilli(end)))
	}
	var first int64
	if hasStart {
		sec := (start + 999) / 1000
		first = iv.period.BucketStart(time.Unix(sec, 0))
		if first < sec {
			first = iv.next(first)
		}
	} else {
		first = endB
		for i := 1; i < limit; i++ {
			first = iv.prev(first)
		}
	}
	if first > endB {
		return out, nil
	}
	got, err := s.md.Klines(ctx, pr.Symbol, iv.period, max(first, 1), endB, limit)
	if err != nil {
		return nil, err
	}
	var last decimal.Decimal
	have := false
	if first > 1 {
		before, err := s.md.Klines(ctx, pr.Symbol, iv.period, 0, first-1, 1)
		if err != nil {
			return nil, err
		}
		if n := len(before); n > 0 {
			last, have = dec(before[n-1].Close), true
		}
	}
	i := 0
	for b := first; b <= endB && len(out) < limit; {
		for i < len(got) && got[i].ID < b {
			i++
		}
		closeTime := iv.next(b)*1000 - 1
		switch {
		case i < len(got) && got[i].ID == b:
			k := got[i]
			i++
			last, have = dec(k.Close), true
			out = append(out, Kline{b * 1000, fmtPrice(pr, dec(k.Open)), fmtPrice(pr, dec(k.High)),
				fmtPrice(pr, dec(k.Low)), fmtPrice(pr, last), fmtQty(pr, dec(k.Vol)), closeTime,
				fmtQuote(pr, dec(k.Amount)), k.Count, fmtQty(pr, decimal.Zero), fmtQuote(pr, decimal.Zero), "0"})
		case have:
			px := fmtPrice(pr, last)
			out = append(out, Kline{b * 1000, px, px, px, px, fmtQty(pr, decimal.Zero), closeTime,
				fmtQuote(pr, decimal.Zero), int64(0), fmtQty(pr, decimal.Zero), fmtQuote(pr, decimal.Zero), "0"})
		case i < len(got):
			b = got[i].ID // skip the buckets before the pair's first trade
			continue
		default:
			return out, nil
		}
		b = iv.next(b)
	}
	return out, nil
}

// AvgPrice is the current average price.
type AvgPrice struct {
	Mins      int    `json:"mins"`
	Price     string `json:"price"`
	CloseTime int64  `json:"closeTime"`
}

// avgPriceMins is avgPrice's window.
const avgPriceMins = 5

// avgPrice answers the volume-weighted average price of the last 5
// minutes' trades (from the trades market data keeps when they reach that
// far back, else from the one-minute candles of the current minute and
// the 4 before); closeTime is the last trade's time. Without a trade in the
// window the last price is answered.
func (s *Server) avgPrice(c *Call) (any, error) {
	pr, err := s.symbolParam(c.Params)
	if err != nil {
		return nil, err
	}
	list, err := s.recentTrades(pr)
	if err != nil {
		return nil, err
	}
	resp := AvgPrice{Mins: avgPriceMins, Price: fmtPrice(pr, decimal.Zero)}
	if len(list) == 0 {
		return resp, nil
	}
	lastTrade := list[len(list)-1]
	resp.CloseTime = lastTrade.TS
	from := c.Now.Add(-avgPriceMins * time.Minute).UnixMilli()
	var vol, amount decimal.Decimal
	if len(list) < marketdata.RecentTrades || list[0].TS <= from {
		for _, t := range list {
			if t.TS >= from {
				q := dec(t.Vol)
				vol, amount = vol.Add(q), amount.Add(q.Mul(dec(t.Price)))
			}
		}
	} else {
		ks, err := s.md.Klines(c.Ctx, pr.Symbol, marketdata.Min1,
			marketdata.Min1.BucketStart(c.Now)-(avgPriceMins-1)*60, 0, avgPriceMins)
		if err != nil {
			return nil, err
		}
		for _, k := range ks {
			vol, amount = vol.Add(dec(k.Vol)), amount.Add(dec(k.Amount))
		}
	}
	if vol.IsPositive() {
		resp.Price = amount.DivRound(vol, avgDecimals(pr)).StringFixed(avgDecimals(pr))
	} else {
		resp.Price = fmtPrice(pr, dec(lastTrade.Price))
	}
	return resp, nil
}

// avgDecimals are the decimals of averages (avgPrice, weightedAvgPrice):
// Binance shows 8, and never fewer than the pair's price decimals.
func avgDecimals(pr markets.Pair) int32 { return max(pr.PricePrecision, 8) }
