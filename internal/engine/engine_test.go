package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/engine/journal"
	"tenger/internal/matching"
	"tenger/internal/risk"
)

// recorder keeps the batches delivered and checks they come in order.
type recorder struct {
	t       *testing.T
	mu      sync.Mutex
	last    uint64
	batches int
	cmds    []Command
	// balances are the last values delivered, by user and coin.
	balances map[string]BalanceState
}

func (r *recorder) deliver(b *Batch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, res := range b.Results {
		if res.Seq != r.last+1 && r.last != 0 {
			r.t.Errorf("delivered seq %d after %d", res.Seq, r.last)
		}
		r.last = res.Seq
		r.cmds = append(r.cmds, b.Commands[i])
	}
	if r.balances == nil {
		r.balances = map[string]BalanceState{}
	}
	for _, v := range b.Balances {
		r.balances[fmt.Sprintf("%d/%s", v.User, v.Coin)] = v
	}
	r.batches++
}

func open(t *testing.T, dir string, checkpoint uint64, rec *recorder) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Options{Dir: dir, Policy: journal.NoFsync, Deliver: rec.deliver, Log: zerolog.Nop(),
		Checkpoint: func(context.Context) (uint64, error) { return checkpoint, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func submit(t *testing.T, e *Engine, cmds ...Command) []Result {
	t.Helper()
	var out []Result
	for _, c := range cmds {
		out = append(out, e.Submit(context.Background(), c))
	}
	return out
}

func hashOf(e *Engine) (h uint64) {
	e.Read(func(s *State) { h = s.StateHash() })
	return
}

// Many goroutines submit at once: every command is answered, the batches
// are delivered in sequence order, and a restart replays the journal to
// the same state.
func TestConcurrentSubmitsAndRecovery(t *testing.T) {
	dir := t.TempDir()
	rec := &recorder{t: t}
	e := open(t, dir, 0, rec)
	submit(t, e, setup()...)
	var wg sync.WaitGroup
	for w := uint64(1); w <= 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := e.Submit(context.Background(), credit(fmt.Sprintf("d%d", w), w, "USDT", 10_000_000_000_000)); r.Code != OK {
				t.Errorf("credit: %s", r.Code)
			}
			if r := e.Submit(context.Background(), credit(fmt.Sprintf("b%d", w), w, "BTC", 100_000_000)); r.Code != OK {
				t.Errorf("credit: %s", r.Code)
			}
			for i := uint64(0); i < 200; i++ {
				side, price := matching.Buy, int64(2_990_000+i%20*1000)
				if i%2 == 1 {
					side, price = matching.Sell, int64(3_000_000-i%20*1000)
				}
				r := e.Submit(context.Background(), place(w*1_000_000+i, w, side, price, 1000))
				if r.Code != OK {
					t.Errorf("place: %s %s", r.Code, r.Reason)
					return
				}
			}
		}()
	}
	wg.Wait()
	var seq uint64
	e.Read(func(s *State) {
		seq = s.Seq()
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
	})
	if rec.last != seq || seq != 3+8*202 {
		t.Fatalf("delivered through %d of %d", rec.last, seq)
	}
	// The balances delivered, last value each, are the engine's.
	e.Read(func(s *State) {
		for _, u := range s.acct.Users() {
			for i, c := range s.acct.Coins() {
				b := s.acct.Get(u.Num, risk.KindSpot, risk.Coin(i))
				if got := rec.balances[fmt.Sprintf("%d/%s", u.Num, c.Code)]; got.Avail != b.Avail || got.Held != b.Held {
					t.Errorf("user %d %s: delivered %+v, engine %+v", u.Num, c.Code, got, b)
				}
			}
		}
	})
	want := hashOf(e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// The projection holds everything: nothing is delivered again.
	again := &recorder{t: t}
	e2 := open(t, dir, seq, again)
	defer e2.Close()
	if hashOf(e2) != want {
		t.Fatal("the replayed state differs")
	}
	if again.batches != 0 {
		t.Fatalf("%d batches delivered again", again.batches)
	}
}

// A restart whose projection lags hands on every command after its
// checkpoint; a snapshot restores the state without the journal before it.
func TestRecoveryFromSnapshotAndCheckpoint(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir, 0, &recorder{t: t})
	submit(t, e, setup()...)
	submit(t, e, credit("d1", 1, "BTC", 100_000_000), credit("d2", 2, "USDT", 10_000_000_000_000))
	submit(t, e, place(1, 1, matching.Sell, 3_000_000, 100_000), place(2, 2, matching.Buy, 3_000_000, 40_000))
	// Snapshot at 7 with the projection at 7: the journal before it goes.
	if err := e.Snapshot(7); err != nil {
		t.Fatal(err)
	}
	submit(t, e, place(3, 2, matching.Buy, 3_000_000, 10_000), Command{Kind: KindHold, Ref: "wd:1", User: 1, UserID: uid(1),
		Coin: "BTC", Amount: 5})
	want := hashOf(e)
	_ = e.Close()

	rec := &recorder{t: t}
	e2 := open(t, dir, 8, rec) // the projection holds through 8
	if hashOf(e2) != want {
		t.Fatal("snapshot + journal differ from the state before the restart")
	}
	if len(rec.cmds) != 1 || rec.cmds[0].Kind != KindHold || rec.last != 9 {
		t.Fatalf("handed on again: %+v (last %d)", rec.cmds, rec.last)
	}
	// New commands go on from there.
	if r := submit(t, e2, Command{Kind: KindSettle, Ref: "wd:1", Amount: 5}); r[0].Code != OK || r[0].Seq != 10 {
		t.Fatalf("after the restart: %+v", r[0])
	}
	_ = e2.Close()

	// A projection behind the snapshot: the snapshot cannot be used (it
	// holds commands the projection lacks), so the engine starts from an
	// older one (none here) and replays them all... which the dropped
	// journal no longer has: it refuses to start rather than lose them.
	if _, err := Open(context.Background(), Options{Dir: dir, Policy: journal.NoFsync, Log: zerolog.Nop(),
		Checkpoint: func(context.Context) (uint64, error) { return 3, nil }}); err == nil {
		t.Fatal("the engine started without the commands its projection lacks")
	}
}

