package binance

import (
	"strconv"
	"strings"

	"tenger/internal/markets"
)

// streamKind is what a market stream carries.
type streamKind uint8

const (
	skTrade streamKind = iota + 1
	skAggTrade
	skDiffDepth    // <symbol>@depth[@100ms]
	skPartialDepth // <symbol>@depth<5|10|20>[@100ms]
	skKline        // <symbol>@kline_<interval>
	skTicker       // <symbol>@ticker
	skMiniTicker   // <symbol>@miniTicker
	skBookTicker   // <symbol>@bookTicker
	skAllTickers   // !ticker@arr
	skAllMini      // !miniTicker@arr
)

// streamSpec is a parsed stream name.
type streamSpec struct {
	name string
	kind streamKind
	// pair is the symbol's (zero for the all-market streams).
	pair markets.Pair
	// fast is set for the depth streams of 100 ms (others: 1000 ms).
	fast bool
	// levels of a partial book (5, 10 or 20).
	levels int
	// ivName and iv are a kline stream's interval.
	ivName string
	iv     interval
}

// MaxStreamsPerConn is how many streams one connection may listen to, as
// on Binance.
const MaxStreamsPerConn = 1024

// parseStream reads a stream name as Binance spells them: the symbol in
// lower case (a pair of the catalogue, open or closed: closed pairs'
// market data stays readable), then @trade, @aggTrade, @depth,
// @depth@100ms, @depth5/10/20 (optionally @100ms), @kline_<interval> (the
// intervals klines serves), @ticker, @miniTicker or @bookTicker; or
// !ticker@arr, !miniTicker@arr. @1000ms, the default speed, may be named.
func (s *Server) parseStream(name string) (streamSpec, bool) {
	sp := streamSpec{name: name}
	switch name {
	case "!ticker@arr":
		sp.kind = skAllTickers
		return sp, true
	case "!miniTicker@arr":
		sp.kind = skAllMini
		return sp, true
	}
	sym, rest, ok := strings.Cut(name, "@")
	if !ok || sym == "" {
		return sp, false
	}
	pr, ok := s.mk.Pair(sym)
	if !ok || pr.Symbol != sym {
		return sp, false
	}
	sp.pair = pr
	kind, speed, hasSpeed := strings.Cut(rest, "@")
	if hasSpeed {
		switch speed {
		case "100ms":
			sp.fast = true
		case "1000ms":
		default:
			return sp, false
		}
	}
	simple := map[string]streamKind{"trade": skTrade, "aggTrade": skAggTrade, "ticker": skTicker,
		"miniTicker": skMiniTicker, "bookTicker": skBookTicker}
	if k, ok := simple[kind]; ok {
		sp.kind = k
		return sp, !hasSpeed
	}
	switch kind {
	case "depth":
		sp.kind = skDiffDepth
		return sp, true
	case "depth5", "depth10", "depth20":
		sp.kind = skPartialDepth
		sp.levels, _ = strconv.Atoi(strings.TrimPrefix(kind, "depth"))
		return sp, true
	}
	if ivName, ok := strings.CutPrefix(kind, "kline_"); ok && !hasSpeed {
		iv, ok := intervals[ivName]
		if !ok {
			return sp, false
		}
		sp.kind, sp.ivName, sp.iv = skKline, ivName, iv
		return sp, true
	}
	return sp, false
}
