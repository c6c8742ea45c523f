package deposit_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/store/embedded"
)

var errCrash = errors.New("test: the process died here")

// recFunds stands in front of the implementation under test: it records
// the credits the service asks for, and can make the next one look like a
// crash (the error comes back with the money moved: after, or not: before).
type recFunds struct {
	spotfunds.Funds
	mu      sync.Mutex
	credits []spotfunds.Move
	crash   string // "after" or "before" the next credit; "" none
}

func (r *recFunds) Credit(ctx context.Context, m spotfunds.Move) error {
	r.mu.Lock()
	crash := r.crash
	r.crash = ""
	r.credits = append(r.credits, m)
	r.mu.Unlock()
	if crash == "before" {
		return errCrash
	}
	if err := r.Funds.Credit(ctx, m); err != nil {
		return err
	}
	if crash == "after" {
		return errCrash
	}
	return nil
}

func (r *recFunds) crashNext(where string) { r.mu.Lock(); r.crash = where; r.mu.Unlock() }

func (r *recFunds) calls() []spotfunds.Move {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]spotfunds.Move(nil), r.credits...)
}

// forBoth runs f over each implementation of spotfunds.Funds that
// spotfundstest.Both gives, each on a store of its own.
func forBoth(t *testing.T, f func(t *testing.T, e *env)) {
	for _, name := range []string{"ledger", "engine"} {
		t.Run(name, func(t *testing.T) { f(t, newEnvFunds(t, name)) })
	}
}

// newEnvFunds opens an env whose service credits through the named
// implementation of spotfundstest.Both (behind a recFunds).
func newEnvFunds(t *testing.T, name string) *env {
	t.Helper()
	cat, err := coins.Defaults()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := embedded.Open(dir, embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() }) // after the engine's (cleanups run last first)
	var impl spotfundstest.Impl
	for _, i := range spotfundstest.Both(t, st, nil) {
		if i.Name == name {
			impl = i
		}
	}
	if impl.Funds == nil {
		t.Fatalf("spotfundstest.Both has no %q", name)
	}
	rec := &recFunds{Funds: impl.Funds}
	e := openOn(t, dir, st, &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}, cat, rec)
	e.impl, e.funds = impl, rec
	return e
}

// holds checks the user's spot balance in the store (what the ledger reads,
// the engine's projection included) and, for the engine, the engine's own.
func (e *env) holds(t *testing.T, uid, coin, amount string) {
	t.Helper()
	want := decimal.RequireFromString(amount)
	if b := e.spot(t, uid, coin); !b.Available.Equal(want) || !b.Frozen.IsZero() {
		t.Fatalf("%s %s in the store: %s available, %s frozen; want %s", uid, coin, b.Available, b.Frozen, want)
	}
	if e.impl.Engine != nil {
		avail, held := e.impl.Engine.Available(uid, coin)
		if units := want.Shift(spotfundstest.DefaultCoins[coin]).IntPart(); avail != units || held != 0 {
			t.Fatalf("%s %s in the engine: %d available, %d held; want %d", uid, coin, avail, held, units)
		}
	}
}

func (e *env) record(t *testing.T, uid string) deposit.Record {
	t.Helper()
	l, n, err := e.svc.History(ctx, uid, deposit.Filter{})
	if err != nil || n != 1 || len(l) != 1 {
		t.Fatalf("history of %s: %+v %d %v", uid, l, n, err)
	}
	return l[0]
}

// chainDeposit sends 125.5 USDT over ERC20 (12 confirmations) to the user
// and observes it, still confirming, at 11 confirmations.
func (e *env) chainDeposit(t *testing.T, uid string) (chainsim.Transfer, spotfunds.Move) {
	t.Helper()
	before := len(e.funds.calls())
	a, err := e.svc.ChargeAddress(ctx, uid, "USDT", "ERC20")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := e.sim.Deposit(ctx, chainsim.DepositReq{Coin: "USDT", Chain: "ERC20", Address: a.AddressLong, Amount: "125.5"})
	if err != nil {
		t.Fatal(err)
	}
	e.mine(t, "ERC20", 11)
	if r := e.record(t, uid); r.Status != deposit.StatusConfirming || r.Confirmations != 11 {
		t.Fatalf("at 11 confirmations: %+v", r)
	}
	e.holds(t, uid, "USDT", "0")
	if c := e.funds.calls(); len(c) != before {
		t.Fatalf("credited before its confirmations: %+v", c[before:])
	}
	return tx, spotfunds.Move{Ref: "deposit:" + deposit.DepositID("ERC20", tx.TxID, tx.Vout), UID: uid, Coin: "USDT",
		Amount: decimal.RequireFromString("125.5"), Other: ledger.ChainAccount("ERC20"), Reason: "deposit"}
}

