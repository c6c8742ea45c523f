package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rs/zerolog"

	"tenger/events"
	"tenger/internal/apperr"
	"tenger/internal/banksim"
	"tenger/internal/chainsim"
	"tenger/internal/coins"
	"tenger/internal/withdraw"
)

// Rails modes (the RAILS environment variable the Workflows stack sets).
const (
	// RailsSimulated runs sends on the chain and bank simulators on the
	// table and confirms them at once: the await step mines the simulated
	// chain to the coin's confirmations or approves the simulated bank
	// payment, which completes the task token. For non-production stages,
	// where there is nobody to mine blocks or answer the bank's page.
	RailsSimulated = "simulated"
	// RailsNone has no rail: the send step refuses and the withdrawal is
	// released. Production uses it until real chain and bank rails exist,
	// so a withdrawal there never pretends to have been paid.
	RailsNone = "none"
)

// stepInput is what the state machine passes to the function
// (events.WorkflowStep): the step, the withdrawal (its id: the steps read
// the stored record), the task token on the await step, and on release the
// reason it was reached: the previous step's detail or the error a catch
// stored ($.error).
type stepInput struct {
	events.WorkflowStep
}

// stepOutput is the step's answer; the state machine keeps it at $.result
// and branches on next (a state name, done, failed; wait is never routed:
// the await state waits for its task token). Detail is always present (the
// release state reads $.result.detail).
type stepOutput struct {
	withdraw.StepOutput
	Detail string `json:"detail"`
}

// Transient marks a failure worth retrying (the store or a rail briefly
// unavailable). The state machine retries errors of this type with backoff;
// every step is idempotent on the withdrawal id, so a retry cannot apply
// anything twice. Its type name is the Lambda error type Step Functions
// matches (stacks/workflows.go errTransient).
type Transient struct{ Err error }

func (e *Transient) Error() string { return "transient: " + e.Err.Error() }
func (e *Transient) Unwrap() error { return e.Err }

// UnknownWithdrawal: no withdrawal has the id. Retrying cannot help and
// there is nothing held to release; the state machine ends in a Fail state.
type UnknownWithdrawal struct{ ID string }

func (e *UnknownWithdrawal) Error() string { return fmt.Sprintf("withdrawal %q does not exist", e.ID) }

// Malformed is a permanent input error: the state machine's input itself
// is unusable (an unknown step, no withdrawal id, an await without a token).
type Malformed struct{ Reason string }

func (e *Malformed) Error() string { return "workflow: malformed step input: " + e.Reason }

// NotSent: the await step found the withdrawal was never handed to a rail
// (no txid). The await state catches it and releases.
type NotSent struct{ ID string }

func (e *NotSent) Error() string {
	return fmt.Sprintf("withdrawal %q was not sent; nothing to wait for", e.ID)
}

// completer delivers a task token's outcome (sfntask.Completer in AWS).
type completer interface {
	Complete(ctx context.Context, token string, ok bool, detail string) error
}

// worker runs the withdrawal steps of internal/withdraw (the same ones the
// in-process runner of `tenger serve` calls) for the state machine.
type worker struct {
	wd    *withdraw.Service
	steps *withdraw.Steps
	comp  completer
	rails string
	coins *coins.Catalogue
	// chain and bank are the simulated rails (nil with RailsNone).
	chain *chainsim.Sim
	bank  *banksim.Sim
}

// run executes one step.
func (w *worker) run(ctx context.Context, in stepInput) (stepOutput, error) {
	id := in.Withdrawal.WithdrawalID
	log := zerolog.Ctx(ctx).With().Str("step", in.Step).Str("withdrawal_id", id).Logger()
	if id == "" {
		return stepOutput{}, &Malformed{Reason: "no withdrawal id"}
	}
	si := withdraw.StepInput{WithdrawalID: id, TaskToken: in.TaskToken, Detail: in.reason()}
	var out withdraw.StepOutput
	var err error
	detail := ""
	switch in.Step {
	case events.StepValidate:
		out, err = w.steps.Validate(ctx, si)
	case events.StepHold:
		out, err = w.steps.Hold(ctx, si)
	case events.StepSend:
		if w.rails == RailsNone {
			// No rail in this stage: refuse before anything is sent.
			out, err = w.steps.Validate(ctx, si)
			if err == nil && out.Next != withdraw.NextDone && out.Next != withdraw.NextFailed {
				out.Next, detail = withdraw.StepRelease, "no withdrawal rail is configured in this stage"
				log.Warn().Msg("send refused: no rail; releasing")
			}
			break
		}
		out, err = w.steps.Send(ctx, si)
	case events.StepAwait:
		if in.TaskToken == "" {
			return stepOutput{}, &Malformed{Reason: "the await step needs a task token"}
		}
		out, err = w.await(ctx, si)
	case events.StepSettle:
		out, err = w.steps.Settle(ctx, si)
	case events.StepRelease:
		out, err = w.steps.Release(ctx, si)
	default:
		return stepOutput{}, &Malformed{Reason: fmt.Sprintf("unknown step %q", in.Step)}
	}
	if err != nil {
		return stepOutput{}, classify(id, err)
	}
	log.Info().Str("status", out.Status).Str("next", out.Next).Msg("withdrawal step done")
	return stepOutput{StepOutput: out, Detail: detail}, nil
}

// await registers the task token with the rail. Its Lambda result is not
// routed (the state waits for the token), so an outcome the step already
// knows is delivered through the token: a finished withdrawal completes it
// at once, one never sent fails with NotSent. With simulated rails the
// simulator confirms now and completes the token itself.
func (w *worker) await(ctx context.Context, si withdraw.StepInput) (withdraw.StepOutput, error) {
	out, err := w.steps.Await(ctx, si)
	if err != nil {
		return out, err
	}
	switch out.Next {
	case withdraw.NextDone, withdraw.NextFailed:
		ok := out.Next == withdraw.NextDone
		return out, w.comp.Complete(ctx, si.TaskToken, ok, "withdrawal already "+strings.ToLower(out.Status))
	case withdraw.StepSend:
		return out, &NotSent{ID: si.WithdrawalID}
	}
	if w.rails != RailsSimulated {
		return out, nil
	}
	r, err := w.wd.Get(ctx, si.WithdrawalID)
	if err != nil {
		return out, err
	}
	switch r.Kind {
	case withdraw.KindChain:
		blocks := 1
		if cfg, ok := w.coins.Chain(r.Coin, r.Chain); ok && cfg.Confirmations > 1 {
			blocks = cfg.Confirmations
		}
		// Mining delivers the confirmation of every watched send that now
		// has enough blocks, this one included.
		_, err = w.chain.Mine(ctx, r.Chain, blocks)
	case withdraw.KindBank:
		_, err = w.bank.Answer(ctx, r.ID, true)
		if errors.Is(err, banksim.ErrAnswered) {
			err = nil // answered before: Watch delivered it
		}
	}
	return out, err
}

// reason is why the release step runs: the detail passed along, or the
// caught error.
func (in stepInput) reason() string {
	if in.Detail != "" {
		return in.Detail
	}
	if in.Error != nil && in.Error.Error != "" {
		if in.Error.Cause == "" {
			return in.Error.Error
		}
		return in.Error.Error + ": " + in.Error.Cause
	}
	return ""
}

// classify turns a step's error into the error types the state machine
// matches.
func classify(id string, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Entry.Code == apperr.CodeWithdrawalUnknown {
		return &UnknownWithdrawal{ID: id}
	}
	var nt *NotSent
	if errors.As(err, &nt) {
		return err
	}
	return &Transient{Err: err}
}
