package spot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/matching"
)

// TestFileJournalAndSnapshotRestart: a stopped engine restores from its
// snapshot; a crashed one (no snapshot at the end) from the older snapshot
// plus the journal tail. Books come back identical and nothing settles twice.
func TestFileJournalAndSnapshotRestart(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	e.eng = e.diskEngine(dir)
	e.deposit(alice, "BTC", "2")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.place(alice, limit("btcusdt", "SELL", "30010", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "29000", "0.5"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	e.drain()
	h1 := e.eng.StateHash("btcusdt")
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}

	e.eng = e.diskEngine(dir)
	if got := e.eng.StateHash("btcusdt"); got != h1 {
		t.Fatalf("restored hash %x, want %x", got, h1)
	}
	e.place(bob, limit("btcusdt", "BUY", "30010", "0.4"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.1"))
	e.drain()
	h2 := e.eng.StateHash("btcusdt")
	before := snapshotBalances(e)
	// Crash: no snapshot, the journal file is just closed.
	if err := e.eng.journal.Close(); err != nil {
		t.Fatal(err)
	}

	e.eng = e.diskEngine(dir)
	if got := e.eng.StateHash("btcusdt"); got != h2 {
		t.Fatalf("replayed hash %x, want %x", got, h2)
	}
	if after := snapshotBalances(e); after != before {
		t.Fatalf("restart changed balances:\n%s\n%s", before, after)
	}
	// bob bought 0.2, then 0.4 (0.3 at 30000, 0.1 at 30010), then 0.1 at his 29000 bid: 0.7 less 0.1% fees.
	e.wantBal(bob, "BTC", "0.6993", "0")
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	e.audit()
}

// TestLegacyHistoryWithoutBookRecordsRefusesToStart: trades settled but
// no book records to rebuild from (data older than them): empty books would
// reuse trade ids, so the engine still refuses.
func TestLegacyHistoryWithoutBookRecordsRefusesToStart(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	for sym := range e.eng.bySym {
		if err := e.st.Delete(e.ctx, marksKey(sym), nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: e.dir + "/fresh"})
	if !errors.Is(err, ErrJournalLost) {
		t.Fatalf("engine with no journal over settled trades and no book records: %v", err)
	}
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
	e.drain()
	e.place(bob, limit("btcusdt", "BUY", "29950", "0.1"))
	a1 := e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	c1 := e.place(carol, limit("btcusdt", "SELL", "30000", "0.3"))
	a2 := e.place(alice, limit("btcusdt", "SELL", "30100", "0.2"))
	c2 := e.place(carol, limit("btcusdt", "SELL", "30200", "0.4"))
	e.drain()
	// Trades at 30000: a1 partly filled; carol's stop triggers and rests
	// at 29950 behind bob's order.
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	e.drain()
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

// TestLostJournalRebuildsFromStore: the engine's data directory is lost
// (journal and snapshots). The new engine rebuilds the books from the
// stored open orders: same depth, same state (last seq aside), settling
// nothing again; then the same later commands match exactly as they would
// have on the old books, and the ledger audit is clean.
func TestLostJournalRebuildsFromStore(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	e.eng = e.diskEngine(dir)
	buildRichBooks(e)
	old := e.eng
	depth := func(eng *Engine, sym string) string {
		return fmt.Sprint(eng.BookDepth(sym, matching.Buy, 50), eng.BookDepth(sym, matching.Sell, 50))
	}
	wantDepth := map[string]string{"btcusdt": depth(old, "btcusdt"), "ethusdt": depth(old, "ethusdt")}
	if ob := old.books.Book(symbolNum("btcusdt")); ob.Len() != 10 {
		t.Fatalf("the scenario left %d live btcusdt orders, want 10", ob.Len())
	}
	balances := snapshotBalances(e)
	// Crash, and the volume is gone.
	if err := old.journal.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}

	e.eng = e.diskEngine(dir)
	if !e.eng.rebuilt {
		t.Fatal("the engine did not rebuild")
	}
	for sym, want := range wantDepth {
		if got := depth(e.eng, sym); got != want {
			t.Fatalf("%s depth after rebuild %s, want %s", sym, got, want)
		}
	}
	sameBooks(t, old, e.eng)
	if e.eng.seq < old.seq {
		t.Fatalf("sequencing restarts at %d, below the stored %d", e.eng.seq, old.seq)
	}
	if got := snapshotBalances(e); got != balances {
		t.Fatalf("rebuild changed balances:\n%s\n%s", balances, got)
	}
	// The rebuilt books were snapshotted: the next restart restores them.
	if _, err := os.Stat(filepath.Join(dir, "spot-snapshots", "btcusdt.snap")); err != nil {
		t.Fatalf("no snapshot after the rebuild: %v", err)
	}
	rebuiltAt := e.eng.seq

	// Later commands: takers through several levels on both sides, a
	// stop triggered by them, an amend and a cancel.
	e.feed.trades = nil
	e.place(bob, limit("btcusdt", "BUY", "30600", "0.6"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.6"))
	e.place(bob, PlaceRequest{Symbol: "ethusdt", Side: "BUY", Type: TypeMarket, QuoteVolume: "1500"})
	e.drain()
	if err := e.svc.CancelAll(e.ctx, carol, ""); err != nil {
		t.Fatal(err)
	}
	e.drain()
	// The old books, given the same commands (as the new engine journalled
	// them), emit the same trades and end in the same state.
	old.buf.Reset()
	err := e.eng.journal.Replay(rebuiltAt, func(c *matching.Command) error {
		old.books.Apply(c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, ev := range old.buf.Events {
		if ev.Kind == matching.EvTrade {
			cfg := old.set.cfgs[ev.Symbol]
			want = append(want, fmt.Sprintf("%s %d %s %s %s", cfg.Symbol, ev.TradeID, cfg.FromTicks(ev.Price), cfg.FromLots(ev.Qty), sideText(ev.Side)))
		}
	}
	var got []string
	for _, tr := range e.feed.trades {
		got = append(got, fmt.Sprintf("%s %s %s %s %s", tr.Symbol, tr.ID, tr.Price, tr.Qty, tr.TakerSide))
	}
	if len(want) < 5 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("trades after the rebuild:\n%v\nthe old books would have made:\n%v", got, want)
	}
	for sym := range e.eng.bySym {
		if old.StateHash(sym) != e.eng.StateHash(sym) {
			t.Fatalf("%s: the rebuilt and the old book diverged", sym)
		}
	}
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	e.eng = e.diskEngine(dir)
	if e.eng.rebuilt {
		t.Fatal("a restart with the journal and snapshots rebuilt again")
	}
	sameBooks(t, old, e.eng)
	for _, u := range []string{alice, bob} {
		if err := e.svc.CancelAll(e.ctx, u, ""); err != nil {
			t.Fatal(err)
		}
	}
	e.drain()
	for _, u := range []string{alice, bob, carol} {
		for _, c := range []string{"BTC", "USDT", "ETH"} {
			if b, _ := e.led.Balance(e.ctx, spotAccount(u), c); !b.Frozen.IsZero() {
				t.Fatalf("%s keeps %s %s frozen", u, b.Frozen, c)
			}
		}
	}
	e.audit()
}

// TestStaleSnapshotRebuildsFromStore: the journal is lost but an older
// snapshot survives. Restoring it would drop what was settled since, so
// the engine notices the store is ahead and rebuilds.
func TestStaleSnapshotRebuildsFromStore(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	e.eng = e.diskEngine(dir)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	sell := e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.drain()
	if err := e.eng.snapshot(); err != nil {
		t.Fatal(err)
	}
	stale, err := os.ReadFile(filepath.Join(dir, "spot-snapshots", "btcusdt.snap"))
	if err != nil {
		t.Fatal(err)
	}
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	e.place(bob, limit("btcusdt", "BUY", "29000", "0.1"))
	e.drain()
	old := e.eng
	if err := old.Stop(); err != nil {
		t.Fatal(err)
	}
	// Back to the older snapshot, with the journal after it gone.
	if err := os.WriteFile(filepath.Join(dir, "spot-snapshots", "btcusdt.snap"), stale, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, journalDirName)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "spot-snapshots", "seq"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.eng = e.diskEngine(dir)
	if !e.eng.rebuilt {
		t.Fatal("a stale snapshot was restored")
	}
	sameBooks(t, old, e.eng)
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.3"))
	e.drain()
	e.wantOrder(alice, sell, StatusFilled, "0.5", "15000", "15")
	e.audit()
}

// TestJournalTruncatedAfterSnapshot: a durable snapshot drops the journal
// it covers (a legacy single-file journal included), so the journal stays
// small over many snapshots; a crash after that restores exactly from the
// snapshot and the rest of the journal.
func TestJournalTruncatedAfterSnapshot(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	// A journal from before segments: one command, replayed and then dropped.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	legacy, err := matching.OpenFileJournal(filepath.Join(dir, legacyJournalName), matching.SyncOnDemand)
	if err != nil {
		t.Fatal(err)
	}
	e.deposit(alice, "BTC", "5")
	e.deposit(bob, "USDT", "1000000")
	first := e.place(alice, limit("btcusdt", "SELL", "31000", "0.1"))
	it, err := e.st.Get(e.ctx, outboxKey("btcusdt", mustID(t, first)))
	if err != nil {
		t.Fatal(err)
	}
	var c matching.Command
	if err := matching.DecodeCommand(it.Bytes("cmd"), &c); err != nil {
		t.Fatal(err)
	}
	c.Seq = 1
	if err := legacy.Append(&c); err != nil {
		t.Fatal(err)
	}
	if err := legacy.Close(); err != nil {
		t.Fatal(err)
	}
	e.eng = e.diskEngine(dir)
	e.drain() // the queued message of the legacy command is skipped
	e.wantOrder(alice, first, StatusNew, "0", "0", "0")
	if n := e.eng.books.Book(symbolNum("btcusdt")).Len(); n != 1 {
		t.Fatalf("legacy journal not replayed: %d orders", n)
	}
	journalSize := func() (files int, size int64) {
		for _, p := range []string{filepath.Join(dir, legacyJournalName), filepath.Join(dir, journalDirName)} {
			_ = filepath.Walk(p, func(_ string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					files++
					size += fi.Size()
				}
				return nil
			})
		}
		return files, size
	}
	rec := int64(8 + matching.CommandSize)
	for round := 0; round < 5; round++ {
		for i := 0; i < 10; i++ {
			e.place(alice, limit("btcusdt", "SELL", fmt.Sprint(30000+10*i), "0.01"))
			e.place(bob, limit("btcusdt", "BUY", fmt.Sprint(30000+10*i), "0.01"))
		}
		e.drain()
		if files, size := journalSize(); size < 20*rec {
			t.Fatalf("round %d: journal of %d bytes in %d files before the snapshot", round, size, files)
		}
		if err := e.eng.snapshot(); err != nil {
			t.Fatal(err)
		}
		if files, size := journalSize(); files != 1 || size != 0 {
			t.Fatalf("round %d: after the snapshot the journal keeps %d bytes in %d files", round, size, files)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, legacyJournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("legacy journal kept: %v", err)
	}
	snapAt := e.eng.seq
	e.place(bob, limit("btcusdt", "BUY", "31000", "0.1"))
	e.place(alice, limit("btcusdt", "SELL", "29000", "0.2"))
	e.place(bob, limit("btcusdt", "BUY", "29000", "0.1"))
	e.drain()
	hash, balances := e.eng.StateHash("btcusdt"), snapshotBalances(e)
	// Crash: no snapshot at the end, the journal is just closed.
	if err := e.eng.journal.Close(); err != nil {
		t.Fatal(err)
	}
	e.eng = e.diskEngine(dir)
	if e.eng.rebuilt {
		t.Fatal("the engine rebuilt instead of replaying the journal tail")
	}
	if got := e.eng.StateHash("btcusdt"); got != hash {
		t.Fatalf("restored hash %x, want %x", got, hash)
	}
	if got := snapshotBalances(e); got != balances {
		t.Fatalf("restart changed balances:\n%s\n%s", balances, got)
	}
	var firstSeq uint64
	_ = e.eng.journal.Replay(0, func(c *matching.Command) error {
		if firstSeq == 0 {
			firstSeq = c.Seq
		}
		return nil
	})
	if firstSeq != snapAt+1 {
		t.Fatalf("the journal starts at %d, want %d (just after the snapshot)", firstSeq, snapAt+1)
	}
	e.wantOrder(alice, first, StatusFilled, "0.1", "3100", "3.1")
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	e.audit()
}

// TestJournalWithoutItsSnapshotsRebuilds: snapshots deleted, truncated
// journal kept. Replaying it on empty books would settle wrong events;
// the engine sees the gap and rebuilds instead.
func TestJournalWithoutItsSnapshotsRebuilds(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	e.eng = e.diskEngine(dir)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "100000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.5"))
	e.drain()
	if err := e.eng.snapshot(); err != nil {
		t.Fatal(err)
	}
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.2"))
	e.drain()
	old := e.eng
	balances := snapshotBalances(e)
	if err := old.journal.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "spot-snapshots")); err != nil {
		t.Fatal(err)
	}
	e.eng = e.diskEngine(dir)
	if !e.eng.rebuilt {
		t.Fatal("the journal was replayed without its snapshots")
	}
	sameBooks(t, old, e.eng)
	if got := snapshotBalances(e); got != balances {
		t.Fatalf("restart changed balances:\n%s\n%s", balances, got)
	}
	e.audit()
}

func mustID(t *testing.T, s string) uint64 {
	t.Helper()
	id, err := parseOrderID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A restart says what it did: after a crash, the commands it replayed
// after the last snapshot; after a clean stop, none.
func TestRecoveryIsLogged(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	e.eng = e.diskEngine(dir)
	e.deposit(alice, "BTC", "1")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	e.place(alice, limit("btcusdt", "SELL", "30010", "0.1"))
	e.drain()
	// Crash: no snapshot, the journal file is just closed.
	if err := e.eng.journal.Close(); err != nil {
		t.Fatal(err)
	}
	restart := func() map[string]any {
		var buf bytes.Buffer
		eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: dir,
			Feed: e.feed, SnapshotEvery: -1, Log: zerolog.New(&buf)})
		if err != nil {
			t.Fatal(err)
		}
		e.eng = eng
		for _, line := range bytes.Split(buf.Bytes(), []byte("\n")) {
			var m map[string]any
			if json.Unmarshal(line, &m) == nil && m["message"] == "spot: books recovered" {
				return m
			}
		}
		t.Fatalf("no recovery line in the log:\n%s", buf.String())
		return nil
	}
	if m := restart(); m["replayed"] != 2.0 || m["rebuilt"] != false || m["seq"] != 2.0 || m["level"] != "info" {
		t.Fatalf("after a crash: %v", m)
	}
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	if m := restart(); m["replayed"] != 0.0 || m["snapshot"] != 2.0 {
		t.Fatalf("after a clean stop: %v", m)
	}
	if err := e.eng.Stop(); err != nil {
		t.Fatal(err)
	}
	e.audit()
}
