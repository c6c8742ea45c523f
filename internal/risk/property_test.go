package risk

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"tenger/internal/matching"
)

// workloadEnv runs the matching benchmark's order flow through R1, the
// book and R2, with each user funded from seed.
type workloadEnv struct {
	acct *Accounts
	r    *Spot
	book *matching.Book
	// out is the book's sink: the book writes each command's events into
	// it, R2 reads them from there (Settle), and so would the publisher.
	out  *matching.EventBuffer
	spec OrderSpec
	// Results of R1, by result.
	results [8]int
}

func newWorkloadEnv(tb testing.TB, users int, fund func(u uint64) (btc, usdt int64)) *workloadEnv {
	tb.Helper()
	w := &workloadEnv{acct: NewAccounts(users + 1), spec: OrderSpec{Kind: KindSpot, Maker: 80_000, Taker: 100_000},
		out: matching.NewEventBuffer(4096)}
	btc, _ := w.acct.AddCoin(CoinInfo{Code: "BTC", Decimals: 8})
	usdt, _ := w.acct.AddCoin(CoinInfo{Code: "USDT", Decimals: 8})
	w.r = NewSpot(w.acct, 1<<13)
	if err := w.r.AddSymbol(Symbol{ID: 1, Base: btc, Quote: usdt, LotUnits: 100, QuoteUnitUnits: 1}); err != nil {
		tb.Fatal(err)
	}
	for u := 1; u <= users; u++ {
		s := w.acct.Register(uint64(u), "u")
		b, q := fund(uint64(u))
		if err := w.acct.Credit(s, KindSpot, btc, b); err != nil {
			tb.Fatal(err)
		}
		if err := w.acct.Credit(s, KindSpot, usdt, q); err != nil {
			tb.Fatal(err)
		}
	}
	w.book = matching.NewBook(matching.BookConfig{Symbol: 1, InitialOrders: 1 << 13, InitialLevels: 1 << 10}, w.out)
	return w
}

// apply is the engine's order path for one command: R1, the book, R2.
func (w *workloadEnv) apply(c *matching.Command) {
	switch c.Kind {
	case matching.CmdPlace:
		if res := w.r.Place(c, w.spec); res != OK {
			w.results[res]++
			return
		}
	case matching.CmdAmend:
		o, _ := w.book.Order(c.OrderID)
		if res := w.r.Amend(c, o.Tag); res != OK {
			w.results[res]++
			return
		}
	}
	w.results[OK]++
	w.book.Apply(c)
	w.r.Settle(w.out.Events)
	w.out.Reset()
}

// totals sums every balance per coin, the fee account's included.
func (w *workloadEnv) totals() []int64 {
	out := make([]int64, len(w.acct.coins))
	for i, b := range w.acct.bal {
		out[i%len(w.acct.coins)] += b.Avail + b.Held
	}
	return out
}

// TestWorkloadNeverOverdraws runs 200,000 orders of the benchmark's flow
// (limit, IOC, amends, cancels) with balances so small that many orders
// are refused: no balance ever goes negative, what is held always equals
// what open orders hold, and no coin is created or lost.
func TestWorkloadNeverOverdraws(t *testing.T) {
	cmds := matching.GenerateWorkload(matching.WorkloadConfig{Seed: 7, Orders: 200_000, Symbol: 1, Users: 200})
	rng := rand.New(rand.NewPCG(3, 4))
	w := newWorkloadEnv(t, 200, func(uint64) (int64, int64) {
		// Up to 0.05 BTC and 500,000,000 units (5 USDT... at ticks of
		// 10^-8 per quote unit a 100-lot order at 1,000,000 ticks costs
		// 100,000,000 units).
		return rng.Int64N(5_000_000), rng.Int64N(500_000_000)
	})
	start := w.totals()
	for i := range cmds {
		w.apply(&cmds[i])
		if i%5000 == 0 {
			if err := w.r.Check(nil); err != nil {
				t.Fatalf("after command %d: %v", i, err)
			}
		}
	}
	if err := w.r.Check(nil); err != nil {
		t.Fatal(err)
	}
	end := w.totals()
	for c := range start {
		if start[c] != end[c] {
			t.Fatalf("coin %s: %d before, %d after", w.acct.coins[c].Code, start[c], end[c])
		}
	}
	if w.results[Insufficient] == 0 || w.results[OK] == 0 || w.book.LastTradeID() == 0 {
		t.Fatalf("the flow did not exercise both paths: %v results, %d trades", w.results, w.book.LastTradeID())
	}
	// Everything ends: cancel every open order, and nothing stays held.
	for i, u := range w.acct.users {
		c := matching.Command{Kind: matching.CmdCancelAll, UserID: u.Num, Symbol: 1, Seq: uint64(len(cmds) + 1 + i)}
		w.apply(&c)
	}
	for i, b := range w.acct.bal {
		if b.Held != 0 {
			t.Fatalf("balance %d still holds %d after every order was cancelled", i, b.Held)
		}
	}
	t.Logf("R1 results %v, %d trades", w.results, w.book.LastTradeID())
}

