package wallet_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/wallet"
	wt "tenger/internal/wallet/wallettest"
)

var errCrash = errors.New("the process died here")

// crashing stops a transfer between its steps, as a process dying there
// would: the money step is applied (after) or not (before the step), and
// the call ends with an error, the record left as it was.
type crashing struct {
	spotfunds.Funds
	after bool
}

func (c crashing) step(do func() error) error {
	if c.after {
		if err := do(); err != nil {
			return err
		}
	}
	return errCrash
}

func (c crashing) Credit(ctx context.Context, m spotfunds.Move) error {
	return c.step(func() error { return c.Funds.Credit(ctx, m) })
}

func (c crashing) Debit(ctx context.Context, m spotfunds.Move) error {
	return c.step(func() error { return c.Funds.Debit(ctx, m) })
}

func (c crashing) Futures(ctx context.Context, m spotfunds.Move, in bool) error {
	return c.step(func() error { return c.Funds.Futures(ctx, m, in) })
}

// crash runs a transfer on a process that dies at its money step (after
// applying it when after is true), then "restarts": the wallet is built
// again on the working implementation.
func crash(t *testing.T, e *wt.Env, impl spotfundstest.Impl, uid string, in wallet.TransferInput, after bool) {
	t.Helper()
	e.UseFunds(crashing{Funds: impl.Funds, after: after})
	xfer(t, e, uid, in, apperr.CodeInternal)
	e.UseFunds(impl.Funds)
}

// resume runs ResumeTransfers and wants it to finish n transfers.
func resume(t *testing.T, e *wt.Env, n int) {
	t.Helper()
	got, err := e.Wallet.ResumeTransfers(ctx)
	if err != nil || got != n {
		t.Fatalf("ResumeTransfers = %d, %v; want %d", got, err, n)
	}
}

// history is the user's transfer history, newest first.
func history(t *testing.T, e *wt.Env, uid string) []wallet.TransferRecord {
	t.Helper()
	p, err := e.Wallet.Transfers(ctx, uid, wallet.HistoryFilter{PageSize: wallet.MaxPageSize})
	wt.WantCode(t, err, "")
	if p.Count != len(p.List) {
		t.Fatalf("history count %d, listed %d", p.Count, len(p.List))
	}
	return p.List
}

// wantNewest checks the newest record of the user's history.
func wantNewest(t *testing.T, e *wt.Env, uid, amount, status string) {
	t.Helper()
	h := history(t, e, uid)
	if len(h) == 0 || h[0].Amount != amount || h[0].Status != status {
		t.Fatalf("newest transfer: want %s %s, history %+v", amount, status, h)
	}
}

// A transfer into spot whose process died after the ":out" posting (the
// amount in transit, the record pending), before or after the credit, is
// finished, once, by ResumeTransfers when it is old enough, and by a retry
// of its request id.
func TestTransferIntoSpotFinishedAfterCrash(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		fut := ledger.UserAccount(u.UID, ledger.OTC)
		transit := spotfunds.TransitAccount()
		e.Fund(t, u.UID, "USDT", "100")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "50"}, "")

		in := wallet.TransferInput{From: ledger.OTC, To: ledger.Spot, Coin: "USDT", Amount: "20", RequestID: "a-1"}
		crash(t, e, impl, u.UID, in, false)
		e.WantAvail(t, fut, "USDT", "30")
		e.WantAvail(t, transit, "USDT", "20")
		wantSpot(t, e, impl, u.UID, "USDT", "50")
		wantNewest(t, e, u.UID, "20", wallet.TransferPending)

		// Too young: left to the call that may still be running it.
		resume(t, e, 0)
		e.WantAvail(t, transit, "USDT", "20")
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.WantAvail(t, fut, "USDT", "30")
		wantTransitEmpty(t, e, "USDT")
		wantNewest(t, e, u.UID, "20", wallet.TransferSuccess)
		resume(t, e, 0)
		r := xfer(t, e, u.UID, in, "")
		if !r.Replayed || r.Status != wallet.TransferSuccess {
			t.Fatalf("retry after resume: %+v", r)
		}
		wantSpot(t, e, impl, u.UID, "USDT", "70")

		// Died after the credit: the resume records it without crediting
		// again.
		in3 := wallet.TransferInput{From: ledger.OTC, To: ledger.Spot, Coin: "USDT", Amount: "2", RequestID: "a-3"}
		crash(t, e, impl, u.UID, in3, true)
		wantSpot(t, e, impl, u.UID, "USDT", "72")
		wantTransitEmpty(t, e, "USDT")
		wantNewest(t, e, u.UID, "2", wallet.TransferPending)
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		wantSpot(t, e, impl, u.UID, "USDT", "72")
		e.WantAvail(t, fut, "USDT", "28")
		wantTransitEmpty(t, e, "USDT")
		wantNewest(t, e, u.UID, "2", wallet.TransferSuccess)

		// The client's retry finishes it as well.
		in2 := wallet.TransferInput{From: ledger.OTC, To: ledger.Spot, Coin: "USDT", Amount: "5", RequestID: "a-2"}
		crash(t, e, impl, u.UID, in2, false)
		e.WantAvail(t, transit, "USDT", "5")
		r = xfer(t, e, u.UID, in2, "")
		if r.Replayed || r.Status != wallet.TransferSuccess || r.Amount != "5" {
			t.Fatalf("retry finishing: %+v", r)
		}
		r = xfer(t, e, u.UID, in2, "")
		if !r.Replayed {
			t.Fatalf("second retry: %+v", r)
		}
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 0)
		wantSpot(t, e, impl, u.UID, "USDT", "77")
		e.WantAvail(t, fut, "USDT", "23")
		wantTransitEmpty(t, e, "USDT")
		// The same request id with another amount is still refused.
		in2.Amount = "6"
		xfer(t, e, u.UID, in2, apperr.CodeWalletRequestReused)
		if h := history(t, e, u.UID); len(h) != 4 {
			t.Fatalf("history %+v", h)
		}
		e.Audit(t)
	})
}

