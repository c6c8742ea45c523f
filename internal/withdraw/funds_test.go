package withdraw_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/deposit"
	"tenger/internal/ledger"
	"tenger/internal/spotfunds"
	"tenger/internal/spotfunds/spotfundstest"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

// hookedFunds wraps a spotfunds implementation. A hook, set for one call
// kind ("hold", "settle", "release"), runs in place of the next such call
// (once) and gets the call itself: it may do things before or after it, or
// answer otherwise (a process that dies after the call was applied).
type hookedFunds struct {
	spotfunds.Funds
	mu    sync.Mutex
	hooks map[string]func(m spotfunds.Move, call func() error) error
}

func (h *hookedFunds) on(kind string, f func(m spotfunds.Move, call func() error) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.hooks[kind] = f
}

func (h *hookedFunds) run(kind string, m spotfunds.Move, call func() error) error {
	h.mu.Lock()
	f := h.hooks[kind]
	delete(h.hooks, kind)
	h.mu.Unlock()
	if f != nil {
		return f(m, call)
	}
	return call()
}

func (h *hookedFunds) Hold(ctx context.Context, m spotfunds.Move) error {
	return h.run("hold", m, func() error { return h.Funds.Hold(ctx, m) })
}

func (h *hookedFunds) Settle(ctx context.Context, m spotfunds.Move) error {
	return h.run("settle", m, func() error { return h.Funds.Settle(ctx, m) })
}

func (h *hookedFunds) Release(ctx context.Context, m spotfunds.Move) error {
	return h.run("release", m, func() error { return h.Funds.Release(ctx, m) })
}

// appliedThenDied is a hook: the call is applied, and the process dies
// before its caller hears of it.
func appliedThenDied(_ spotfunds.Move, call func() error) error {
	if err := call(); err != nil {
		return err
	}
	return errPowerCut
}

// fundsEnv is an env whose service moves money through one spotfunds
// implementation (wrapped in hooks). It must not restart: the engine's
// projection writes into the store it was opened on.
type fundsEnv struct {
	*env
	impl  spotfundstest.Impl
	hooks *hookedFunds
}

// forBothFunds runs f over the ledger and the engine implementations of
// spotfunds, each on a fresh env.
func forBothFunds(t *testing.T, f func(t *testing.T, e *fundsEnv)) {
	for i, name := range []string{"ledger", "engine"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			impl := spotfundstest.Both(t, e.st, nil)[i]
			if impl.Name != name {
				t.Fatalf("implementation %d is %s", i, impl.Name)
			}
			fe := &fundsEnv{env: e, impl: impl, hooks: &hookedFunds{Funds: impl.Funds, hooks: map[string]func(spotfunds.Move, func() error) error{}}}
			e.funds = fe.hooks
			e.build()
			f(t, fe)
		})
	}
}

// credit funds a user through the implementation (for the engine, not the
// store ledger: the engine owns the balance).
func (e *fundsEnv) credit(uid, coin, amount string) {
	e.t.Helper()
	if err := e.impl.Funds.Credit(ctx, spotfunds.Move{Ref: "fund:" + uid + ":" + coin + ":" + amount, UID: uid, Coin: coin,
		Amount: dec(amount), Other: ledger.ChainAccount("test"), Reason: "deposit"}); err != nil {
		e.t.Fatal(err)
	}
}

// spend takes amount from a user's available balance elsewhere (a trade,
// a transfer) through the implementation.
func (e *fundsEnv) spend(uid, coin, amount string) {
	e.t.Helper()
	if err := e.impl.Funds.Debit(ctx, spotfunds.Move{Ref: "spend:" + uid + ":" + coin + ":" + amount, UID: uid, Coin: coin,
		Amount: dec(amount), Other: ledger.ChainAccount("elsewhere"), Reason: "transfer"}); err != nil {
		e.t.Fatal(err)
	}
}