// A command that cannot be paid is refused before the book, and answered
// without changing anything but the sequence.
func TestInsufficientAnswered(t *testing.T) {
	e := open(t, t.TempDir(), 0, &recorder{t: t})
	defer e.Close()
	submit(t, e, setup()...)
	r := submit(t, e, place(1, 1, matching.Sell, 1, 1))[0]
	if r.Code != Insufficient {
		t.Fatalf("%+v", r)
	}
	var b risk.Balance
	e.Read(func(s *State) { b = s.acct.Get(1, risk.KindSpot, 0) })
	if b != (risk.Balance{}) {
		t.Fatalf("%+v", b)
	}
}

// An amendment of a partly filled order replays to the same book: the
// journal holds the new total the caller sent, which the replay turns into
// the remaining quantity against the replayed order again (journaling the
// rewritten command would have the replay take the rest for the total).
func TestAmendOfAPartlyFilledOrderReplays(t *testing.T) {
	dir := t.TempDir()
	e := open(t, dir, 0, &recorder{t: t})
	submit(t, e, setup()...)
	submit(t, e, credit("d1", 1, "BTC", 200_000_000), credit("d2", 2, "USDT", 10_000_000_000_000))
	rs := submit(t, e,
		place(11, 1, matching.Sell, 3_000_000, 1_000_000), // 1 BTC
		place(12, 2, matching.Buy, 3_000_000, 300_000),    // fills 0.3 of it
		Command{Kind: KindAmend, User: 1, UserID: uid(1), Order: matching.Command{OrderID: 11, UserID: 1, Symbol: btcusdt, Qty: 800_000}},
	)
	if rs[2].Code != OK {
		t.Fatalf("amend %+v", rs[2])
	}
	want := hashOf(e)
	var before matching.OrderInfo
	e.Read(func(s *State) { before, _ = s.Book(btcusdt).Order(11) })
	if before.Qty != 500_000 || before.Filled != 300_000 {
		t.Fatalf("order after the amendment %+v", before)
	}
	e.Crash()

	e2 := open(t, dir, 0, &recorder{t: t})
	defer e2.Close()
	var after matching.OrderInfo
	e2.Read(func(s *State) { after, _ = s.Book(btcusdt).Order(11) })
	if after != before || hashOf(e2) != want {
		t.Fatalf("replayed order %+v, before the crash %+v (state hashes equal: %v)", after, before, hashOf(e2) == want)
	}
}
