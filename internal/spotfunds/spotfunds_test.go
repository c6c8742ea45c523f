package spotfunds_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/engine"
	"tenger/internal/ledger"
	"tenger/internal/risk"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store/embedded"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Every movement behaves the same on the store ledger and on the engine:
// the balances the store shows, the errors, the retries, and a clean audit.
func TestMovementsOnBothImplementations(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	led := ledger.New(st, nil)
	for _, impl := range spotfundstest.Both(t, st, nil) {
		t.Run(impl.Name, func(t *testing.T) {
			f := impl.Funds
			uid := "1000" + impl.Name // a user per implementation
			chain := ledger.ChainAccount("TRC20")
			otc := ledger.UserAccount(uid, ledger.OTC)
			futures := ledger.UserAccount(uid, ledger.Futures)
			bal := func(a ledger.Account) ledger.Balance {
				t.Helper()
				b, err := led.Balance(ctx, a, "USDT")
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			spot := ledger.UserAccount(uid, ledger.Spot)
			want := func(avail, frozen string) {
				t.Helper()
				if b := bal(spot); !b.Available.Equal(d(avail)) || !b.Frozen.Equal(d(frozen)) {
					t.Fatalf("spot = %s available, %s frozen; want %s, %s", b.Available, b.Frozen, avail, frozen)
				}
				if impl.Engine != nil {
					a, h := impl.Engine.Available(uid, "USDT")
					if a != d(avail).Shift(8).IntPart() || h != d(frozen).Shift(8).IntPart() {
						t.Fatalf("engine = %d available, %d held; want %s, %s", a, h, avail, frozen)
					}
				}
			}
			credit := spotfunds.Move{Ref: "deposit:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("100"), Other: chain, Reason: "deposit"}
			for range 2 { // a retry credits nothing more
				if err := f.Credit(ctx, credit); err != nil {
					t.Fatal(err)
				}
			}
			want("100", "0")
			other := credit
			other.Amount = d("5")
			if err := f.Credit(ctx, other); !errors.Is(err, spotfunds.ErrConflict) {
				t.Fatalf("a reused ref with another amount: %v, want ErrConflict", err)
			}
			if err := f.Debit(ctx, spotfunds.Move{Ref: "x1:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("100.5"), Other: otc, Reason: "transfer"}); !errors.Is(err, spotfunds.ErrInsufficient) {
				t.Fatalf("overdraw: %v, want ErrInsufficient", err)
			}
			if err := f.Debit(ctx, spotfunds.Move{Ref: "x2:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("30"), Other: otc, Reason: "transfer"}); err != nil {
				t.Fatal(err)
			}
			want("70", "0")
			if b := bal(otc); !b.Available.Equal(d("30")) {
				t.Fatalf("OTC = %s, want 30", b.Available)
			}
			// The futures account moves by its own command, never as a
			// debit's other side.
			if err := f.Debit(ctx, spotfunds.Move{Ref: "x3:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("1"), Other: futures}); !errors.Is(err, spotfunds.ErrInvalid) {
				t.Fatalf("a debit to the futures account: %v, want ErrInvalid", err)
			}
			in := spotfunds.Move{Ref: "f1:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("30"), Reason: "transfer_futures"}
			for range 2 { // a retry moves nothing more
				if err := f.Futures(ctx, in, true); err != nil {
					t.Fatal(err)
				}
			}
			want("40", "0")
			if b := bal(futures); !b.Available.Equal(d("30")) {
				t.Fatalf("futures = %s, want 30", b.Available)
			}
			out := spotfunds.Move{Ref: "f2:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("30.5"), Reason: "transfer_futures"}
			if err := f.Futures(ctx, out, false); !errors.Is(err, spotfunds.ErrInsufficient) {
				t.Fatalf("out of futures beyond its balance: %v, want ErrInsufficient", err)
			}
			out.Ref, out.Amount = "f3:"+impl.Name, d("30")
			if err := f.Futures(ctx, out, false); err != nil {
				t.Fatal(err)
			}
			want("70", "0")
			if b := bal(futures); !b.Available.IsZero() {
				t.Fatalf("futures = %s, want 0", b.Available)
			}
			hold := spotfunds.Move{Ref: "withdraw:a" + impl.Name, UID: uid, Coin: "USDT", Amount: d("50"), Other: chain, Fee: d("1"), Reason: "withdraw"}
			if err := f.Hold(ctx, hold); err != nil {
				t.Fatal(err)
			}
			want("20", "50")
			if err := f.Release(ctx, spotfunds.Move{Ref: "withdraw:none", UID: uid, Coin: "USDT", Amount: d("1")}); !errors.Is(err, spotfunds.ErrNoHold) {
				t.Fatalf("release of nothing: %v, want ErrNoHold", err)
			}
			for range 2 {
				if err := f.Settle(ctx, hold); err != nil {
					t.Fatal(err)
				}
			}
			want("20", "0")
			if err := f.Release(ctx, hold); !errors.Is(err, spotfunds.ErrConflict) {
				t.Fatalf("release after settle: %v, want ErrConflict", err)
			}
			if err := f.Hold(ctx, spotfunds.Move{Ref: "withdraw:b" + impl.Name, UID: uid, Coin: "USDT", Amount: d("20.5")}); !errors.Is(err, spotfunds.ErrInsufficient) {
				t.Fatalf("hold beyond the balance: %v", err)
			}
			h2 := spotfunds.Move{Ref: "withdraw:c" + impl.Name, UID: uid, Coin: "USDT", Amount: d("20"), Other: chain}
			if err := f.Hold(ctx, h2); err != nil {
				t.Fatal(err)
			}
			if err := f.Release(ctx, h2); err != nil {
				t.Fatal(err)
			}
			if err := f.Settle(ctx, h2); !errors.Is(err, spotfunds.ErrConflict) {
				t.Fatalf("settle after release: %v, want ErrConflict", err)
			}
			want("20", "0")
			if err := f.Credit(ctx, spotfunds.Move{Ref: "bad", UID: uid, Coin: "USDT", Amount: d("-1"), Other: chain}); !errors.Is(err, spotfunds.ErrInvalid) {
				t.Fatalf("negative amount: %v, want ErrInvalid", err)
			}
		})
	}
	// Both users' flows: the chain paid in 200 and got 2 × 49 back, the fee
	// account 2 × 1, the OTC accounts 2 × 30; and the whole book audits
	// clean (the engine's postings go through the clearing account).
	fees, err := led.Balance(ctx, ledger.FeeAccount(), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !fees.Available.Equal(d("2")) {
		t.Fatalf("fee account = %s, want 2", fees.Available)
	}
	chain, err := led.Balance(ctx, ledger.ChainAccount("TRC20"), "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !chain.Available.Equal(d("-102")) {
		t.Fatalf("chain account = %s, want -102", chain.Available)
	}
	rep, err := led.Audit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %+v", rep.Problems)
	}
}

// Futures balances the store ledger kept before the engine owned the
// futures account are brought into the engine once: the engine then holds
// them, the store shows them unchanged, a second start adopts nothing, and
// the books audit clean.
func TestAdoptFutures(t *testing.T) {
	ctx := context.Background()
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	led := ledger.New(st, nil)
	// Before: a futures balance the ledger alone wrote (the money came in
	// from spot then; here straight from a chain, spot being the engine's).
	if _, err := led.Post(ctx, ledger.Posting{ID: "xfer", Reason: "transfer_futures",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("TRC20"), ledger.UserAccount("u1", ledger.Futures), "USDT", d("42.5"))}}); err != nil {
		t.Fatal(err)
	}
	e := spotfundstest.NewEngine(t, st, nil)
	for i, want := range []int{1, 0} {
		n, err := spotfunds.AdoptFutures(ctx, st, e.Funds(), []string{"USDT", "BTC"})
		if err != nil || n != want {
			t.Fatalf("start %d: adopted %d, %v; want %d", i, n, err, want)
		}
	}
	var got int64
	e.Eng.Read(func(s *engine.State) {
		c, _ := s.Coin("USDT")
		got = s.Accounts().Get(engine.UserNumber("u1"), risk.KindFutures, c).Avail
	})
	if got != 42_50_000_000 {
		t.Fatalf("engine futures balance %d", got)
	}
	// Moved out through the engine from here on: the store follows it.
	if err := e.Funds().Futures(ctx, spotfunds.Move{Ref: "out", UID: "u1", Coin: "USDT", Amount: d("2.5")}, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := led.Balance(ctx, ledger.UserAccount("u1", ledger.Futures), "USDT"); !b.Available.Equal(d("40")) {
		t.Fatalf("store futures %s", b.Available)
	}
	rep, err := led.Audit(ctx, "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Clean() {
		t.Fatalf("audit: %v", rep.Problems)
	}
}