// wantSpot checks a user's spot balance in the store and, for the engine,
// in the engine itself (its units).
func (e *fundsEnv) wantSpot(uid, coin, avail, frozen string) {
	e.t.Helper()
	if b := e.spot(uid, coin); !b.Available.Equal(dec(avail)) || !b.Frozen.Equal(dec(frozen)) {
		e.t.Fatalf("store %s %s: %s/%s, want %s/%s", uid, coin, b.Available, b.Frozen, avail, frozen)
	}
	if e.impl.Engine == nil {
		return
	}
	d := spotfundstest.DefaultCoins[coin]
	a, h := e.impl.Engine.Available(uid, coin)
	if wa, wh := dec(avail).Shift(d).IntPart(), dec(frozen).Shift(d).IntPart(); a != wa || h != wh {
		e.t.Fatalf("engine %s %s: %d/%d, want %d/%d", uid, coin, a, h, wa, wh)
	}
}

// wantPaid checks what the chain (or bank) account and the fee account
// received.
func (e *fundsEnv) wantPaid(to ledger.Account, coin, net, fee string) {
	e.t.Helper()
	if got := e.balance(to, coin); !got.Equal(dec(net)) {
		e.t.Fatalf("%s got %s %s, want %s", to, got, coin, net)
	}
	if got := e.balance(ledger.FeeAccount(), coin); !got.Equal(dec(fee)) {
		e.t.Fatalf("fee %s %s, want %s", got, coin, fee)
	}
}

func (e *fundsEnv) instance(id string) workflow.Instance {
	e.t.Helper()
	in, err := e.runner.Get(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return in
}

func (e *fundsEnv) usedToday(uid, coin string) string {
	e.t.Helper()
	c, err := e.svc.Cost(ctx, uid, coin, "")
	if err != nil {
		e.t.Fatal(err)
	}
	return c.UsedWithdrawDailyAmount
}

// sent submits a 0.5 BTC withdrawal (fee 0.0002) from u1, funded with 1
// BTC, and drives it to PROCESSING (sent, waiting for the chain).
func (e *fundsEnv) sent(requestID string) withdraw.Record {
	e.t.Helper()
	in := btcInput(e.t, "0.5", allCodes)
	in.RequestID = requestID
	e.auth.issue("u1")
	res, err := e.svc.Confirm(ctx, "u1", in)
	if err != nil {
		e.t.Fatal(err)
	}
	e.drive()
	r := e.record(res.ID)
	if r.Status != withdraw.StatusProcessing {
		e.t.Fatalf("not sent: %+v", r)
	}
	return r
}

// The main chain flow, submit → hold → send → settle, over both
// implementations: the submit holds, the settlement pays the net to the
// chain account and the fee to the fee account from the held amount, in the
// store and in the engine alike.
func TestSubmitSettleOverBothFunds(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		refs := map[string]spotfunds.Move{}
		for _, kind := range []string{"hold", "settle"} {
			e.hooks.on(kind, func(m spotfunds.Move, call func() error) error { refs[kind] = m; return call() })
		}
		res, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.5", allCodes))
		if err != nil || res.Status != withdraw.StatusPending {
			t.Fatalf("submit %+v %v", res, err)
		}
		e.wantSpot("u1", "BTC", "0.5", "0.5")
		e.drive()
		if r := e.record(res.ID); r.Status != withdraw.StatusProcessing {
			t.Fatalf("after send %+v", r)
		}
		e.wantSpot("u1", "BTC", "0.5", "0.5")
		e.mineAndSettle(t, res.ID)
		e.wantSpot("u1", "BTC", "0.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002")
		// The hold and its settlement are named by the withdrawal.
		if h, st := refs["hold"], refs["settle"]; h.Ref != "withdraw:"+res.ID || st.Ref != h.Ref || !st.Amount.Equal(dec("0.5")) ||
			!st.Fee.Equal(dec("0.0002")) || st.Other != ledger.ChainAccount("BTC") {
			t.Fatalf("hold %+v, settle %+v", h, st)
		}
		if in := e.instance(res.ID); in.Status != workflow.StatusDone {
			t.Fatalf("instance %+v", in)
		}
		if got := e.usedToday("u1", "BTC"); got != "25000.00" {
			t.Fatalf("used today %s", got)
		}
		e.audit()
	})
}

