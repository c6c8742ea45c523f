package spot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/marketdata"
)

// TestSnapshotAndJournalRestart: a stopped runtime restores from its
// snapshot; a crashed one (no snapshot at the end) from the older snapshot
// plus the journal tail. The engine comes back identical and nothing is
// written twice.
func TestSnapshotAndJournalRestart(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "2")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "30010", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "29000", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	users, coins := []string{alice, bob, "FEES"}, []string{"BTC", "USDT"}
	e.wantSameAfter(e.restart, users, coins)
	e.place(bob, limit("btcusdt", "BUY", "30010", "0.4"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.1"))
	e.wantSameAfter(e.crash, users, coins)
	// bob bought 0.2, then 0.4 (0.3 at 30000, 0.1 at 30010), then 0.1 at his 29000 bid: 0.7 less 0.1% fees.
	e.wantBal(bob, "BTC", "0.6993", "0")
	e.audit()
}

// buildRichBooks fills btcusdt and ethusdt with what a book can hold:
// several users and levels on both sides, partial fills, a post-only, a
// waiting buy and sell stop, a stop that triggered and rests behind an
// order accepted after it but placed in the level before it, amended
// orders, and cancelled ones.
func buildRichBooks(e *env) {
	e.deposit(alice, "BTC", "5")
	e.deposit(alice, "ETH", "10")
	e.deposit(bob, "USDT", "500000")
	e.deposit(carol, "BTC", "5")
	e.deposit(carol, "USDT", "500000")
	e.place(carol, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeStopLimit, Price: "29950", StopPrice: "30000", Volume: "0.1"})
	e.place(bob, limit("btcusdt", "BUY", "29950", "0.1"))
	a1 := e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	c1 := e.place(carol, limit("btcusdt", "SELL", "30000", "0.3"))
	a2 := e.place(alice, limit("btcusdt", "SELL", "30100", "0.2"))
	c2 := e.place(carol, limit("btcusdt", "SELL", "30200", "0.4"))
	// Trades at 30000: a1 partly filled; carol's stop triggers and rests
	// at 29950 behind bob's order.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	e.place(bob, limit("btcusdt", "BUY", "29900", "0.1"))
	e.place(carol, limit("btcusdt", "BUY", "29900", "0.2"))
	e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypePostOnly, Price: "29800", Volume: "0.3"})
	e.place(bob, PlaceRequest{Symbol: "btcusdt", Side: "BUY", Type: TypeStopLimit, Price: "30600", StopPrice: "30500", Volume: "0.1"})
	e.place(alice, PlaceRequest{Symbol: "btcusdt", Side: "SELL", Type: TypeStopLimit, Price: "28900", StopPrice: "29000", Volume: "0.1"})
	e.amend(carol, c1, "0.2")
	e.amend(alice, a2, "0.15")
	if err := e.svc.CancelOrder(e.ctx, carol, "btcusdt", c2); err != nil {
		e.t.Fatal(err)
	}
	e.place(alice, PlaceRequest{Symbol: "ethusdt", Side: "SELL", Type: TypeLimit, Price: "2000", Volume: "1"})
	e.place(bob, PlaceRequest{Symbol: "ethusdt", Side: "BUY", Type: TypeLimit, Price: "2000", Volume: "0.5"})
	e.place(bob, PlaceRequest{Symbol: "ethusdt", Side: "BUY", Type: TypeLimit, Price: "1990", Volume: "0.2"})
	e.drain()
	e.wantOrder(alice, a1, StatusPartiallyFilled, "0.2", "6000", "6")
}