// A transfer between spot and futures is one money step (both accounts
// are the engine's): one whose process died after it is recorded by
// ResumeTransfers without moving again; one that died before it is moved
// once by the client's retry.
func TestFuturesTransferFinishedAfterCrash(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		fut := ledger.UserAccount(u.UID, ledger.Futures)
		e.Fund(t, u.UID, "USDT", "100")

		in := wallet.TransferInput{From: ledger.Spot, To: ledger.Futures, Coin: "USDT", Amount: "30", RequestID: "f-1"}
		crash(t, e, impl, u.UID, in, true)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.WantAvail(t, fut, "USDT", "30")
		wantNewest(t, e, u.UID, "30", wallet.TransferPending)
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		wantNewest(t, e, u.UID, "30", wallet.TransferSuccess)
		wantSpot(t, e, impl, u.UID, "USDT", "70")

		out := wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: "USDT", Amount: "10", RequestID: "f-2"}
		crash(t, e, impl, u.UID, out, false)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.WantAvail(t, fut, "USDT", "30")
		if r := xfer(t, e, u.UID, out, ""); r.Replayed || r.Status != wallet.TransferSuccess {
			t.Fatalf("retry finishing: %+v", r)
		}
		if r := xfer(t, e, u.UID, out, ""); !r.Replayed {
			t.Fatalf("second retry: %+v", r)
		}
		wantSpot(t, e, impl, u.UID, "USDT", "80")
		e.WantAvail(t, fut, "USDT", "20")
		xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Futures, To: ledger.Spot, Coin: "USDT", Amount: "20.001"}, apperr.CodeWalletInsufficient)
		e.Audit(t)
	})
}

// A transfer out of spot whose process died after the debit (the record
// still pending) is marked success by ResumeTransfers, or by a retry,
// without debiting again; one that died before the debit is debited once.
func TestTransferFromSpotFinishedAfterCrash(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		otc := ledger.UserAccount(u.UID, ledger.OTC)
		iso := ledger.IsolatedAccount(u.UID, "BTCUSDT")
		e.Fund(t, u.UID, "USDT", "100")
		e.Fund(t, u.UID, "BTC", "1")

		in := wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "30", RequestID: "b-1"}
		crash(t, e, impl, u.UID, in, true)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.WantAvail(t, otc, "USDT", "30")
		wantNewest(t, e, u.UID, "30", wallet.TransferPending)
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.WantAvail(t, otc, "USDT", "30")
		wantNewest(t, e, u.UID, "30", wallet.TransferSuccess)
		if r := xfer(t, e, u.UID, in, ""); !r.Replayed {
			t.Fatalf("retry after resume: %+v", r)
		}
		wantSpot(t, e, impl, u.UID, "USDT", "70")

		// The retry finishes it as well (isolated margin: the debit's
		// other side is the pair's account).
		in2 := wallet.TransferInput{From: ledger.Spot, To: ledger.MarginIsolated, Pair: "BTCUSDT", Coin: "BTC", Amount: "0.25", RequestID: "b-2"}
		crash(t, e, impl, u.UID, in2, true)
		wantSpot(t, e, impl, u.UID, "BTC", "0.75")
		if r := xfer(t, e, u.UID, in2, ""); r.Replayed || r.Status != wallet.TransferSuccess {
			t.Fatalf("retry finishing: %+v", r)
		}
		wantSpot(t, e, impl, u.UID, "BTC", "0.75")
		e.WantAvail(t, iso, "BTC", "0.25")

		// Died before the debit: the resume debits, once.
		in3 := wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "5", RequestID: "b-3"}
		crash(t, e, impl, u.UID, in3, false)
		wantSpot(t, e, impl, u.UID, "USDT", "70")
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		resume(t, e, 0)
		wantSpot(t, e, impl, u.UID, "USDT", "65")
		e.WantAvail(t, otc, "USDT", "35")
		for _, r := range history(t, e, u.UID) {
			if r.Status != wallet.TransferSuccess {
				t.Fatalf("history shows %+v", r)
			}
		}
		e.Audit(t)
	})
}