// The main bank flow, submit → hold → send → the bank refuses → release,
// over both implementations: the whole amount comes back, nothing is paid,
// and the failed withdrawal no longer counts against the 24 h limit.
func TestSubmitReleaseOverBothFunds(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "MNT", "300000")
		e.wal.banks["u1"] = []wallet.BankAccount{{ID: "b1", Title: "Khan Bank", Account: "MN123456789012345678"}}
		res, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "100000", BankAccountID: "b1", Codes: allCodes})
		if err != nil {
			t.Fatal(err)
		}
		e.wantSpot("u1", "MNT", "200000", "100000")
		e.drive()
		e.wantSpot("u1", "MNT", "200000", "100000")
		if _, err := e.bank.Answer(ctx, res.ID, false); err != nil {
			t.Fatal(err)
		}
		e.drive()
		if r := e.record(res.ID); r.Status != withdraw.StatusFailed || r.Reason == "" {
			t.Fatalf("not released %+v", r)
		}
		e.wantSpot("u1", "MNT", "300000", "0")
		e.wantPaid(ledger.BankAccount("KHAN"), "MNT", "0", "0")
		if in := e.instance(res.ID); in.Status != workflow.StatusFailed {
			t.Fatalf("instance %+v", in)
		}
		if got := e.usedToday("u1", "MNT"); got != "0.00" {
			t.Fatalf("used today %s", got)
		}
		e.audit()
	})
}

// Crash (a): the submit wrote the record and the workflow and died before
// the hold. A retried submit answers that withdrawal without holding; the
// Hold step makes the hold, and the withdrawal goes through, held once.
func TestHoldStepMakesTheHoldASubmitDidNot(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, true, false)
		e.credit("u1", "BTC", "1")
		in := e.submitHoldLost(t, "crash-a")
		r := e.record(withdrawID(t, e, "crash-a"))
		if r.Status != withdraw.StatusPending {
			t.Fatalf("record %+v", r)
		}
		e.wantSpot("u1", "BTC", "1", "0")
		// The retry (its codes used up) answers the withdrawal, holding nothing.
		res, err := e.svc.Confirm(ctx, "u1", in)
		if err != nil || res.ID != r.ID || res.Status != withdraw.StatusPending {
			t.Fatalf("retry %+v %v", res, err)
		}
		e.wantSpot("u1", "BTC", "1", "0")
		e.drive()
		if r := e.record(r.ID); r.Status != withdraw.StatusProcessing {
			t.Fatalf("after the hold step %+v", r)
		}
		e.wantSpot("u1", "BTC", "0.5", "0.5")
		e.mineAndSettle(t, r.ID)
		e.wantSpot("u1", "BTC", "0.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002")
		e.audit()
	})
}

// mineAndSettle confirms the sent BTC withdrawal id on the chain and runs
// the workflow: it must end SUCCESS.
func (e *fundsEnv) mineAndSettle(t *testing.T, id string) {
	t.Helper()
	if _, err := e.chain.Mine(ctx, "BTC", 2); err != nil {
		t.Fatal(err)
	}
	e.drive()
	if r := e.record(id); r.Status != withdraw.StatusSuccess {
		t.Fatalf("not settled %+v", r)
	}
}

// submitHoldLost submits a withdrawal of 0.5 BTC by u1 whose process dies
// before its hold is made: the record and its workflow are stored, nothing
// is held. It returns the request, for a retry.
func (e *fundsEnv) submitHoldLost(t *testing.T, requestID string) withdraw.ConfirmInput {
	t.Helper()
	e.hooks.on("hold", func(spotfunds.Move, func() error) error { return errPowerCut })
	in := btcInput(t, "0.5", allCodes)
	in.RequestID = requestID
	if _, err := e.svc.Confirm(ctx, "u1", in); err == nil {
		t.Fatal("the submit whose hold failed answered success")
	}
	return in
}