// moreTrades crosses both books again: takers through several levels on
// both sides, the stops they trigger, a market buy.
func moreTrades(e *env) {
	e.place(bob, limit("btcusdt", "BUY", "30600", "0.6"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.6"))
	e.place(bob, PlaceRequest{Symbol: "ethusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "1500"})
	e.drain()
}

// tape is the trades the feed received after the first skip, as
// "symbol id price qty taker-side" lines.
func tape(e *env, skip int) []string {
	trades, _, _ := e.rec.published("")
	var out []string
	for _, tr := range trades[skip:] {
		out = append(out, fmt.Sprintf("%s %s %s %s %s", tr.Symbol, tr.ID, tr.Price, tr.Qty, tr.TakerSide))
	}
	return out
}

// TestRichBooksSurviveRestarts: books holding every kind of resting order
// come back identical after a crash (journal replay) and after a clean
// stop (snapshot), writing nothing twice; and the same later commands
// match exactly as they do on books that were never restarted.
func TestRichBooksSurviveRestarts(t *testing.T) {
	e := newEnv(t)
	buildRichBooks(e)
	var live int
	e.rt.Engine.Read(func(s *engine.State) { live = s.Book(symbolNum("btcusdt")).Len() })
	if live != 10 {
		t.Fatalf("the scenario left %d live btcusdt orders, want 10", live)
	}
	users, coins := []string{alice, bob, carol, "FEES"}, []string{"BTC", "USDT", "ETH"}
	e.wantSameAfter(e.crash, users, coins)
	e.wantSameAfter(e.restart, users, coins)
	before, _, _ := e.rec.published("")
	moreTrades(e)
	if err := e.svc.CancelAll(e.ctx, carol, ""); err != nil {
		t.Fatal(err)
	}

	// The same scenario on an exchange that never restarted.
	ref := newEnv(t)
	buildRichBooks(ref)
	refBefore, _, _ := ref.rec.published("")
	moreTrades(ref)
	if err := ref.svc.CancelAll(ref.ctx, carol, ""); err != nil {
		t.Fatal(err)
	}
	got, want := tape(e, len(before)), tape(ref, len(refBefore))
	if len(want) < 5 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("trades after the restarts:\n%s\nwithout them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e.balances(users, coins) != ref.balances(users, coins) {
		t.Fatalf("balances after the restarts:\n%s\nwithout them:\n%s", e.balances(users, coins), ref.balances(users, coins))
	}
	for _, u := range []string{alice, bob} {
		if err := e.svc.CancelAll(e.ctx, u, ""); err != nil {
			t.Fatal(err)
		}
	}
	e.drain()
	for _, u := range []string{alice, bob, carol} {
		for _, c := range coins {
			if b := e.balance(u, c); !b.Frozen.IsZero() {
				t.Fatalf("%s keeps %s %s frozen", u, b.Frozen, c)
			}
		}
	}
	e.audit()
}

// teeFeed records what the runtime publishes and passes it on to market
// data.
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

func (f *teeFeed) Sync(ctx context.Context) error { return f.md.Sync(ctx) }

// newMarketData is market data as a process start builds it from the store.
func (e *env) newMarketData() *marketdata.Service {
	e.t.Helper()
	md, err := marketdata.New(e.ctx, marketdata.Options{Store: e.raw, Markets: e.cat, Log: zerolog.Nop()})
	if err != nil {
		e.t.Fatal(err)
	}
	return md
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

// TestMarketDataHasEveryTradeAfterACrash: market data stored the first
// trades, then the process died with later ones handed to it but not
// stored. The restarted runtime publishes the trades of its journal again,
// and market data, started from what it stored, ends with every trade
// exactly once; another restart adds nothing twice.
func TestMarketDataHasEveryTradeAfterACrash(t *testing.T) {
	var feed *teeFeed
	e := newEnv(t, func(e *env) {
		feed = &teeFeed{md: e.newMarketData()}
		e.feed = feed
	})
	buildRichBooks(e)
	if err := feed.md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	moreTrades(e) // handed to market data, maybe not stored
	published, _, _ := feed.rec.published("")

	md := e.newMarketData()
	e.feed = md
	e.crash()
	if err := md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	wantAllTrades(t, md, published)

	md = e.newMarketData()
	e.feed = md
	e.restart()
	if err := md.Sync(e.ctx); err != nil {
		t.Fatal(err)
	}
	wantAllTrades(t, md, published)
}

// A restart says what it did: after a crash, the commands it replayed
// since the last snapshot (all of them: none was written); after a clean
// stop, none.
func TestRecoveryIsLogged(t *testing.T) {
	var buf syncBuffer
	e := newEnv(t, func(e *env) { e.log = zerolog.New(&buf) })
	e.deposit(alice, "BTC", "1")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	e.place(alice, limit("btcusdt", "SELL", "30010", "0.1"))
	e.drain()
	seq := float64(e.rt.Seq())
	recovered := func() map[string]any {
		t.Helper()
		var last map[string]any
		for _, line := range bytes.Split(buf.take(), []byte("\n")) {
			var m map[string]any
			if json.Unmarshal(line, &m) == nil && m["message"] == "engine: recovered" {
				last = m
			}
		}
		if last == nil {
			t.Fatal("no recovery line in the log")
		}
		return last
	}
	recovered() // the first start's
	e.crash()
	if m := recovered(); m["replayed"] != seq || m["snapshot"] != 0.0 || m["seq"] != seq || m["level"] != "info" {
		t.Fatalf("after a crash (seq %v): %v", seq, m)
	}
	e.restart()
	if m := recovered(); m["replayed"] != 0.0 || m["snapshot"] != seq || m["seq"] != seq {
		t.Fatalf("after a clean stop (seq %v): %v", seq, m)
	}
	e.audit()
}

// syncBuffer is a log the runtime's goroutines may write while a test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// take returns what was written since the last take.
func (b *syncBuffer) take() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := bytes.Clone(b.buf.Bytes())
	b.buf.Reset()
	return out
}
