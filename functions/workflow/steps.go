package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/rs/zerolog"

	"tenger/events"
)

// StepUnavailable is returned by the steps that move money (hold, send,
// await, settle, release) until the wallet ledger lands. Its type name is
// the error type Lambda reports to Step Functions, so the state machine's
// catches route the execution to HoldFailed with nothing held and nothing
// sent: the workflow refuses rather than pretends.
type StepUnavailable struct {
	Step string
}

func (e *StepUnavailable) Error() string {
	return fmt.Sprintf("withdrawal step %q is not available yet: the wallet ledger has not landed; no funds were held or moved", e.Step)
}

// Transient marks a failure worth retrying (a dependency briefly down). The
// state machine retries errors of this type with backoff; every step is
// idempotent on the withdrawal id, so a retry cannot apply anything twice.
type Transient struct {
	Err error
}

func (e *Transient) Error() string { return "transient: " + e.Err.Error() }
func (e *Transient) Unwrap() error { return e.Err }

// errMalformed is a permanent input error: the state machine's input itself
// is unusable (not a validation verdict on the withdrawal).
var errMalformed = errors.New("workflow: malformed step input")

// run executes one step of the withdrawal workflow.
func run(ctx context.Context, in events.WorkflowStep) (events.StepResult, error) {
	log := zerolog.Ctx(ctx).With().Str("step", in.Step).Str("withdrawal_id", in.Withdrawal.WithdrawalID).Logger()
	switch in.Step {
	case events.StepValidate:
		problems := in.Withdrawal.Problems()
		res := events.StepResult{Step: in.Step, Valid: len(problems) == 0, Problems: problems, Status: "validated"}
		if !res.Valid {
			res.Status = "rejected"
		}
		log.Info().Bool("valid", res.Valid).Int("problems", len(problems)).Msg("withdrawal validated")
		return res, nil
	case events.StepHold, events.StepSend, events.StepAwait, events.StepSettle, events.StepRelease:
		if in.Step == events.StepAwait && in.TaskToken == "" {
			return events.StepResult{}, fmt.Errorf("%w: the await step needs a task token", errMalformed)
		}
		log.Warn().Msg("withdrawal step refused: wallet ledger not available")
		return events.StepResult{}, &StepUnavailable{Step: in.Step}
	default:
		return events.StepResult{}, fmt.Errorf("%w: unknown step %q", errMalformed, in.Step)
	}
}
