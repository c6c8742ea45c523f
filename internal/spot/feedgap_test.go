package spot

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/marketdata"
)

// teeFeed records what the engine publishes and passes it on to market
// data, whose marks it reports.
type teeFeed struct {
	rec recFeed
	md  *marketdata.Service
}

func (f *teeFeed) OnTrades(symbol string, ts []marketdata.Trade) {
	f.rec.OnTrades(symbol, ts)
	f.md.OnTrades(symbol, ts)
}

func (f *teeFeed) OnDepth(symbol string, bids, asks []marketdata.Level, at time.Time) {
	f.md.OnDepth(symbol, bids, asks, at)
}

func (f *teeFeed) LastTradeID(symbol string) string { return f.md.LastTradeID(symbol) }

// newMarketData is market data as a process start builds it from the store.
func (e *env) newMarketData() *marketdata.Service {
	e.t.Helper()
	md, err := marketdata.New(e.ctx, marketdata.Options{Store: e.st, Markets: e.cat, Log: zerolog.Nop()})
	if err != nil {
		e.t.Fatal(err)
	}
	return md
}

// feedEngine is diskEngine with another feed.
func (e *env) feedEngine(dir string, feed marketdata.Feed) *Engine {
	e.t.Helper()
	eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: dir,
		Feed: feed, SnapshotEvery: -1})
	if err != nil {
		e.t.Fatal(err)
	}
	return eng
}

// wantAllTrades checks that market data holds every trade the engine
// published, in order, with its price, quantity and taker side.
func wantAllTrades(t *testing.T, md *marketdata.Service, published []marketdata.Trade) {
	t.Helper()
	bySym := map[string][]string{}
	for _, tr := range published {
		// Market data shows prices with the pair's decimals (2 for these pairs).
		bySym[tr.Symbol] = append(bySym[tr.Symbol], fmt.Sprintf("%s %s %s %s", tr.ID, tr.Price.StringFixed(2), tr.Qty, tr.TakerSide))
	}
	if len(bySym["btcusdt"]) < 4 || len(bySym["ethusdt"]) < 2 {
		t.Fatalf("the scenario made too few trades: %v", bySym)
	}
	for sym, want := range bySym {
		views, err := md.Trades(sym, marketdata.MaxTradeLimit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := len(views) - 1; i >= 0; i-- {
			v := views[i]
			got = append(got, fmt.Sprintf("%s %s %s %s", v.ID, v.Price, v.Vol, v.Side))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s recent trades after the restart:\n%s\nthe engine made:\n%s", sym, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		tk, err := md.Ticker(sym)
		if err != nil {
			t.Fatal(err)
		}
		if tk.Count != int64(len(want)) {
			t.Fatalf("%s 24 h ticker counts %d trades, want %d", sym, tk.Count, len(want))
		}
	}
}

// moreTrades crosses both books again.
func moreTrades(e *env) {
	e.place(bob, limit("btcusdt", "BUY", "30600", "0.3"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.3"))
	e.place(bob, limit("ethusdt", "BUY", "2000", "0.3"))
	e.drain()
}

// TestMarketDataCatchesUpAfterRebuild: market data stored the first
// trades, then the process died with later ones still queued, and the
// engine's volume was lost. The rebuilt engine sends market data the
// trades it lacks from the store.
func TestMarketDataCatchesUpAfterRebuild(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	feed := &teeFeed{md: e.newMarketData()}
	e.eng = e.feedEngine(dir, feed)
	buildRichBooks(e)
	if err := feed.md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	moreTrades(e) // queued in market data, never stored
	if err := e.eng.journal.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}

	md := e.newMarketData()
	e.eng = e.feedEngine(dir, md)
	if !e.eng.rebuilt {
		t.Fatal("the engine did not rebuild")
	}
	if err := md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	wantAllTrades(t, md, feed.rec.trades)

	// Another restart sends nothing twice.
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	md = e.newMarketData()
	e.eng = e.feedEngine(dir, md)
	if err := md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	wantAllTrades(t, md, feed.rec.trades)
}
