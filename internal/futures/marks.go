package futures

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/contracts"
	"tenger/internal/marketdata"
	"tenger/internal/push"
	"tenger/internal/store"
)

// The mark channel: market_<marketSymbol>_mark (market_btcusdtperp_mark),
// a public market channel per contract beside its depth, trades, ticker
// and candles. The price loop publishes it from the price item it has
// just written, so the channel and /common/public_market_info show the
// same values in the same form:
//
//	{"channel":"market_btcusdtperp_mark","ts":…,"tick":{"symbol":"BTCUSDT","markPrice":"50010.0",
//	 "indexPrice":"50005.0","fundingRate":"0.0001","lastFundingRate":"0.0001",
//	 "nextFundingTime":1765094400000,"time":1765090800000}}
//
// A contract's mark goes out at most once per MarkPushInterval, and only
// when something but its time changed since the last one pushed (a
// change held back by the interval goes out with the next step that
// finds it still changed). Nothing is sent on subscribe: clients read
// public_market_info first.

// MarkChannel is a contract's mark channel, by its market symbol.
func MarkChannel(marketSymbol string) string { return "market_" + marketSymbol + "_mark" }

// MarkPushInterval is the least time between two pushes of a contract's
// mark. A step up to markPushSlack early counts as a full interval later:
// the loop's ticker fires every second, and its steps read the clock a
// little late or early.
const (
	MarkPushInterval = time.Second
	markPushSlack    = 100 * time.Millisecond
)

// Mark is what the mark channel pushes: a contract's mark and index
// prices and funding, as MarketInfo shows them.
type Mark struct {
	Symbol          string `json:"symbol"`
	MarkPrice       string `json:"markPrice"`
	IndexPrice      string `json:"indexPrice"`
	FundingRate     string `json:"fundingRate" doc:"what the next funding would pay (positive: longs pay shorts)"`
	LastFundingRate string `json:"lastFundingRate"`
	NextFundingTime int64  `json:"nextFundingTime"`
	Time            int64  `json:"time" doc:"when the prices were taken, Unix ms"`
}

// markOf reads a contract's price item (as the price loop writes it).
func markOf(c contracts.Contract, it store.Item) Mark {
	pp := decimalsOf(c.PriceTick)
	return Mark{Symbol: c.Symbol, MarkPrice: decText(it.Dec("mark"), pp), IndexPrice: decText(it.Dec("index"), pp),
		FundingRate: it.Dec("rate").String(), LastFundingRate: it.Dec("lastRate").String(),
		NextFundingTime: it.Int("nextFunding"), Time: it.Int("at")}
}

// KnownMarkChannel accepts the mark channels of the contracts of cat,
// spelled as they are published (the market symbol in lower case).
func KnownMarkChannel(cat *contracts.Catalogue) push.ChannelFunc {
	return func(ch string) bool {
		rest, ok := strings.CutPrefix(ch, "market_")
		if !ok {
			return false
		}
		sym, ok := strings.CutSuffix(rest, "_mark")
		if !ok {
			return false
		}
		base, ok := strings.CutSuffix(sym, MarketSuffix)
		if !ok || base == "" {
			return false
		}
		c, ok := cat.Contract(base)
		return ok && MarketSymbol(c) == sym
	}
}

// marks is the runtime's record of the marks pushed, per contract.
type marks struct {
	mu   sync.Mutex
	sent map[string]sentMark
}

type sentMark struct {
	mark Mark // without its time
	at   time.Time
}

// due says whether m is to be pushed at now, and if so records it as
// pushed.
func (ms *marks) due(m Mark, now time.Time) bool {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	cmp := m
	cmp.Time = 0
	last, ok := ms.sent[m.Symbol]
	if ok {
		if last.mark == cmp {
			return false
		}
		if since := now.Sub(last.at); since >= 0 && since < MarkPushInterval-markPushSlack {
			return false
		}
	}
	if ms.sent == nil {
		ms.sent = map[string]sentMark{}
	}
	ms.sent[m.Symbol] = sentMark{mark: cmp, at: now}
	return true
}

// publishMark pushes a contract's mark from the price item just written,
// when it is due.
func (r *Runtime) publishMark(ctx context.Context, c contracts.Contract, it store.Item, now time.Time) {
	if r.o.Pusher == nil {
		return
	}
	m := markOf(c, it)
	if !r.marks.due(m, now) {
		return
	}
	ch := MarkChannel(MarketSymbol(c))
	b, err := push.Tick(ch, now, m)
	if err == nil {
		_, err = r.o.Pusher.Publish(ctx, ch, b)
	}
	if err != nil {
		r.o.Log.Debug().Err(err).Str("channel", ch).Msg("futures: mark not published")
	}
}

// Tickers are the contracts' 24 h tickers, by market symbol: the market
// data's (*marketdata.Service), which keeps the contracts' trades and
// candles as it keeps the pairs'.
type Tickers interface {
	Ticker(marketSymbol string) (marketdata.Ticker, error)
	Tickers() map[string]marketdata.Ticker
}

var _ Tickers = (*marketdata.Service)(nil)

// hundred turns a ratio into percent.
var hundred = decimal.NewFromInt(100)

// set24h fills a contract's 24 h figures in m from its market data ticker
// (the rolling window of one-minute candles spot's ticker has): the
// prices empty and the rest zero before the contract's first trade.
func set24h(m *MarketInfo, c contracts.Contract, t marketdata.Ticker, moneyPlaces int32) {
	m.Change24h, m.Volume24h, m.Turnover24h = "0.00", "0", "0"
	last, err := decimal.NewFromString(t.Close)
	if err != nil || !last.IsPositive() {
		return
	}
	m.Open24h, m.High24h, m.Low24h = t.Open, t.High, t.Low
	if open, err := decimal.NewFromString(t.Open); err == nil && open.IsPositive() {
		m.Change24h = last.Sub(open).Mul(hundred).Div(open).StringFixed(2)
	}
	if vol, err := decimal.NewFromString(t.Vol); err == nil && c.ContractValue.IsPositive() {
		m.Volume24h = vol.Div(c.ContractValue).Round(0).String()
	}
	if amount, err := decimal.NewFromString(t.Amount); err == nil {
		m.Turnover24h = amount.Round(moneyPlaces).String()
	}
}
