package binance

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/marketdata"
	"tenger/internal/markets"
)

// Stream payloads, field names, order and types as Binance's (numbers as
// strings where Binance sends strings; E is the event time in Unix ms).
// Prices and quantities show the pair's decimals, as the REST answers do.

// wsTrade is <symbol>@trade.
type wsTrade struct {
	Event     string `json:"e"`
	EventTime int64  `json:"E"`
	Symbol    string `json:"s"`
	ID        int64  `json:"t"`
	Price     string `json:"p"`
	Qty       string `json:"q"`
	Time      int64  `json:"T"`
	Maker     bool   `json:"m"`
	Ignore    bool   `json:"M"`
}

// wsAggTrade is <symbol>@aggTrade: each trade is its own aggregate, as
// the REST aggTrades answers them (a = f = l, the trade's id).
type wsAggTrade struct {
	Event     string `json:"e"`
	EventTime int64  `json:"E"`
	Symbol    string `json:"s"`
	ID        int64  `json:"a"`
	Price     string `json:"p"`
	Qty       string `json:"q"`
	First     int64  `json:"f"`
	Last      int64  `json:"l"`
	Time      int64  `json:"T"`
	Maker     bool   `json:"m"`
	Ignore    bool   `json:"M"`
}

func tradeEvents(pr markets.Pair, trades []marketdata.Trade, now int64) (raw, agg [][]byte) {
	for _, t := range trades {
		id := tradeID(t.ID)
		p, q, ms, maker := fmtPrice(pr, t.Price), fmtQty(pr, t.Qty), t.At.UnixMilli(), t.TakerSide == "SELL"
		b, _ := json.Marshal(wsTrade{Event: "trade", EventTime: now, Symbol: SymbolOf(pr), ID: id, Price: p, Qty: q,
			Time: ms, Maker: maker, Ignore: true})
		raw = append(raw, b)
		b, _ = json.Marshal(wsAggTrade{Event: "aggTrade", EventTime: now, Symbol: SymbolOf(pr), ID: id, Price: p,
			Qty: q, First: id, Last: id, Time: ms, Maker: maker, Ignore: true})
		agg = append(agg, b)
	}
	return raw, agg
}

// wsDepthUpdate is the diff depth event: the levels that changed in the
// versions U..u, with their new quantity (zero: removed).
type wsDepthUpdate struct {
	Event     string      `json:"e"`
	EventTime int64       `json:"E"`
	Symbol    string      `json:"s"`
	First     int64       `json:"U"`
	Last      int64       `json:"u"`
	Bids      [][2]string `json:"b"`
	Asks      [][2]string `json:"a"`
}

// wsPartialDepth is <symbol>@depth<levels>: the top of the book.
type wsPartialDepth struct {
	LastUpdateID int64       `json:"lastUpdateId"`
	Bids         [][2]string `json:"bids"`
	Asks         [][2]string `json:"asks"`
}

// wsBookTicker is <symbol>@bookTicker (no event type, as on Binance).
type wsBookTicker struct {
	UpdateID int64  `json:"u"`
	Symbol   string `json:"s"`
	Bid      string `json:"b"`
	BidQty   string `json:"B"`
	Ask      string `json:"a"`
	AskQty   string `json:"A"`
}

// bookView is a book snapshot as the REST depth shows it: the best
// marketdata.MaxDepthLimit prices a side, levels of one price added up,
// formatted with the pair's decimals.
type bookView struct {
	seq        int64
	bids, asks [][2]string
	// bidQty and askQty find a price's quantity (diffs).
	bidQty, askQty map[string]string
}

// levelsView formats up to limit levels (best first, one price once).
func levelsView(pr markets.Pair, ls []marketdata.Level, limit int) [][2]string {
	out := make([][2]string, 0, min(len(ls), limit))
	var cur, qty decimal.Decimal
	have := false
	for _, l := range ls {
		if have && l.Price.Equal(cur) {
			qty = qty.Add(l.Qty)
			continue
		}
		if have {
			out = append(out, [2]string{fmtPrice(pr, cur), fmtQty(pr, qty)})
			if len(out) == limit {
				return out
			}
		}
		cur, qty, have = l.Price, l.Qty, true
	}
	if have && len(out) < limit {
		out = append(out, [2]string{fmtPrice(pr, cur), fmtQty(pr, qty)})
	}
	return out
}

func newBookView(pr markets.Pair, seq int64, bids, asks []marketdata.Level) *bookView {
	v := &bookView{seq: seq, bids: levelsView(pr, bids, marketdata.MaxDepthLimit),
		asks: levelsView(pr, asks, marketdata.MaxDepthLimit)}
	index := func(ls [][2]string) map[string]string {
		m := make(map[string]string, len(ls))
		for _, l := range ls {
			m[l[0]] = l[1]
		}
		return m
	}
	v.bidQty, v.askQty = index(v.bids), index(v.asks)
	return v
}