// Crash (a), the balance short: after the submit died before its hold the
// money went elsewhere. The Hold step fails the withdrawal (insufficient
// balance) and ends the workflow there: nothing held, sent or released,
// and the 24 h limit not consumed.
func TestHoldStepFailsWhenTheBalanceIsShort(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		in := e.submitHoldLost(t, "crash-a-short")
		id := withdrawID(t, e, "crash-a-short")
		e.spend("u1", "BTC", "0.8")
		// Whatever release the failure makes finds nothing held.
		var releaseErr error
		e.hooks.on("release", func(_ spotfunds.Move, call func() error) error { releaseErr = call(); return releaseErr })
		e.drive()
		r := e.record(id)
		if r.Status != withdraw.StatusFailed || r.Reason != withdraw.ReasonInsufficient {
			t.Fatalf("record %+v", r)
		}
		if inst := e.instance(id); inst.Status != workflow.StatusFailed || inst.Step != withdraw.StepHold {
			t.Fatalf("instance ended in %s (%s), want failed in hold", inst.Step, inst.Status)
		}
		if releaseErr != nil && !errors.Is(releaseErr, spotfunds.ErrNoHold) {
			t.Fatalf("release: %v", releaseErr)
		}
		e.wantSpot("u1", "BTC", "0.2", "0")
		if l, _ := e.chain.List(ctx, "BTC", 10); len(l) != 0 {
			t.Fatalf("sent %+v", l)
		}
		if got := e.usedToday("u1", "BTC"); got != "0.00" {
			t.Fatalf("used today %s", got)
		}
		// A retry of that submit says what became of it.
		e.auth.issue("u1")
		_, err := e.svc.Confirm(ctx, "u1", in)
		wantCode(t, err, apperr.CodeInsufficientFunds)
		e.audit()
	})
}

// Crash (b): Settle paid the hold out and the process died before the
// record said SUCCESS. The workflow runs the step again: the settlement
// answers nil again (nothing is paid twice) and the record ends SUCCESS.
func TestSettleAppliedBeforeTheRecordIsRepaired(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		r := e.sent("crash-b")
		e.hooks.on("settle", appliedThenDied)
		if _, err := e.chain.Mine(ctx, "BTC", 2); err != nil {
			t.Fatal(err)
		}
		e.drive()
		if r := e.record(r.ID); r.Status != withdraw.StatusProcessing {
			t.Fatalf("the record moved with its step failed: %+v", r)
		}
		e.wantSpot("u1", "BTC", "0.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002")
		e.clk.Add(time.Minute) // the step's retry is due
		e.drive()
		if r := e.record(r.ID); r.Status != withdraw.StatusSuccess {
			t.Fatalf("not repaired %+v", r)
		}
		if in := e.instance(r.ID); in.Status != workflow.StatusDone {
			t.Fatalf("instance %+v", in)
		}
		e.wantSpot("u1", "BTC", "0.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002")
		e.audit()
	})
}

// Crash (b) on the other side: Release gave the hold back and the process
// died before the record said FAILED. The re-run marks it FAILED and gives
// nothing back twice.
func TestReleaseAppliedBeforeTheRecordIsRepaired(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "MNT", "300000")
		e.wal.banks["u1"] = []wallet.BankAccount{{ID: "b1", Title: "Khan Bank", Account: "MN123456789012345678"}}
		res, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "100000", BankAccountID: "b1", Codes: allCodes})
		if err != nil {
			t.Fatal(err)
		}
		e.drive()
		e.hooks.on("release", appliedThenDied)
		if _, err := e.bank.Answer(ctx, res.ID, false); err != nil {
			t.Fatal(err)
		}
		e.drive()
		if r := e.record(res.ID); r.Status != withdraw.StatusProcessing {
			t.Fatalf("the record moved with its step failed: %+v", r)
		}
		e.wantSpot("u1", "MNT", "300000", "0")
		e.clk.Add(time.Minute)
		e.drive()
		if r := e.record(res.ID); r.Status != withdraw.StatusFailed {
			t.Fatalf("not repaired %+v", r)
		}
		e.wantSpot("u1", "MNT", "300000", "0")
		e.wantPaid(ledger.BankAccount("KHAN"), "MNT", "0", "0")
		e.audit()
	})
}

