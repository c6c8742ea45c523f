package withdraw

import (
	"context"
	"errors"
	"fmt"

	"tenger/internal/apperr"
	"tenger/internal/banksim"
	"tenger/internal/chain"
	"tenger/internal/chainsim"
	"tenger/internal/ledger"
	"tenger/internal/store"
	"tenger/internal/workflow"
)

// WorkflowKind names the withdrawal workflow (in-process and the state machine).
const WorkflowKind = "withdrawal"

// Step names, as the state machine's states (events.Step*).
const (
	StepValidate = "validate"
	StepHold     = "hold"
	StepSend     = "send"
	StepAwait    = "await"
	StepSettle   = "settle"
	StepRelease  = "release"
)

// Next values of a StepOutput besides step names.
const (
	NextDone   = "done"
	NextFailed = "failed"
	NextWait   = "wait"
)

// StepInput is every step's JSON input.
type StepInput struct {
	WithdrawalID string `json:"withdrawalId"`
	// TaskToken is set on the await step: the rail completes it.
	TaskToken string `json:"taskToken,omitempty"`
	// Detail is the rail's answer or the failure that led to release.
	Detail string `json:"detail,omitempty"`
}

// StepOutput is every step's JSON output. Next names the state to go to
// (a step name, or done, failed, wait).
type StepOutput struct {
	WithdrawalID string `json:"withdrawalId"`
	Status       string `json:"status"`
	Next         string `json:"next"`
	TxID         string `json:"txid,omitempty"`
}

// Steps are the withdrawal workflow's steps as plain functions with JSON
// inputs and outputs: the in-process runner and the Step Functions Lambda
// call the same ones. Each is idempotent on the withdrawal id.
type Steps struct{ s *Service }

// Steps returns the service's workflow steps.
func (s *Service) Steps() *Steps { return &Steps{s: s} }

func terminal(r Record) (StepOutput, bool) {
	switch r.Status {
	case StatusSuccess:
		return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: NextDone, TxID: r.TxID}, true
	case StatusFailed:
		return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: NextFailed}, true
	}
	return StepOutput{}, false
}

// Validate re-checks the held withdrawal (the risk check): the rail is still
// open and the destination still valid; otherwise it goes to release.
func (st *Steps) Validate(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	out := StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepHold}
	cfg, ok := st.s.o.Coins.Chain(r.Coin, r.Chain)
	switch {
	case !ok || !cfg.WithdrawOpen:
		out.Next = StepRelease
	case !r.Net.IsPositive():
		out.Next = StepRelease
	case r.Kind == KindChain:
		ac, ok := cfg.AddressChain()
		if !ok || chain.Validate(ac, r.Address) != nil {
			out.Next = StepRelease
		}
	}
	return out, nil
}

// Hold checks that the submit's hold is in place (the record exists only
// together with it, and the frozen balance covers it).
func (st *Steps) Hold(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	bal, err := st.s.o.Ledger.Balance(ctx, ledger.UserAccount(r.UID, ledger.Spot), r.Coin)
	if err != nil {
		return StepOutput{}, err
	}
	if bal.Frozen.LessThan(r.Amount) {
		return StepOutput{}, fmt.Errorf("withdraw: %s: frozen %s %s is less than the held amount %s", r.ID, bal.Frozen, r.Coin, r.Amount)
	}
	return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepSend}, nil
}

