package projector

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/engine/journal"
	"tenger/internal/engine/lease"
	"tenger/internal/ledger"
	"tenger/internal/matching"
	"tenger/internal/risk"
	"tenger/internal/store"
	"tenger/internal/store/embedded"
)

// chainCounter reads a money command's other side from its Note:
// "chain:<name>" for deposits and withdrawals (a settle's Note may add
// ";fee:<units>", the part that goes to the fee account), "otc" for
// transfers to and from the OTC account.
func chainCounter(c *engine.Command) ([]Side, error) {
	note := string(c.Note)
	var fee int64
	if i := strings.Index(note, ";fee:"); i >= 0 {
		fmt.Sscan(note[i+5:], &fee)
		note = note[:i]
	}
	var a ledger.Account
	switch {
	case strings.HasPrefix(note, "chain:"):
		a = ledger.ChainAccount(strings.TrimPrefix(note, "chain:"))
	case note == "otc":
		a = ledger.UserAccount(c.UserID, ledger.OTC)
	default:
		return nil, fmt.Errorf("no other side in %q", note)
	}
	if fee > 0 {
		return []Side{{Account: a, Units: c.Amount - fee}, {Account: ledger.FeeAccount(), Units: fee}}, nil
	}
	return []Side{{Account: a, Units: c.Amount}}, nil
}