// Crash (c): a Settle and a Release of one withdrawal race, and the
// winner's process dies before it writes the record. The loser's money
// call is refused (the hold ended the other way) and it writes the
// winner's outcome; the winner's re-run answers it too.
func TestSettleAndReleaseRaceEndsInTheWinnersOutcome(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "2")
		steps := e.svc.Steps()

		// Settle wins.
		a := e.sent("race-settle")
		e.hooks.on("settle", appliedThenDied)
		if _, err := steps.Settle(ctx, withdraw.StepInput{WithdrawalID: a.ID}); !errors.Is(err, errPowerCut) {
			t.Fatalf("settle: %v", err)
		}
		out, err := steps.Release(ctx, withdraw.StepInput{WithdrawalID: a.ID, Detail: "timeout"})
		if err != nil || out.Status != withdraw.StatusSuccess || out.Next != withdraw.NextDone {
			t.Fatalf("release after the settlement: %+v %v", out, err)
		}
		out, err = steps.Settle(ctx, withdraw.StepInput{WithdrawalID: a.ID})
		if err != nil || out.Status != withdraw.StatusSuccess {
			t.Fatalf("settle again: %+v %v", out, err)
		}
		if r := e.record(a.ID); r.Status != withdraw.StatusSuccess {
			t.Fatalf("record %+v", r)
		}
		e.wantSpot("u1", "BTC", "1.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002")

		// Release wins.
		b := e.sent("race-release")
		e.wantSpot("u1", "BTC", "1", "0.5")
		e.hooks.on("release", appliedThenDied)
		if _, err := steps.Release(ctx, withdraw.StepInput{WithdrawalID: b.ID, Detail: "timeout"}); !errors.Is(err, errPowerCut) {
			t.Fatalf("release: %v", err)
		}
		out, err = steps.Settle(ctx, withdraw.StepInput{WithdrawalID: b.ID})
		if err != nil || out.Status != withdraw.StatusFailed || out.Next != withdraw.NextFailed {
			t.Fatalf("settle after the release: %+v %v", out, err)
		}
		out, err = steps.Release(ctx, withdraw.StepInput{WithdrawalID: b.ID, Detail: "timeout"})
		if err != nil || out.Status != withdraw.StatusFailed {
			t.Fatalf("release again: %+v %v", out, err)
		}
		e.wantSpot("u1", "BTC", "1.5", "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", "0.4998", "0.0002") // nothing more paid
		e.audit()
	})
}

// Crash (c), truly concurrent: Settle and Release of each of several
// withdrawals run at once. Every record ends in the outcome its hold
// ended in: what was paid is what the SUCCESS ones hold, and nothing stays
// frozen.
func TestConcurrentSettleAndReleaseAgree(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", false, false, true) // Google codes are not used up
		e.credit("u1", "BTC", "1")
		var ids []string
		for i := 0; i < 6; i++ {
			in := btcInput(t, "0.1", withdraw.Codes{Google: "333333"})
			in.RequestID = fmt.Sprintf("race-%d", i)
			res, err := e.svc.Confirm(ctx, "u1", in)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, res.ID)
		}
		e.drive()
		steps := e.svc.Steps()
		both := []func(context.Context, withdraw.StepInput) (withdraw.StepOutput, error){steps.Settle, steps.Release}
		var wg sync.WaitGroup
		for _, id := range ids {
			for _, f := range both {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := f(ctx, withdraw.StepInput{WithdrawalID: id, Detail: "timeout"})
					// The store ledger may refuse the loser's call as short of
					// frozen balance rather than as a conflict; its step is
					// run again below, as the workflow would.
					if err != nil && (e.impl.Engine != nil || !errors.Is(err, spotfunds.ErrInsufficient)) {
						t.Errorf("%s: %v", id, err)
					}
				}()
			}
		}
		wg.Wait()
		settled := 0
		for _, id := range ids {
			want := ""
			for _, f := range both { // the re-runs answer the record's end
				out, err := f(ctx, withdraw.StepInput{WithdrawalID: id, Detail: "timeout"})
				if err != nil || (want != "" && out.Status != want) {
					t.Fatalf("%s re-run: %+v %v", id, out, err)
				}
				want = out.Status
			}
			switch r := e.record(id); r.Status {
			case withdraw.StatusSuccess:
				settled++
			case withdraw.StatusFailed:
			default:
				t.Fatalf("still open %+v", r)
			}
		}
		n := decimal.NewFromInt(int64(settled))
		e.wantSpot("u1", "BTC", dec("0.4").Add(dec("0.1").Mul(decimal.NewFromInt(int64(len(ids)-settled)))).String(), "0")
		e.wantPaid(ledger.ChainAccount("BTC"), "BTC", dec("0.0998").Mul(n).String(), dec("0.0002").Mul(n).String())
		t.Logf("%d of %d settled", settled, len(ids))
		e.audit()
	})
}

