package withdraw_test

import (
	"errors"
	"testing"
	"time"

	"tenger/internal/chain"
	"tenger/internal/ledger"
	"tenger/internal/wallet"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

var errPowerCut = errors.New("power cut")

// crashAt makes the runner die once, after the step's effect and before its
// transition is stored.
func (e *env) crashAt(step string) *bool {
	crashed := false
	e.hook = func(in workflow.Instance, _ workflow.Transition, _ error) error {
		if in.Step == step && !crashed {
			crashed = true
			return errPowerCut
		}
		return nil
	}
	return &crashed
}

// driveThroughCrash runs steps until the simulated crash (or quiet).
func (e *env) driveThroughCrash() {
	e.t.Helper()
	for i := 0; i < 50; i++ {
		n, err := e.runner.RunDue(ctx)
		if err != nil {
			return // the process "died" mid-step
		}
		if n == 0 {
			return
		}
	}
}

// recover restarts the process after the lease of the step in flight ran out.
func (e *env) recoverAfterCrash() {
	e.hook = nil
	e.restart()
	e.clk.Add(31 * time.Second)
	e.drive()
}

func TestRestartInEveryChainStep(t *testing.T) {
	for _, step := range []string{withdraw.StepValidate, withdraw.StepHold, withdraw.StepSend, withdraw.StepAwait, withdraw.StepSettle} {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			e.user("u1", true, false, false)
			e.fund("u1", "BTC", "BTC", "1")
			crashed := e.crashAt(step)
			res, err := e.svc.Confirm(ctx, "u1", btcInput(t, "0.5", allCodes))
			if err != nil {
				t.Fatal(err)
			}
			e.driveThroughCrash()
			if step == withdraw.StepSettle {
				if *crashed {
					t.Fatal("crashed before the chain confirmed")
				}
				if _, err := e.chain.Mine(ctx, "BTC", 2); err != nil {
					t.Fatal(err)
				}
				e.driveThroughCrash()
			}
			if !*crashed {
				t.Fatalf("never reached %s", step)
			}
			e.recoverAfterCrash()
			if _, err := e.chain.Mine(ctx, "BTC", 2); err != nil {
				t.Fatal(err)
			}
			e.drive()
			e.clk.Add(time.Minute) // a waiting step's periodic re-check changes nothing
			e.drive()
			if r := e.record(res.ID); r.Status != withdraw.StatusSuccess {
				t.Fatalf("status %+v", r)
			}
			sends, _ := e.chain.List(ctx, "BTC", 10)
			if len(sends) != 1 || !sends[0].Amount.Equal(dec("0.4998")) {
				t.Fatalf("sends %+v", sends)
			}
			b := e.spot("u1", "BTC")
			if !b.Available.Equal(dec("0.5")) || !b.Frozen.IsZero() {
				t.Fatalf("user %s/%s", b.Available, b.Frozen)
			}
			if fee := e.balance(ledger.FeeAccount(), "BTC"); !fee.Equal(dec("0.0002")) {
				t.Fatalf("fee %s", fee)
			}
			e.audit()
		})
	}
}

func TestRestartInReleaseStep(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "MNT", "Bank", "300000")
	e.wal.banks["u1"] = []wallet.BankAccount{{ID: "b1", Title: "Khan Bank", Account: "MN123456789012345678"}}
	crashed := e.crashAt(withdraw.StepRelease)
	res, err := e.svc.ConfirmBank(ctx, "u1", withdraw.BankInput{UserID: "u1", Amount: "100000", BankAccountID: "b1", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	e.driveThroughCrash()
	if _, err := e.bank.Answer(ctx, res.ID, false); err != nil {
		t.Fatal(err)
	}
	e.driveThroughCrash()
	if !*crashed {
		t.Fatal("release never ran")
	}
	e.recoverAfterCrash()
	if r := e.record(res.ID); r.Status != withdraw.StatusFailed {
		t.Fatalf("status %+v", r)
	}
	if b := e.spot("u1", "MNT"); !b.Available.Equal(dec("300000")) || !b.Frozen.IsZero() {
		t.Fatalf("MNT %s/%s", b.Available, b.Frozen)
	}
	e.audit()
}

// A crash between the chain's confirmation and the workflow hearing of it
// (the completion was lost) is recovered by the await step's re-check.
func TestLostCompletionRecovered(t *testing.T) {
	e := newEnv(t)
	e.user("u1", true, false, false)
	e.fund("u1", "ETH", "ETH", "1")
	res, err := e.svc.Confirm(ctx, "u1", withdraw.ConfirmInput{Symbol: "ETH", Address: addr(t, chain.ETH).Address, Amount: "0.5", Codes: allCodes})
	if err != nil {
		t.Fatal(err)
	}
	e.drive()
	e.chain.SetCompleter(nil) // the notification goes nowhere
	if _, err := e.chain.Mine(ctx, "ETH", 12); err != nil {
		t.Fatal(err)
	}
	e.restart()
	e.drive()
	if r := e.record(res.ID); r.Status != withdraw.StatusProcessing {
		t.Fatalf("status %+v", r)
	}
	e.clk.Add(31 * time.Second)
	e.drive() // await re-runs, re-registers, the chain reports at once
	e.drive()
	if r := e.record(res.ID); r.Status != withdraw.StatusSuccess {
		t.Fatalf("status %+v", r)
	}
	e.audit()
}