type env struct {
	t   *testing.T
	st  store.Store
	led *ledger.Ledger
	eng *engine.Engine
	p   *Projector
	mu  sync.Mutex
	err error
	// keep makes delivered batches wait in kept instead of being applied.
	keep bool
	kept []*engine.Batch
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e := &env{t: t, st: st, led: ledger.New(st, nil)}
	e.p = New(Options{Store: st, Counter: chainCounter})
	e.eng, err = engine.Open(context.Background(), engine.Options{Dir: t.TempDir(), Policy: journal.NoFsync, Log: zerolog.Nop(),
		Checkpoint: e.p.Checkpoint, Deliver: func(b *engine.Batch) {
			e.mu.Lock()
			defer e.mu.Unlock()
			if e.keep {
				e.kept = append(e.kept, b)
				return
			}
			if err := e.p.Apply(context.Background(), b); err != nil && e.err == nil {
				e.err = err
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.eng.Close() })
	for _, c := range []engine.Command{{Kind: engine.KindAddCoin, Coin: "BTC", Decimals: 8},
		{Kind: engine.KindAddCoin, Coin: "USDT", Decimals: 8},
		{Kind: engine.KindAddPair, Pair: engine.PairSpec{Symbol: 7, Name: "btcusdt", Base: "BTC", Quote: "USDT", LotUnits: 100, QuoteUnitUnits: 1}}} {
		e.submit(c)
	}
	return e
}

func (e *env) submit(c engine.Command) engine.Result {
	e.t.Helper()
	r := e.eng.Submit(context.Background(), c)
	if r.Code != engine.OK {
		e.t.Fatalf("%s %s: %s %s", c.Kind, c.Ref, r.Code, r.Reason)
	}
	return r
}

func uid(n uint64) string { return fmt.Sprintf("%08d", n) }

func deposit(ref string, user uint64, coin string, units int64) engine.Command {
	return engine.Command{Kind: engine.KindCredit, Ref: ref, User: user, UserID: uid(user), Coin: coin, Amount: units, Note: []byte("chain:TRC20")}
}

func order(id, user uint64, side matching.Side, ticks, lots int64) engine.Command {
	return engine.Command{Kind: engine.KindPlace, User: user, UserID: uid(user), Order: matching.Command{OrderID: id, UserID: user,
		Symbol: 7, Side: side, Type: matching.Limit, TIF: matching.GTC, Price: ticks, Qty: lots},
		Spec: risk.OrderSpec{Maker: 100_000, Taker: 100_000}}
}

// storedBalance reads a projected balance as the ledger reads it.
func (e *env) storedBalance(a ledger.Account, coin string) ledger.Balance {
	e.t.Helper()
	b, err := e.led.Balance(context.Background(), a, coin)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// TestProjectionAuditsClean: deposits, trades, a cancel, a withdrawal
// settled with its fee and a transfer out, projected: every store balance
// equals the engine's, and the ledger's audit of the postings is clean.
func TestProjectionAuditsClean(t *testing.T) {
	e := newEnv(t)
	e.submit(deposit("dep:1", 1, "BTC", 200_000_000))
	e.submit(deposit("dep:2", 2, "USDT", 10_000_000_000_000))
	e.submit(order(11, 1, matching.Sell, 3_000_000, 1_000_000))
	e.submit(order(12, 2, matching.Buy, 3_000_000, 400_000))
	e.submit(engine.Command{Kind: engine.KindCancel, Order: matching.Command{OrderID: 11, UserID: 1, Symbol: 7}})
	e.submit(engine.Command{Kind: engine.KindHold, Ref: "wd:1", User: 2, UserID: uid(2), Coin: "USDT", Amount: 100_000_000})
	e.submit(engine.Command{Kind: engine.KindSettle, Ref: "wd:1", Coin: "USDT", Amount: 100_000_000, Note: []byte("chain:TRC20;fee:1000000")})
	e.submit(engine.Command{Kind: engine.KindDebit, Ref: "tr:1", User: 1, UserID: uid(1), Coin: "BTC", Amount: 1_000, Note: []byte("otc")})
	if e.err != nil {
		t.Fatal(e.err)
	}
	// The transfer's other side, the user's OTC account, moved with the
	// posting; the withdrawal's fee went to the fee account, the rest to
	// the chain.
	if b := e.storedBalance(ledger.UserAccount(uid(1), ledger.OTC), "BTC"); !b.Available.Equal(decimal.RequireFromString("0.00001")) {
		t.Fatalf("OTC %s", b.Available)
	}
	if b := e.storedBalance(ledger.FeeAccount(), "USDT"); !b.Available.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("withdrawal fee %s", b.Available)
	}
	if b := e.storedBalance(ledger.ChainAccount("TRC20"), "USDT"); !b.Available.Equal(decimal.RequireFromString("-99999.01")) {
		t.Fatalf("chain %s: 100,000 in, 0.99 out", b.Available)
	}
	e.eng.Read(func(s *engine.State) {
		for _, u := range s.Accounts().Users() {
			for i, c := range s.Accounts().Coins() {
				want := s.Accounts().Get(u.Num, risk.KindSpot, risk.Coin(i))
				got := e.storedBalance(Account(u.ID, risk.KindSpot), c.Code)
				if !got.Available.Equal(units(want.Avail, c.Decimals)) || !got.Frozen.Equal(units(want.Held, c.Decimals)) {
					t.Errorf("%s %s: store %s/%s, engine %d/%d", u.ID, c.Code, got.Available, got.Frozen, want.Avail, want.Held)
				}
			}
		}
	})
	rep, err := e.led.Audit(context.Background(), "BTC", "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
}

// A batch written twice writes the same items; one at or below the
// checkpoint is skipped; a batch whose other side is unknown is refused
// whole.
func TestApplyIsIdempotentAndRefusesUnbalanced(t *testing.T) {
	e := newEnv(t)
	var batches []*engine.Batch
	p2 := New(Options{Store: e.st, Counter: chainCounter})
	for _, c := range []engine.Command{deposit("a", 1, "BTC", 100), deposit("b", 2, "USDT", 1_000_000_000)} {
		r := e.submit(c)
		batches = append(batches, &engine.Batch{Commands: []engine.Command{c}, Results: []engine.Result{r}})
	}
	cp, _ := e.p.Checkpoint(context.Background())
	if err := p2.Apply(context.Background(), batches[0]); err != nil || cp < batches[1].Last() {
		t.Fatalf("a batch below the checkpoint: %v (checkpoint %d)", err, cp)
	}
	bad := &engine.Batch{Commands: []engine.Command{{Kind: engine.KindCredit, Ref: "x", UserID: "u", Coin: "BTC", Amount: 5, At: 1,
		Note: []byte("nowhere")}}, Results: []engine.Result{{Code: engine.OK, Seq: cp + 1}}}
	if err := e.p.Apply(context.Background(), bad); err == nil {
		t.Fatal("a credit from nowhere was projected")
	}
	unbalanced := &engine.Batch{Commands: []engine.Command{{Kind: engine.KindHold, At: 1}}, Results: []engine.Result{{Code: engine.OK, Seq: cp + 1}},
		Balances: []engine.BalanceState{{UserID: "u", Coin: "BTC", Decimals: 8, Avail: 5}}}
	if err := e.p.Apply(context.Background(), unbalanced); !errors.Is(err, ErrUnbalanced) {
		t.Fatalf("a balance appearing from nothing: %v", err)
	}
	if got, _ := e.p.Checkpoint(context.Background()); got != cp {
		t.Fatalf("checkpoint moved to %d on refused batches", got)
	}
}

// A crash after a batch's writes but before its checkpoint: the batch is
// written again on restart, and moves the other sides once.
func TestBatchWrittenTwiceMovesOnce(t *testing.T) {
	e := newEnv(t)
	var kept *engine.Batch
	e.submit(deposit("dep:1", 1, "USDT", 500_000_000))
	rec := New(Options{Store: e.st, Counter: chainCounter})
	cp, _ := e.p.Checkpoint(context.Background())
	// Rebuild the deposit's batch as the engine delivered it.
	e.eng.Read(func(s *engine.State) {
		kept = &engine.Batch{Commands: []engine.Command{deposit("dep:1", 1, "USDT", 500_000_000)},
			Results:  []engine.Result{{Code: engine.OK, Seq: cp}},
			Balances: []engine.BalanceState{{User: 1, UserID: uid(1), Coin: "USDT", Decimals: 8, Avail: 500_000_000}}}
		kept.Commands[0].At = 1
	})
	// The checkpoint is lost (the crash came before it was written).
	if err := e.st.Delete(context.Background(), checkpointKey, nil); err != nil {
		t.Fatal(err)
	}
	if err := rec.Apply(context.Background(), kept); err != nil {
		t.Fatal(err)
	}
	if b := e.storedBalance(ledger.ChainAccount("TRC20"), "USDT"); !b.Available.Equal(decimal.RequireFromString("-5")) {
		t.Fatalf("chain %s after the batch was written twice", b.Available)
	}
	rep, err := e.led.Audit(context.Background(), "USDT")
	if err != nil || !rep.Clean() {
		t.Fatalf("audit %v %v", rep.Problems, err)
	}
}

// An engine that lost its lease to a standby writes nothing more: every
// transaction of its projection carries the lease's term (the fence), and
// the store refuses them once the standby holds a higher one. A batch
// larger than one transaction still fits beside the fence.
func TestFencedProjectionWritesNothing(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	a := lease.New(e.st, "spot", "engine-a", 10*time.Second, clock)
	if ok, err := a.TryAcquire(ctx); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}
	fence, ok := a.Fence()
	if !ok {
		t.Fatal("a held lease gave no fence")
	}
	e.p = New(Options{Store: e.st, Counter: chainCounter, Fence: &fence})

	// 150 users' deposits as one batch: 150 balance writes and the
	// checkpoint, in transactions of at most 99 writes and the fence.
	e.keep = true
	for u := uint64(1); u <= 150; u++ {
		e.submit(deposit(fmt.Sprintf("big:%d", u), u, "USDT", int64(u)))
	}
	e.mu.Lock()
	big := engine.Merge(e.kept)
	e.kept, e.keep = nil, false
	e.mu.Unlock()
	if err := e.p.Apply(ctx, big); err != nil {
		t.Fatalf("a batch of 150 balances with the fence: %v", err)
	}
	if b := e.storedBalance(Account(uid(150), risk.KindSpot), "USDT"); !b.Available.Equal(units(150, 8)) {
		t.Fatalf("user 150: %s", b.Available)
	}
	cp, _ := e.p.Checkpoint(ctx)

	// The lease lapses and the standby takes it (term 2); the old engine,
	// still running, projects its next batch.
	now = now.Add(11 * time.Second)
	b := lease.New(e.st, "spot", "engine-b", 10*time.Second, clock)
	if ok, err := b.TryAcquire(ctx); !ok || err != nil || b.Term() != 2 {
		t.Fatalf("standby: %v %v term %d", ok, err, b.Term())
	}
	e.submit(deposit("late", 1, "BTC", 5))
	if !errors.Is(e.err, ErrFenced) {
		t.Fatalf("a fenced-off engine's batch: %v", e.err)
	}
	if got := e.storedBalance(Account(uid(1), risk.KindSpot), "BTC"); !got.Available.IsZero() {
		t.Fatalf("a fenced-off engine wrote a balance: %s", got.Available)
	}
	if got := e.storedBalance(ledger.ChainAccount("TRC20"), "BTC"); !got.Available.IsZero() {
		t.Fatalf("a fenced-off engine wrote a posting's other side: %s", got.Available)
	}
	it, err := e.st.Get(ctx, checkpointKey)
	if err != nil || uint64(it.Int("seq")) != cp {
		t.Fatalf("checkpoint %v (%v), want %d", it, err, cp)
	}
}