// Crash (d): the balance moved between the submit's check and its hold.
// The submit answers insufficient funds and leaves a FAILED record, no
// hold, no send, and the 24 h limit not consumed: a withdrawal of the whole
// limit passes next.
func TestInsufficientAtSubmitLeavesAFailedRecord(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		e.hooks.on("hold", func(_ spotfunds.Move, call func() error) error {
			e.spend("u1", "BTC", "0.8") // a trade, just before the hold
			return call()
		})
		in := btcInput(t, "0.5", allCodes)
		in.RequestID = "short"
		_, err := e.svc.Confirm(ctx, "u1", in)
		wantCode(t, err, apperr.CodeInsufficientFunds)
		id := withdrawID(t, e, "short")
		if r := e.record(id); r.Status != withdraw.StatusFailed || r.Reason != withdraw.ReasonInsufficient {
			t.Fatalf("record %+v", r)
		}
		e.wantSpot("u1", "BTC", "0.2", "0")
		l, n, err := e.svc.History(ctx, "u1", deposit.Filter{Status: withdraw.StatusFailed})
		if err != nil || n != 1 || l[0].ID != id {
			t.Fatalf("history %+v %d %v", l, n, err)
		}
		if got := e.usedToday("u1", "BTC"); got != "0.00" {
			t.Fatalf("used today %s", got)
		}
		e.drive()
		if inst := e.instance(id); inst.Status != workflow.StatusFailed {
			t.Fatalf("instance %+v", inst)
		}
		if l, _ := e.chain.List(ctx, "BTC", 10); len(l) != 0 {
			t.Fatalf("sent %+v", l)
		}
		e.wantSpot("u1", "BTC", "0.2", "0")
		// The retry answers what the submit did.
		_, err = e.svc.Confirm(ctx, "u1", in)
		wantCode(t, err, apperr.CodeInsufficientFunds)
		// The whole limit (2 BTC = 100000 USDT) is left.
		e.credit("u1", "BTC", "2")
		e.auth.issue("u1")
		if _, err := e.svc.Confirm(ctx, "u1", btcInput(t, "2", allCodes)); err != nil {
			t.Fatalf("the failed withdrawal counted against the limit: %v", err)
		}
		e.wantSpot("u1", "BTC", "0.2", "2")
		e.audit()
	})
}

// The submit's hold is refused for a short balance while the Hold step,
// running at the same time, held after the balance rose: the withdrawal
// the step will send stays open and held, and the submit answers it.
func TestSubmitShortWhileTheHoldStepHeld(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		e.hooks.on("hold", func(m spotfunds.Move, call func() error) error {
			e.spend("u1", "BTC", "0.8")
			err := call()
			if !errors.Is(err, spotfunds.ErrInsufficient) {
				t.Errorf("the submit's hold: %v", err)
			}
			e.credit("u1", "BTC", "0.7") // a deposit lands
			out, serr := e.svc.Steps().Hold(ctx, withdraw.StepInput{WithdrawalID: strings.TrimPrefix(m.Ref, "withdraw:")})
			if serr != nil || out.Next != withdraw.StepSend {
				t.Errorf("hold step %+v %v", out, serr)
			}
			return err
		})
		res, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.5", allCodes))
		if err != nil || res.Status != withdraw.StatusPending {
			t.Fatalf("submit %+v %v", res, err)
		}
		e.wantSpot("u1", "BTC", "0.4", "0.5")
		e.drive()
		e.mineAndSettle(t, res.ID)
		e.wantSpot("u1", "BTC", "0.4", "0")
		e.audit()
	})
}