func sameMove(a, b spotfunds.Move) bool {
	return a.Ref == b.Ref && a.UID == b.UID && a.Coin == b.Coin && a.Amount.Equal(b.Amount) && a.Other == b.Other &&
		a.Fee.Equal(b.Fee) && a.Reason == b.Reason
}

// Chain and bank deposits reach the user's spot balance through
// Options.Funds, over both implementations: the credit is the one
// expected (Ref, user, coin, amount, source account), the balance shows
// in the store (and in the engine), the record is credited, and replays
// credit nothing more.
func TestDepositsCreditThroughFunds(t *testing.T) {
	forBoth(t, func(t *testing.T, e *env) {
		const uid = "10000001"
		tx, want := e.chainDeposit(t, uid)
		e.mine(t, "ERC20", 1)
		if r := e.record(t, uid); r.Status != deposit.StatusCredited || r.Confirmations != 12 || r.Credited == 0 {
			t.Fatalf("after 12 confirmations: %+v", r)
		}
		if c := e.funds.calls(); len(c) != 1 || !sameMove(c[0], want) {
			t.Fatalf("credits %+v, want %+v", c, want)
		}
		e.holds(t, uid, "USDT", "125.5")
		got, err := e.sim.Get(ctx, "ERC20", tx.TxID)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if final, err := e.svc.Observe(ctx, got, 100); err != nil || !final {
				t.Fatalf("replay %v %v", final, err)
			}
		}
		e.mine(t, "ERC20", 3)
		e.holds(t, uid, "USDT", "125.5")
		if open, _ := e.sim.OpenIncoming(ctx, "ERC20"); len(open) != 0 {
			t.Fatalf("transfer still open: %v", open)
		}

		// Bank: credited to the user the reference names, once per bank id.
		us := users{"10000002": true, "10000003": true}
		for i := 0; i < 3; i++ {
			r, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-1", Reference: "10000002", Amount: "150000.50"})
			if err != nil || r.Status != deposit.StatusCredited {
				t.Fatalf("bank credit %d: %+v %v", i, r, err)
			}
		}
		e.holds(t, "10000002", "MNT", "150000.5")
		bank := spotfunds.Move{Ref: "deposit:Bank:KHAN-1", UID: "10000002", Coin: "MNT",
			Amount: decimal.RequireFromString("150000.5"), Other: ledger.BankAccount("KHAN"), Reason: "deposit"}
		if c := e.funds.calls(); len(c) != 2 || !sameMove(c[1], bank) {
			t.Fatalf("credits %+v, want then %+v", c, bank)
		}
		// Held for review, then assigned.
		if r, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-3", Reference: "hello", Amount: "7000"}); err != nil || r.Status != deposit.StatusReview {
			t.Fatalf("held %+v %v", r, err)
		}
		if c := e.funds.calls(); len(c) != 2 {
			t.Fatalf("a deposit held for review was credited: %+v", c)
		}
		r, err := e.svc.AssignBank(ctx, us, "KHAN-3", "10000003")
		if err != nil || r.Status != deposit.StatusCredited {
			t.Fatalf("assign %+v %v", r, err)
		}
		_, err = e.svc.AssignBank(ctx, us, "KHAN-3", "10000003")
		wantCode(t, err, apperr.CodeReviewUnknown)
		e.holds(t, "10000003", "MNT", "7000")
		assigned := spotfunds.Move{Ref: "deposit:Bank:KHAN-3", UID: "10000003", Coin: "MNT",
			Amount: decimal.NewFromInt(7000), Other: ledger.BankAccount("KHAN"), Reason: "deposit"}
		if c := e.funds.calls(); len(c) != 3 || !sameMove(c[2], assigned) {
			t.Fatalf("credits %+v, want then %+v", c, assigned)
		}
		if r := e.record(t, "10000003"); r.Status != deposit.StatusCredited || r.TxID != "KHAN-3" {
			t.Fatalf("assigned record %+v", r)
		}
		e.audit(t)
	})
}

