package spotfunds_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"tenger/internal/ledger"
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
			if err := f.Debit(ctx, spotfunds.Move{Ref: "x1:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("100.5"), Other: futures, Reason: "transfer"}); !errors.Is(err, spotfunds.ErrInsufficient) {
				t.Fatalf("overdraw: %v, want ErrInsufficient", err)
			}
			if err := f.Debit(ctx, spotfunds.Move{Ref: "x2:" + impl.Name, UID: uid, Coin: "USDT", Amount: d("30"), Other: futures, Reason: "transfer"}); err != nil {
				t.Fatal(err)
			}
			want("70", "0")
			if b := bal(futures); !b.Available.Equal(d("30")) {
				t.Fatalf("futures = %s, want 30", b.Available)
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
	// account 2 × 1, the futures accounts 2 × 30; and the whole book audits
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