// The other way round: the Hold step found the balance short and failed
// the withdrawal, then the submit's hold went through (the balance rose in
// between). The submit gives its hold back and answers insufficient funds:
// a FAILED withdrawal holds nothing.
func TestHoldStepFailedWhileTheSubmitHeld(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		e.hooks.on("hold", func(m spotfunds.Move, call func() error) error {
			e.spend("u1", "BTC", "0.8")
			out, serr := e.svc.Steps().Hold(ctx, withdraw.StepInput{WithdrawalID: strings.TrimPrefix(m.Ref, "withdraw:")})
			if serr != nil || out.Status != withdraw.StatusFailed || out.Next != withdraw.NextFailed {
				t.Errorf("hold step %+v %v", out, serr)
			}
			e.credit("u1", "BTC", "0.7")
			return call()
		})
		in := btcInput(t, "0.5", allCodes)
		in.RequestID = "late-hold"
		_, err := e.svc.Confirm(ctx, "u1", in)
		wantCode(t, err, apperr.CodeInsufficientFunds)
		if r := e.record(withdrawID(t, e, "late-hold")); r.Status != withdraw.StatusFailed {
			t.Fatalf("record %+v", r)
		}
		e.wantSpot("u1", "BTC", "0.9", "0")
		e.drive()
		e.wantSpot("u1", "BTC", "0.9", "0")
		e.audit()
	})
}

// A withdrawal the Validate step refuses before its hold was made (the
// submit died first) is failed by Release without anything to give back.
func TestReleaseOfAWithdrawalNeverHeld(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		e.submitHoldLost(t, "never-held")
		id := withdrawID(t, e, "never-held")
		out, err := e.svc.Steps().Release(ctx, withdraw.StepInput{WithdrawalID: id, Detail: "withdrawals closed"})
		if err != nil || out.Status != withdraw.StatusFailed {
			t.Fatalf("release %+v %v", out, err)
		}
		if r := e.record(id); r.Reason != "withdrawals closed" {
			t.Fatalf("record %+v", r)
		}
		e.wantSpot("u1", "BTC", "1", "0")
		e.drive() // the workflow finds it ended and holds nothing
		e.wantSpot("u1", "BTC", "1", "0")
		e.audit()
	})
}

// A Release that found nothing held races a hold made just then (a submit
// still running, here the Hold step standing in for it): the withdrawal
// ends FAILED and that hold is given back too.
func TestReleaseCatchesAHoldMadeMeanwhile(t *testing.T) {
	forBothFunds(t, func(t *testing.T, e *fundsEnv) {
		e.user("u1", true, false, false)
		e.credit("u1", "BTC", "1")
		e.submitHoldLost(t, "late")
		id := withdrawID(t, e, "late")
		e.hooks.on("release", func(_ spotfunds.Move, call func() error) error {
			err := call()
			if !errors.Is(err, spotfunds.ErrNoHold) {
				t.Errorf("first release: %v", err)
			}
			if out, err := e.svc.Steps().Hold(ctx, withdraw.StepInput{WithdrawalID: id}); err != nil || out.Next != withdraw.StepSend {
				t.Errorf("hold %+v %v", out, err)
			}
			e.wantSpot("u1", "BTC", "0.5", "0.5")
			return err
		})
		out, err := e.svc.Steps().Release(ctx, withdraw.StepInput{WithdrawalID: id, Detail: "withdrawals closed"})
		if err != nil || out.Status != withdraw.StatusFailed {
			t.Fatalf("release %+v %v", out, err)
		}
		e.wantSpot("u1", "BTC", "1", "0")
		e.drive()
		e.wantSpot("u1", "BTC", "1", "0")
		if l, _ := e.chain.List(ctx, "BTC", 10); len(l) != 0 {
			t.Fatalf("sent %+v", l)
		}
		e.audit()
	})
}

// withdrawID is the id of u1's withdrawal of a request id.
func withdrawID(_ *testing.T, _ *fundsEnv, requestID string) string {
	return withdraw.WithdrawalID("u1", requestID)
}