// A chain deposit credited by a process that died before marking its
// record (the credit done directly, or the service's own credit followed by
// a crash) is repaired by the watcher observing it again: the record ends
// credited and the user holds the amount once; later runs add nothing.
func TestChainCrashBetweenCreditAndRecord(t *testing.T) {
	forBoth(t, func(t *testing.T, e *env) {
		const uid = "10000001"
		tx, m := e.chainDeposit(t, uid)
		if err := e.impl.Funds.Credit(ctx, m); err != nil { // ... and the process dies
			t.Fatal(err)
		}
		e.holds(t, uid, "USDT", "125.5")
		if r := e.record(t, uid); r.Status != deposit.StatusConfirming {
			t.Fatalf("record before the repair %+v", r)
		}
		e.mine(t, "ERC20", 1)
		if r := e.record(t, uid); r.Status != deposit.StatusCredited || r.Confirmations != 12 {
			t.Fatalf("record after the repair %+v", r)
		}
		e.holds(t, uid, "USDT", "125.5")
		got, err := e.sim.Get(ctx, "ERC20", tx.TxID)
		if err != nil {
			t.Fatal(err)
		}
		if final, err := e.svc.Observe(ctx, got, 1000); err != nil || !final {
			t.Fatalf("replay %v %v", final, err)
		}
		e.mine(t, "ERC20", 2)
		e.holds(t, uid, "USDT", "125.5")

		// The service's own credit, then a crash: the scan fails, the
		// transfer stays open, the next scan finishes it.
		const uid2 = "10000002"
		_, m2 := e.chainDeposit(t, uid2)
		e.funds.crashNext("after")
		if _, err := e.sim.Mine(ctx, "ERC20", 1); err != nil {
			t.Fatal(err)
		}
		if err := e.w.Scan(ctx); !errors.Is(err, errCrash) {
			t.Fatalf("scan with a crash: %v", err)
		}
		if r := e.record(t, uid2); r.Status != deposit.StatusConfirming {
			t.Fatalf("record after the crash %+v", r)
		}
		e.holds(t, uid2, "USDT", "125.5")
		if err := e.w.Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if r := e.record(t, uid2); r.Status != deposit.StatusCredited {
			t.Fatalf("record after the next scan %+v", r)
		}
		e.mine(t, "ERC20", 5)
		e.holds(t, uid2, "USDT", "125.5")
		if c := e.funds.calls(); len(c) != 3 || !sameMove(c[0], m) || !sameMove(c[1], m2) || !sameMove(c[2], m2) {
			t.Fatalf("credits asked %+v", c)
		}
		if open, _ := e.sim.OpenIncoming(ctx, "ERC20"); len(open) != 0 {
			t.Fatalf("transfers still open: %v", open)
		}
		e.audit(t)
	})
}

// A bank deposit credited by a process that died before writing its record
// is repaired by the notification arriving again: the record appears
// credited and the user holds the amount once; later notifications add
// nothing.
func TestBankCrashBetweenCreditAndRecord(t *testing.T) {
	forBoth(t, func(t *testing.T, e *env) {
		us := users{"10000001": true, "10000002": true}
		m := spotfunds.Move{Ref: "deposit:Bank:KHAN-9", UID: "10000001", Coin: "MNT", Amount: decimal.RequireFromString("2500.25"),
			Other: ledger.BankAccount("KHAN"), Reason: "deposit"}
		if err := e.impl.Funds.Credit(ctx, m); err != nil { // ... and the process dies
			t.Fatal(err)
		}
		if _, n, _ := e.svc.History(ctx, "10000001", deposit.Filter{}); n != 0 {
			t.Fatalf("a record before the repair: %d", n)
		}
		for i := 0; i < 3; i++ {
			r, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: "KHAN-9", Reference: "10000001", Amount: "2500.25"})
			if err != nil || r.Status != deposit.StatusCredited || !r.Amount.Equal(m.Amount) {
				t.Fatalf("notification %d: %+v %v", i, r, err)
			}
		}
		if r := e.record(t, "10000001"); r.Status != deposit.StatusCredited || r.TxID != "KHAN-9" {
			t.Fatalf("record %+v", r)
		}
		e.holds(t, "10000001", "MNT", "2500.25")

		// The service's own credit, then a crash.
		e.funds.crashNext("after")
		bt := deposit.BankTransfer{TxID: "KHAN-10", Reference: "10000002", Amount: "300"}
		if _, err := e.svc.CreditBank(ctx, us, bt); !errors.Is(err, errCrash) {
			t.Fatalf("credit with a crash: %v", err)
		}
		if _, n, _ := e.svc.History(ctx, "10000002", deposit.Filter{}); n != 0 {
			t.Fatalf("a record after the crash: %d", n)
		}
		e.holds(t, "10000002", "MNT", "300")
		for i := 0; i < 2; i++ {
			if r, err := e.svc.CreditBank(ctx, us, bt); err != nil || r.Status != deposit.StatusCredited {
				t.Fatalf("notification again %d: %+v %v", i, r, err)
			}
		}
		e.holds(t, "10000002", "MNT", "300")
		if c := e.funds.calls(); len(c) != 3 { // KHAN-9 once, KHAN-10 twice
			t.Fatalf("credits asked %+v", c)
		}
		e.audit(t)
	})
}