// changed adds to set the prices whose quantity differs between two sides
// (added, removed or changed).
func changed(set map[string]struct{}, old, cur map[string]string) {
	for p, q := range cur {
		if oq, ok := old[p]; !ok || oq != q {
			set[p] = struct{}{}
		}
	}
	for p := range old {
		if _, ok := cur[p]; !ok {
			set[p] = struct{}{}
		}
	}
}

// diffLevels lists the prices of set with their quantity in side (zero,
// with the pair's decimals, when gone), best first.
func diffLevels(pr markets.Pair, set map[string]struct{}, side map[string]string, bids bool) [][2]string {
	out := make([][2]string, 0, len(set))
	for p := range set {
		q, ok := side[p]
		if !ok {
			q = fmtQty(pr, decimal.Zero)
		}
		out = append(out, [2]string{p, q})
	}
	sort.Slice(out, func(i, j int) bool {
		c := dec(out[i][0]).Cmp(dec(out[j][0]))
		if bids {
			return c > 0
		}
		return c < 0
	})
	return out
}

func partialDepth(pr markets.Pair, seq int64, bids, asks []marketdata.Level, levels int) []byte {
	b, _ := json.Marshal(wsPartialDepth{LastUpdateID: seq, Bids: levelsView(pr, bids, levels),
		Asks: levelsView(pr, asks, levels)})
	return b
}

func bookTickerOf(pr markets.Pair, seq int64, bids, asks []marketdata.Level) []byte {
	zp, zq := fmtPrice(pr, decimal.Zero), fmtQty(pr, decimal.Zero)
	t := wsBookTicker{UpdateID: seq, Symbol: SymbolOf(pr), Bid: zp, BidQty: zq, Ask: zp, AskQty: zq}
	if v := levelsView(pr, bids, 1); len(v) > 0 {
		t.Bid, t.BidQty = v[0][0], v[0][1]
	}
	if v := levelsView(pr, asks, 1); len(v) > 0 {
		t.Ask, t.AskQty = v[0][0], v[0][1]
	}
	b, _ := json.Marshal(t)
	return b
}

// bookTickerKey is what a book ticker's change is judged by: its prices
// and quantities (not u).
func bookTickerKey(payload []byte) string {
	var t wsBookTicker
	_ = json.Unmarshal(payload, &t)
	return t.Bid + " " + t.BidQty + " " + t.Ask + " " + t.AskQty
}

// wsTicker is <symbol>@ticker, the 24 h ticker (REST ticker/24hr's
// figures): x is the close before the window, O and C its open and close
// times, F and L its first and last trade ids.
type wsTicker struct {
	Event       string `json:"e"`
	EventTime   int64  `json:"E"`
	Symbol      string `json:"s"`
	Change      string `json:"p"`
	ChangePct   string `json:"P"`
	WeightedAvg string `json:"w"`
	PrevClose   string `json:"x"`
	Last        string `json:"c"`
	LastQty     string `json:"Q"`
	Bid         string `json:"b"`
	BidQty      string `json:"B"`
	Ask         string `json:"a"`
	AskQty      string `json:"A"`
	Open        string `json:"o"`
	High        string `json:"h"`
	Low         string `json:"l"`
	Volume      string `json:"v"`
	QuoteVolume string `json:"q"`
	OpenTime    int64  `json:"O"`
	CloseTime   int64  `json:"C"`
	FirstID     int64  `json:"F"`
	LastID      int64  `json:"L"`
	Count       int64  `json:"n"`
}

// wsMiniTicker is <symbol>@miniTicker.
type wsMiniTicker struct {
	Event       string `json:"e"`
	EventTime   int64  `json:"E"`
	Symbol      string `json:"s"`
	Close       string `json:"c"`
	Open        string `json:"o"`
	High        string `json:"h"`
	Low         string `json:"l"`
	Volume      string `json:"v"`
	QuoteVolume string `json:"q"`
}

// periodicEvent is a periodic stream's payload (a symbol's ticker, a
// candle) and the key its change is judged by (the payload without its
// times, which move with the clock).
type periodicEvent struct {
	symbol  string
	payload json.RawMessage
	key     string
	// closed marks a candle whose interval ended (always sent).
	closed bool
}

