package spot

import (
	"errors"
	"testing"
)

// TestFileJournalAndSnapshotRestart: a stopped engine restores from its
// snapshot; a crashed one (no snapshot at the end) from the older snapshot
// plus the journal tail. Books come back identical and nothing settles twice.
func TestFileJournalAndSnapshotRestart(t *testing.T) {
	e := newEnv(t)
	dir := e.dir + "/engine"
	open := func() *Engine {
		eng, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: dir,
			SnapshotEvery: -1})
		if err != nil {
			t.Fatal(err)
		}
		return eng
	}
	e.eng = open()
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

	e.eng = open()
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

	e.eng = open()
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

// TestLostJournalRefusesToStart: empty books over a store with settled
// trades would reuse trade ids; the engine refuses instead.
func TestLostJournalRefusesToStart(t *testing.T) {
	e := newEnv(t)
	e.deposit(alice, "BTC", "1")
	e.deposit(bob, "USDT", "10000")
	e.place(alice, limit("btcusdt", "SELL", "30000", "0.1"))
	e.place(bob, limit("btcusdt", "BUY", "30000", "0.1"))
	e.drain()
	_, err := NewEngine(e.ctx, EngineOptions{Store: e.st, Ledger: e.led, Markets: e.cat, Orders: e.q, DataDir: e.dir + "/fresh"})
	if !errors.Is(err, ErrJournalLost) {
		t.Fatalf("engine with no journal over settled trades: %v", err)
	}
}