// TestSnapshotRestoreReplays takes a snapshot of the risk state (and the
// book) half-way through the flow, restores both into new engines, and
// applies the rest of the commands to the original and the restored pair:
// they end with equal state hashes and equal balances, as a restart from a
// snapshot plus the journal after it must.
func TestSnapshotRestoreReplays(t *testing.T) {
	cmds := matching.GenerateWorkload(matching.WorkloadConfig{Seed: 11, Orders: 60_000, Symbol: 1, Users: 100})
	rng := rand.New(rand.NewPCG(5, 6))
	w := newWorkloadEnv(t, 100, func(uint64) (int64, int64) {
		return rng.Int64N(5_000_000), rng.Int64N(500_000_000)
	})
	half := len(cmds) / 2
	for i := range cmds[:half] {
		w.apply(&cmds[i])
	}
	var rs, bs bytes.Buffer
	if err := w.r.Snapshot(&rs); err != nil {
		t.Fatal(err)
	}
	if err := w.book.Snapshot(&bs); err != nil {
		t.Fatal(err)
	}
	r2, err := RestoreSpot(bytes.NewReader(rs.Bytes()), 1024)
	if err != nil {
		t.Fatal(err)
	}
	if r2.StateHash() != w.r.StateHash() {
		t.Fatal("the restored state hashes differently")
	}
	w2 := &workloadEnv{acct: r2.Accounts(), r: r2, spec: w.spec, out: matching.NewEventBuffer(64)}
	w2.book = matching.NewBook(matching.BookConfig{Symbol: 1}, w2.out)
	if err := w2.book.Restore(bytes.NewReader(bs.Bytes())); err != nil {
		t.Fatal(err)
	}
	for i := half; i < len(cmds); i++ {
		c := cmds[i]
		w.apply(&cmds[i])
		w2.apply(&c)
	}
	if w.r.StateHash() != w2.r.StateHash() || w.book.StateHash() != w2.book.StateHash() {
		t.Fatal("the engines diverged after the restore")
	}
	if err := w2.r.Check(nil); err != nil {
		t.Fatal(err)
	}
	// A corrupt snapshot is refused.
	bad := slices.Clone(rs.Bytes())
	bad[len(bad)/2] ^= 1
	if _, err := RestoreSpot(bytes.NewReader(bad), 16); !errors.Is(err, ErrBadSnapshot) {
		t.Fatalf("a corrupt snapshot: %v", err)
	}
}

// A snapshot written before the futures account (version 01: spot
// balances only) restores with the futures balances at zero and the same
// state as the engine that wrote it.
func TestRestoresVersion1Snapshot(t *testing.T) {
	cmds := matching.GenerateWorkload(matching.WorkloadConfig{Seed: 3, Orders: 5_000, Symbol: 1, Users: 20})
	rng := rand.New(rand.NewPCG(1, 9))
	w := newWorkloadEnv(t, 20, func(uint64) (int64, int64) {
		return rng.Int64N(5_000_000), rng.Int64N(500_000_000)
	})
	for i := range cmds {
		w.apply(&cmds[i])
	}
	var v1 bytes.Buffer
	bw := bufio.NewWriter(&v1)
	bw.Write(snapshotMagicV1[:])
	e := encoder{w: bw}
	w.r.encodeKinds(&e, 1)
	var tail [8]byte
	binary.LittleEndian.PutUint64(tail[:], e.h)
	bw.Write(tail[:])
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	r2, err := RestoreSpot(bytes.NewReader(v1.Bytes()), 64)
	if err != nil {
		t.Fatal(err)
	}
	if r2.StateHash() != w.r.StateHash() {
		t.Fatal("a version 01 snapshot restores to another state")
	}
	a, b := w.r.Accounts(), r2.Accounts()
	for s := range a.Users() {
		for c := range a.Coins() {
			if *a.At(Slot(s), KindSpot, Coin(c)) != *b.At(Slot(s), KindSpot, Coin(c)) || *b.At(Slot(s), KindFutures, Coin(c)) != (Balance{}) {
				t.Fatalf("user slot %d coin %d", s, c)
			}
		}
	}
}