// periodicEvents builds the full or mini tickers of pairs.
func (s *Server) periodicEvents(ctx context.Context, pairs []markets.Pair, mini bool, now int64) ([]periodicEvent, error) {
	out := make([]periodicEvent, 0, len(pairs))
	for _, pr := range pairs {
		t, err := s.md.Ticker(pr.Symbol)
		if err != nil {
			return nil, err
		}
		var payload, key []byte
		if mini {
			m := wsMiniTicker{Event: "24hrMiniTicker", EventTime: now, Symbol: SymbolOf(pr),
				Close: fmtPrice(pr, dec(t.Close)), Open: fmtPrice(pr, dec(t.Open)), High: fmtPrice(pr, dec(t.High)),
				Low: fmtPrice(pr, dec(t.Low)), Volume: fmtQty(pr, dec(t.Vol)), QuoteVolume: fmtQuote(pr, dec(t.Amount))}
			payload, _ = json.Marshal(m)
			m.EventTime = 0
			key, _ = json.Marshal(m)
		} else {
			v, err := s.ticker24(ctx, pr, t, false)
			if err != nil {
				return nil, err
			}
			r := v.(Ticker24)
			w := wsTicker{Event: "24hrTicker", EventTime: now, Symbol: r.Symbol, Change: r.PriceChange,
				ChangePct: r.PriceChangePercent, WeightedAvg: r.WeightedAvgPrice, PrevClose: r.PrevClosePrice,
				Last: r.LastPrice, LastQty: r.LastQty, Bid: r.BidPrice, BidQty: r.BidQty, Ask: r.AskPrice,
				AskQty: r.AskQty, Open: r.OpenPrice, High: r.HighPrice, Low: r.LowPrice, Volume: r.Volume,
				QuoteVolume: r.QuoteVolume, OpenTime: r.OpenTime, CloseTime: r.CloseTime, FirstID: r.FirstID,
				LastID: r.LastID, Count: r.Count}
			payload, _ = json.Marshal(w)
			w.EventTime, w.OpenTime, w.CloseTime = 0, 0, 0
			key, _ = json.Marshal(w)
		}
		out = append(out, periodicEvent{symbol: pr.Symbol, payload: payload, key: string(key)})
	}
	return out, nil
}

// wsKline is <symbol>@kline_<interval>.
type wsKline struct {
	Event     string     `json:"e"`
	EventTime int64      `json:"E"`
	Symbol    string     `json:"s"`
	K         wsKlineBar `json:"k"`
}

// wsKlineBar is a kline stream's candle: f and L are its first and last
// trade ids (-1 without trades); V and Q, the taker buy volumes, are zero
// as in the REST klines (market data does not keep them).
type wsKlineBar struct {
	Start       int64  `json:"t"`
	End         int64  `json:"T"`
	Symbol      string `json:"s"`
	Interval    string `json:"i"`
	FirstID     int64  `json:"f"`
	LastID      int64  `json:"L"`
	Open        string `json:"o"`
	Close       string `json:"c"`
	High        string `json:"h"`
	Low         string `json:"l"`
	Volume      string `json:"v"`
	Count       int64  `json:"n"`
	Closed      bool   `json:"x"`
	QuoteVolume string `json:"q"`
	TakerBase   string `json:"V"`
	TakerQuote  string `json:"Q"`
	Ignore      string `json:"B"`
}

// klineEvent is the candle of bucket (Unix s) as the REST klines answers
// it, closed or not; ok is false before the pair's first trade.
func (s *Server) klineEvent(ctx context.Context, sp streamSpec, bucket int64, closed bool, now time.Time) (payload []byte, key string, ok bool, err error) {
	ms := bucket * 1000
	rows, err := s.candles(ctx, sp.pair, sp.iv, now, ms, true, ms, true, 1)
	if err != nil || len(rows) == 0 {
		return nil, "", false, err
	}
	r := rows[0]
	str := func(i int) string { v, _ := r[i].(string); return v }
	i64 := func(i int) int64 { v, _ := r[i].(int64); return v }
	bar := wsKlineBar{Start: i64(0), End: i64(6), Symbol: SymbolOf(sp.pair), Interval: sp.ivName, FirstID: -1, LastID: -1,
		Open: str(1), Close: str(4), High: str(2), Low: str(3), Volume: str(5), Count: i64(8), Closed: closed,
		QuoteVolume: str(7), TakerBase: str(9), TakerQuote: str(10), Ignore: str(11)}
	if bar.Count > 0 {
		bar.FirstID, bar.LastID, err = s.bucketTradeIDs(sp.pair, bar.Start, bar.End, bar.Count)
		if err != nil {
			return nil, "", false, err
		}
	}
	ev := wsKline{Event: "kline", EventTime: now.UnixMilli(), Symbol: SymbolOf(sp.pair), K: bar}
	payload, _ = json.Marshal(ev)
	ev.EventTime = 0
	k, _ := json.Marshal(ev)
	return payload, string(k), true, nil
}

// bucketTradeIDs finds a candle's first and last trade ids from the
// trades market data keeps (the engine numbers a pair's trades 1, 2,
// 3...: the candle's count trades end at its newest one); -1, -1 when
// none of them is kept any more.
func (s *Server) bucketTradeIDs(pr markets.Pair, from, to, count int64) (int64, int64, error) {
	list, err := s.md.Trades(pr.Symbol, marketdata.MaxTradeLimit) // newest first
	if err != nil {
		return -1, -1, err
	}
	for _, t := range list {
		if t.TS >= from && t.TS <= to {
			last := tradeID(t.ID)
			if last < 0 {
				break
			}
			return max(last-count+1, 0), last, nil
		}
		if t.TS < from {
			break
		}
	}
	return -1, -1, nil
}