// A transfer out of spot whose process died before the debit, and which
// the balance no longer covers, is refused by ResumeTransfers (or by a
// retry): nothing moves and history does not show it. Its request id may
// be used again once the balance is there, as when it was refused at once.
func TestTransferFromSpotRefusedAfterCrash(t *testing.T) {
	eachFunds(t, func(t *testing.T, e *wt.Env, impl spotfundstest.Impl) {
		u := e.NewUser(t, wt.Flags{})
		otc := ledger.UserAccount(u.UID, ledger.OTC)
		e.Fund(t, u.UID, "USDT", "10")

		in := wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "25", RequestID: "c-1"}
		crash(t, e, impl, u.UID, in, false)
		wantNewest(t, e, u.UID, "25", wallet.TransferPending)
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 1)
		resume(t, e, 0)
		wantSpot(t, e, impl, u.UID, "USDT", "10")
		e.WantAvail(t, otc, "USDT", "0")
		if h := history(t, e, u.UID); len(h) != 0 {
			t.Fatalf("a refused transfer is listed: %+v", h)
		}

		// A retry finds it refused as well.
		in2 := wallet.TransferInput{From: ledger.Spot, To: ledger.OTC, Coin: "USDT", Amount: "40", RequestID: "c-2"}
		crash(t, e, impl, u.UID, in2, false)
		xfer(t, e, u.UID, in2, apperr.CodeWalletInsufficient)
		if h := history(t, e, u.UID); len(h) != 0 {
			t.Fatalf("a refused transfer is listed: %+v", h)
		}

		xfer(t, e, u.UID, in, apperr.CodeWalletInsufficient)
		e.Fund(t, u.UID, "USDT", "20")
		r := xfer(t, e, u.UID, in, "")
		if r.Replayed || r.Status != wallet.TransferSuccess {
			t.Fatalf("request id used again: %+v", r)
		}
		wantSpot(t, e, impl, u.UID, "USDT", "5")
		e.WantAvail(t, otc, "USDT", "25")
		e.Clock.Add(wallet.TransferResumeAge + time.Second)
		resume(t, e, 0)
		if h := history(t, e, u.UID); len(h) != 1 {
			t.Fatalf("history %+v", h)
		}
		e.Audit(t)
	})
}

// A coin the engine does not list (XRP here; the cross margin account
// takes it): into spot, the amount leaves the cross account for transit
// and comes back when the engine refuses the credit, the record failed and
// not listed; out of spot, nothing moves.
func TestTransferCoinSpotRefuses(t *testing.T) {
	e := wt.New(t)
	impl := spotfundstest.Both(t, e.Store, nil)[1]
	if _, listed := spotfundstest.DefaultCoins["XRP"]; listed || impl.Engine == nil {
		t.Fatal("the test wants the engine without XRP")
	}
	e.UseFunds(impl.Funds)
	u := e.NewUser(t, wt.Flags{})
	cross := ledger.UserAccount(u.UID, ledger.MarginCross)
	if _, err := e.Ledger.Post(ctx, ledger.Posting{ID: "test-cross-xrp", Reason: "deposit",
		Legs: []ledger.Leg{ledger.Move(ledger.ChainAccount("XRP"), cross, "XRP", decimal.NewFromInt(100))}}); err != nil {
		t.Fatal(err)
	}
	in := wallet.TransferInput{From: ledger.MarginCross, To: ledger.Spot, Coin: "XRP", Amount: "10", RequestID: "d-1"}
	xfer(t, e, u.UID, in, apperr.CodeWalletCoinNotTransferable)
	e.WantAvail(t, cross, "XRP", "100")
	wantTransitEmpty(t, e, "XRP")
	xfer(t, e, u.UID, in, apperr.CodeWalletCoinNotTransferable)
	e.WantAvail(t, cross, "XRP", "100")
	xfer(t, e, u.UID, wallet.TransferInput{From: ledger.Spot, To: ledger.MarginCross, Coin: "XRP", Amount: "1"}, apperr.CodeWalletCoinNotTransferable)
	if h := history(t, e, u.UID); len(h) != 0 {
		t.Fatalf("history %+v", h)
	}
	e.Clock.Add(wallet.TransferResumeAge + time.Second)
	resume(t, e, 0)
	e.Audit(t)
}
