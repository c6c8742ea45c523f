package projector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/ledger"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store/embedded"
)

// TestRandomCommandsCrashesAndAudit drives the engine and the projection
// with random concurrent deposits, withdrawals (held, then settled or
// released), transfers out and orders, and crashes the engine at random
// points (its buffered journal tail and every unfinished projection are
// lost, as after kill -9; the journal is only flushed by the syncs of
// answered groups). After every restart: every answered command is still
// applied (its retry answers Exists), no balance is negative, what is held
// equals what orders and withdrawals hold, every store balance equals the
// engine's, and the ledger's audit of the postings is clean.
func TestRandomCommandsCrashesAndAudit(t *testing.T) {
	dir := t.TempDir()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	led := ledger.New(st, nil)
	rng := rand.New(rand.NewPCG(9, 10))
	answered := map[string]engine.Command{} // money commands answered OK, by ref
	var amu sync.Mutex
	open := func() (*engine.Engine, *Projector, *error) {
		p := New(Options{Store: st, Counter: chainCounter})
		var perr error
		var pmu sync.Mutex
		e, err := engine.Open(context.Background(), engine.Options{Dir: dir, Policy: journal.Durable, MaxBatch: 64,
			Log: zerolog.Nop(), Checkpoint: p.Checkpoint, Deliver: func(b *engine.Batch) {
				pmu.Lock()
				defer pmu.Unlock()
				if err := p.Apply(context.Background(), b); err != nil && perr == nil {
					perr = err
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		return e, p, &perr
	}
	e, _, perr := open()
	for _, c := range []engine.Command{{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8},
		{Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8},
		{Kind: engine.KindAddPair, Pair: engine.PairSpec{Symbol: 7, Name: "btcusdt", Base: "BTC", Quote: "USDT", LotUnits: 100, QuoteUnitUnits: 1}}} {
		e.Submit(context.Background(), c)
	}
	nextID := uint64(1)
	for round := 0; round < 6; round++ {
		var startSeq uint64
		e.Read(func(s *engine.State) { startSeq = s.Seq() })
		var wg sync.WaitGroup
		var idmu sync.Mutex
		for w := 1; w <= 6; w++ {
			seed := rng.Uint64()
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(seed, uint64(w)))
				user := uint64(w)
				for i := 0; i < 150; i++ {
					var c engine.Command
					ref := fmt.Sprintf("r%d-%d-%d", round, w, i)
					switch op := r.IntN(10); {
					case op < 2:
						coin, amt := "USDT", r.Int64N(50_000_000_000)+1
						if op == 1 {
							coin, amt = "BTC", r.Int64N(10_000_000)+1
						}
						c = engine.Command{Kind: engine.KindCredit, Ref: ref, User: user, UserID: uid(user), Coin: coin, Amount: amt,
							Note: []byte("chain:TRC20")}
					case op < 3:
						c = engine.Command{Kind: engine.KindHold, Ref: "wd" + ref, User: user, UserID: uid(user), Coin: "USDT",
							Amount: r.Int64N(2_000_000_000) + 1}
					case op < 4:
						c = engine.Command{Kind: engine.KindDebit, Ref: ref, User: user, UserID: uid(user), Coin: "BTC",
							Amount: r.Int64N(1_000_000) + 1, Note: []byte("otc")}
					default:
						idmu.Lock()
						id := nextID
						nextID++
						idmu.Unlock()
						side := matching.Buy
						if r.IntN(2) == 0 {
							side = matching.Sell
						}
						c = engine.Command{Kind: engine.KindPlace, User: user, UserID: uid(user), Order: matching.Command{OrderID: id,
							UserID: user, Symbol: 7, Side: side, Type: matching.Limit, TIF: matching.GTC,
							Price: 3_000_000 + r.Int64N(20) - 10, Qty: r.Int64N(5_000) + 100},
							Spec: risk.OrderSpec{Maker: 80_000, Taker: 100_000}}
					}
					res := e.Submit(context.Background(), c)
					if res.Code == engine.Unavailable {
						return // the engine crashed under us
					}
					if res.Code == engine.OK && c.Kind != engine.KindPlace {
						amu.Lock()
						answered[c.Ref] = c
						amu.Unlock()
						if c.Kind == engine.KindHold {
							// Settle or release it at once (the withdrawal's
							// workflow), with the hold's amount.
							end := engine.Command{Kind: engine.KindRelease, Ref: c.Ref, Amount: c.Amount}
							if r.IntN(2) == 0 {
								end = engine.Command{Kind: engine.KindSettle, Ref: c.Ref, Coin: "USDT", Amount: c.Amount,
									Note: []byte("chain:TRC20;fee:1000")}
							}
							if e.Submit(context.Background(), end).Code == engine.Unavailable {
								return
							}
						}
					}
				}
			}()
		}
		// Crash part-way through the round: no Close, no final sync.
		crashAfter := rng.IntN(300) + 50
		for {
			var seq uint64
			e.Read(func(s *engine.State) { seq = s.Seq() })
			if seq > startSeq+uint64(crashAfter) {
				break
			}
			if done := waitTimeout(&wg); done {
				break
			}
		}
		var crashedAt uint64
		e.Read(func(s *engine.State) { crashedAt = s.Seq() })
		e.Crash()
		wg.Wait()
		if *perr != nil {
			t.Fatal(*perr)
		}
		var p *Projector
		e, p, perr = open()
		_ = p
		// Every answered money command is still there: its retry Exists.
		amu.Lock()
		for ref, c := range answered {
			if r := e.Submit(context.Background(), c); r.Code != engine.Exists {
				t.Fatalf("round %d: answered %s %s came back as %s", round, c.Kind, ref, r.Code)
			}
		}
		t.Logf("round %d: crashed near seq %d; %d money commands answered so far", round, crashedAt, len(answered))
		amu.Unlock()
		// Recovery handed the store what it lacked: an error there is the
		// failure, not the difference it leaves.
		if *perr != nil {
			t.Fatalf("round %d: projection after recovery: %v", round, *perr)
		}
		checkProjection(t, e, led)
	}
	_ = e.Close()
}

// waitTimeout reports whether wg finished within a short while.
func waitTimeout(wg *sync.WaitGroup) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// checkProjection compares the store with the engine and audits the ledger.
func checkProjection(t *testing.T, e *engine.Engine, led *ledger.Ledger) {
	t.Helper()
	ctx := context.Background()
	e.Read(func(s *engine.State) {
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		for _, u := range s.Accounts().Users() {
			for i, c := range s.Accounts().Coins() {
				want := s.Accounts().Get(u.Num, risk.KindSpot, risk.Coin(i))
				got, err := led.Balance(ctx, Account(u.ID, risk.KindSpot), c.Code)
				if err != nil {
					t.Fatal(err)
				}
				if !got.Available.Equal(units(want.Avail, c.Decimals)) || !got.Frozen.Equal(units(want.Held, c.Decimals)) {
					t.Fatalf("%s %s: store %s/%s, engine %d/%d", u.ID, c.Code, got.Available, got.Frozen, want.Avail, want.Held)
				}
			}
		}
	})
	rep, err := led.Audit(ctx, "BTC", "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
}