// Send hands the withdrawal to its rail, keyed by the withdrawal id so a
// re-run after a crash cannot send twice, and marks it PROCESSING.
func (st *Steps) Send(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	upd := store.NewUpdate().Set("status", StatusProcessing).Set("updated", st.s.o.Now().UnixMilli())
	switch r.Kind {
	case KindChain:
		if st.s.o.Chain == nil {
			return StepOutput{}, errors.New("withdraw: no chain rail configured")
		}
		t, err := st.s.o.Chain.Send(ctx, chainsim.SendReq{Ref: r.ID, Coin: r.Coin, Chain: r.Chain, Address: r.Address,
			Memo: r.Memo, Amount: r.Net.String()})
		if errors.Is(err, chainsim.ErrInput) {
			st.s.o.Log.Warn().Err(err).Str("withdrawal", r.ID).Msg("chain refused the send; releasing")
			return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepRelease}, nil
		}
		if err != nil {
			return StepOutput{}, err
		}
		r.TxID = t.TxID
		upd.Set("txid", t.TxID)
	case KindBank:
		if st.s.o.Bank == nil {
			return StepOutput{}, errors.New("withdraw: no bank rail configured")
		}
		_, err := st.s.o.Bank.Pay(ctx, banksim.PayReq{Ref: r.ID, Amount: r.Net, BankName: r.BankName, AccountNo: r.AccountNo, AccountName: r.AccountName})
		if errors.Is(err, banksim.ErrInput) {
			return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepRelease}, nil
		}
		if err != nil {
			return StepOutput{}, err
		}
	default:
		return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepRelease}, nil
	}
	_, err = st.s.o.Store.Update(ctx, wdKey(r.ID), upd, store.Or(store.Eq("status", StatusPending), store.Eq("status", StatusProcessing)))
	if err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return StepOutput{}, err
	}
	r.Status = StatusProcessing
	st.s.notify(ctx, r)
	return StepOutput{WithdrawalID: r.ID, Status: StatusProcessing, Next: StepAwait, TxID: r.TxID}, nil
}

// Await registers the task token with the rail, which completes it when the
// chain has confirmed the send or the bank answered. Registering again
// (after a crash, or the periodic re-check) is harmless.
func (st *Steps) Await(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	if in.TaskToken == "" {
		return StepOutput{}, errors.New("withdraw: await needs a task token")
	}
	switch r.Kind {
	case KindChain:
		if r.TxID == "" {
			return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: StepSend}, nil
		}
		err = st.s.o.Chain.Watch(ctx, r.Chain, r.TxID, in.TaskToken)
	case KindBank:
		err = st.s.o.Bank.Watch(ctx, r.ID, in.TaskToken)
	}
	if err != nil {
		return StepOutput{}, err
	}
	return StepOutput{WithdrawalID: r.ID, Status: r.Status, Next: NextWait, TxID: r.TxID}, nil
}

// counterparty is the external account a withdrawal pays into.
func (st *Steps) counterparty(r Record) ledger.Account {
	if r.Kind == KindBank {
		return ledger.BankAccount(st.s.o.BankLedger)
	}
	return ledger.ChainAccount(r.Chain)
}

var openStatus = store.Or(store.Eq("status", StatusPending), store.Eq("status", StatusProcessing))

// Settle books the confirmed withdrawal: from the user's frozen balance,
// amount - fee to the chain (or bank) account and the fee to the fee
// account, and marks it SUCCESS, in one posting.
func (st *Steps) Settle(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	user := ledger.UserAccount(r.UID, ledger.Spot)
	legs := []ledger.Leg{{From: user, FromBucket: ledger.Frozen, To: st.counterparty(r), ToBucket: ledger.Available, Coin: r.Coin, Amount: r.Net}}
	if r.Fee.IsPositive() {
		legs = append(legs, ledger.Leg{From: user, FromBucket: ledger.Frozen, To: ledger.FeeAccount(), ToBucket: ledger.Available, Coin: r.Coin, Amount: r.Fee})
	}
	now := st.s.o.Now().UnixMilli()
	_, err = st.s.o.Ledger.Post(ctx, ledger.Posting{
		ID: "withdraw:settle:" + r.ID, Reason: "withdraw", Legs: legs,
		Meta:  map[string]string{"withdrawal": r.ID, "txid": r.TxID},
		Extra: []store.Op{store.UpdateOp(wdKey(r.ID), store.NewUpdate().Set("status", StatusSuccess).Set("updated", now), openStatus)},
	})
	var xf *ledger.ExtraFailedError
	if errors.As(err, &xf) {
		r, err = st.s.Get(ctx, r.ID) // released meanwhile
		if err != nil {
			return StepOutput{}, err
		}
		out, _ := terminal(r)
		return out, nil
	}
	if err != nil {
		return StepOutput{}, err
	}
	r.Status = StatusSuccess
	st.s.o.Log.Info().Str("withdrawal", r.ID).Msg("withdrawal settled")
	st.s.notify(ctx, r)
	return StepOutput{WithdrawalID: r.ID, Status: StatusSuccess, Next: NextDone, TxID: r.TxID}, nil
}