// An assignment of a bank deposit held for review that died part way is
// finished by assigning it again to the same user, credits once, and is
// refused for another user meanwhile.
func TestAssignBankCrashRepaired(t *testing.T) {
	forBoth(t, func(t *testing.T, e *env) {
		us := users{"10000001": true, "10000002": true, "10000003": true}
		review := func(txid string) {
			t.Helper()
			r, err := e.svc.CreditBank(ctx, us, deposit.BankTransfer{TxID: txid, Reference: "hello", Amount: "7000"})
			if err != nil || r.Status != deposit.StatusReview {
				t.Fatalf("held %+v %v", r, err)
			}
		}
		inReview := func(n int) {
			t.Helper()
			if rev, err := e.svc.Review(ctx); err != nil || len(rev) != n {
				t.Fatalf("review %+v %v; want %d", rev, err, n)
			}
		}

		// The credit done directly, then the process died.
		review("KHAN-3")
		m := spotfunds.Move{Ref: "deposit:Bank:KHAN-3", UID: "10000001", Coin: "MNT", Amount: decimal.NewFromInt(7000),
			Other: ledger.BankAccount("KHAN"), Reason: "deposit"}
		if err := e.impl.Funds.Credit(ctx, m); err != nil {
			t.Fatal(err)
		}
		if r, err := e.svc.AssignBank(ctx, us, "KHAN-3", "10000001"); err != nil || r.Status != deposit.StatusCredited {
			t.Fatalf("assign %+v %v", r, err)
		}
		_, err := e.svc.AssignBank(ctx, us, "KHAN-3", "10000001")
		wantCode(t, err, apperr.CodeReviewUnknown)
		e.holds(t, "10000001", "MNT", "7000")
		inReview(0)

		// The service's credit, then a crash: another user is refused, the
		// same user's assignment finishes it.
		review("KHAN-4")
		e.funds.crashNext("after")
		if _, err := e.svc.AssignBank(ctx, us, "KHAN-4", "10000002"); !errors.Is(err, errCrash) {
			t.Fatalf("assign with a crash: %v", err)
		}
		inReview(1)
		e.holds(t, "10000002", "MNT", "7000")
		_, err = e.svc.AssignBank(ctx, us, "KHAN-4", "10000003")
		wantCode(t, err, apperr.CodeSimInput)
		e.holds(t, "10000003", "MNT", "0")
		if r, err := e.svc.AssignBank(ctx, us, "KHAN-4", "10000002"); err != nil || r.Status != deposit.StatusCredited {
			t.Fatalf("assign again %+v %v", r, err)
		}
		e.holds(t, "10000002", "MNT", "7000")
		inReview(0)

		// A crash before the credit: nothing moved, the claim holds.
		review("KHAN-5")
		e.funds.crashNext("before")
		if _, err := e.svc.AssignBank(ctx, us, "KHAN-5", "10000003"); !errors.Is(err, errCrash) {
			t.Fatalf("assign with a crash: %v", err)
		}
		e.holds(t, "10000003", "MNT", "0")
		if r, err := e.svc.AssignBank(ctx, us, "KHAN-5", "10000003"); err != nil || r.Status != deposit.StatusCredited {
			t.Fatalf("assign again %+v %v", r, err)
		}
		e.holds(t, "10000003", "MNT", "7000")

		// Money already with another user under the reference (a credit no
		// record names): the assignment fails without moving anything and
		// leaves the deposit unclaimed in review.
		review("KHAN-6")
		m6 := m
		m6.Ref = "deposit:Bank:KHAN-6"
		if err := e.impl.Funds.Credit(ctx, m6); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.AssignBank(ctx, us, "KHAN-6", "10000002"); !errors.Is(err, spotfunds.ErrConflict) {
			t.Fatalf("assign over another user's credit: %v", err)
		}
		e.holds(t, "10000002", "MNT", "7000")
		inReview(1)
		if r, err := e.svc.AssignBank(ctx, us, "KHAN-6", "10000001"); err != nil || r.Status != deposit.StatusCredited {
			t.Fatalf("assign to the credited user %+v %v", r, err)
		}
		e.holds(t, "10000001", "MNT", "14000")
		inReview(0)
		e.audit(t)
	})
}
