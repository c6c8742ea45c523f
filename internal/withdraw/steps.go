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
	"tenger/internal/spotfunds"
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

// Hold ensures the withdrawal's hold: the submit made it, unless it died
// between writing the record and holding, in which case it is made here.
// A balance too short for it fails the withdrawal ("insufficient balance")
// and ends the workflow without a release: nothing is held.
func (st *Steps) Hold(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	if r, err = st.s.hold(ctx, r); err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
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

// Settle pays the confirmed withdrawal's hold out (amount - fee to the
// chain or bank account, the fee to the fee account), then marks it
// SUCCESS. A re-run after a crash between the two finds the hold settled
// (the call answers nil again) and marks it. A hold a concurrent Release
// gave back first (ErrConflict) leaves the withdrawal FAILED.
func (st *Steps) Settle(ctx context.Context, in StepInput) (StepOutput, error) {
	r, err := st.s.Get(ctx, in.WithdrawalID)
	if err != nil {
		return StepOutput{}, err
	}
	if out, done := terminal(r); done {
		return out, nil
	}
	status, reason := StatusSuccess, ""
	err = st.s.o.Funds.Settle(ctx, st.settleMove(r))
	switch {
	case errors.Is(err, spotfunds.ErrConflict):
		st.s.o.Log.Warn().Str("withdrawal", r.ID).Msg("settle: the hold was released meanwhile")
		status, reason = StatusFailed, "released"
	case errors.Is(err, spotfunds.ErrNoHold):
		return StepOutput{}, fmt.Errorf("withdraw: %s: settle: nothing is held: %w", r.ID, err)
	case err != nil:
		return st.endedOr(ctx, r, err)
	}
	return st.end(ctx, r, status, reason)
}

// Release gives the held amount back to the available balance, then marks
// the withdrawal FAILED. A withdrawal never held (ErrNoHold: the Validate
// step refused it before the hold was made) is just marked FAILED; one
// whose hold a concurrent Settle paid out first (ErrConflict) ends SUCCESS.
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
	err = st.s.o.Funds.Release(ctx, releaseMove(r))
	noHold := errors.Is(err, spotfunds.ErrNoHold)
	switch {
	case errors.Is(err, spotfunds.ErrConflict):
		st.s.o.Log.Warn().Str("withdrawal", r.ID).Msg("release: the hold was settled meanwhile")
		return st.end(ctx, r, StatusSuccess, "")
	case err != nil && !noHold:
		return st.endedOr(ctx, r, err)
	}
	out, err := st.end(ctx, r, StatusFailed, reason)
	if err == nil && noHold && out.Status == StatusFailed {
		// A submit may have made the hold since the release above found
		// none. One that looks at the record after it turned FAILED gives
		// its hold back itself; this release gives back one that looked
		// before.
		err = st.s.releaseFailed(ctx, r)
	}
	return out, err
}

// endedOr answers the terminal output of a withdrawal that another step
// ended meanwhile, else err (the step is run again). A money call that lost
// a race to the hold's other end may answer an error rather than
// ErrConflict (the store ledger finds the frozen balance short first); the
// winner's record, once written, ends the step here.
func (st *Steps) endedOr(ctx context.Context, r Record, err error) (StepOutput, error) {
	cur, gerr := st.s.Get(ctx, r.ID)
	if gerr == nil {
		if out, done := terminal(cur); done {
			return out, nil
		}
	}
	return StepOutput{}, err
}

// end marks an open withdrawal SUCCESS or FAILED after its hold was settled
// or released, and answers the terminal output of the record as it ends
// (another step's outcome when that ended it first).
func (st *Steps) end(ctx context.Context, r Record, status, reason string) (StepOutput, error) {
	r, _, err := st.s.finish(ctx, r, status, reason, openStatus)
	if err != nil {
		return StepOutput{}, err
	}
	if r.Status != status {
		st.s.o.Log.Warn().Str("withdrawal", r.ID).Str("want", status).Str("status", r.Status).Msg("withdrawal ended meanwhile")
	}
	out, done := terminal(r)
	if !done {
		return StepOutput{}, fmt.Errorf("withdraw: %s: still %s after it ended", r.ID, r.Status)
	}
	return out, nil
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