// Release returns the held amount to the available balance and marks the
// withdrawal FAILED, in one posting.
func (st *Steps) Release(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	reason := in.Detail
	if reason == "" {
		reason = "rejected"
	}
	now := st.s.o.Now().UnixMilli()
	_, err = st.s.o.Ledger.Post(ctx, ledger.Posting{
		ID: "withdraw:release:" + r.ID, Reason: "withdraw_release",
		Legs: []ledger.Leg{ledger.ReleaseLeg(ledger.UserAccount(r.UID, ledger.Spot), r.Coin, r.Amount)},
		Meta: map[string]string{"withdrawal": r.ID},
		Extra: []store.Op{store.UpdateOp(wdKey(r.ID), store.NewUpdate().Set("status", StatusFailed).Set("updated", now).
			Set("reason", clip(reason, 200)), openStatus)},
	})
	var xf *ledger.ExtraFailedError
	if errors.As(err, &xf) {
		r, err = st.s.Get(ctx, r.ID)
		if err != nil {
			return StepOutput{}, err
		}
		out, _ := terminal(r)
		return out, nil
	}
	if err != nil {
		return StepOutput{}, err
	}
	r.Status = StatusFailed
	st.s.o.Log.Info().Str("withdrawal", r.ID).Str("reason", reason).Msg("withdrawal released")
	st.s.notify(ctx, r)
	return StepOutput{WithdrawalID: r.ID, Status: StatusFailed, Next: NextFailed}, nil
}

// Complete delivers a rail's answer for a task token (ok settles, not ok
// releases) to the configured completer: the in-process runner locally,
// Step Functions' SendTaskSuccess/Failure in AWS.
func (st *Steps) Complete(ctx context.Context, taskToken string, ok bool, detail string) error {
	if st.s.comp == nil {
		return apperr.New(apperr.CodeInternal).WithCause(errors.New("withdraw: no workflow completer configured"))
	}
	return st.s.comp.Complete(ctx, taskToken, ok, detail)
}

// step adapts a Steps method to a workflow step.
func step(fn func(context.Context, StepInput) (StepOutput, error)) func(context.Context, workflow.Instance) (workflow.Transition, error) {
	return func(ctx context.Context, inst workflow.Instance) (workflow.Transition, error) {
		detail := inst.Detail
		if detail == "" {
			detail = inst.LastError
		}
		out, err := fn(ctx, StepInput{WithdrawalID: inst.ID, TaskToken: inst.Token(), Detail: detail})
		if err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Entry.Code == apperr.CodeWithdrawalUnknown {
				return workflow.Transition{}, workflow.Permanent(err)
			}
			return workflow.Transition{}, err
		}
		switch out.Next {
		case NextDone:
			return workflow.Finish(), nil
		case NextFailed:
			return workflow.Fail(), nil
		case NextWait:
			return workflow.Wait(), nil
		}
		return workflow.Goto(out.Next), nil
	}
}

// Definition is the in-process withdrawal workflow: validate → hold → send
// → await (task token) → settle, or release on a rejection, a chain or bank
// failure, or a validate/hold step that keeps failing. Send, settle and
// release retry until they succeed: a send may have happened, and held money
// must end settled or released.
func (st *Steps) Definition() workflow.Definition {
	return workflow.Definition{Kind: WorkflowKind, First: StepValidate, Steps: map[string]workflow.Step{
		StepValidate: {Run: step(st.Validate), MaxAttempts: 10, OnExhausted: StepRelease},
		StepHold:     {Run: step(st.Hold), MaxAttempts: 10, OnExhausted: StepRelease},
		StepSend:     {Run: step(st.Send)},
		StepAwait:    {Run: step(st.Await), OnOK: StepSettle, OnFail: StepRelease},
		StepSettle:   {Run: step(st.Settle)},
		StepRelease:  {Run: step(st.Release)},
	}}
}
