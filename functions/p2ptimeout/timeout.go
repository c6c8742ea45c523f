package main

import (
	"context"
	"errors"
	"fmt"

	"tenger/internal/apperr"
	"tenger/internal/awslambda"
	"tenger/internal/p2p"
	"tenger/internal/platform"
)

// input is the state machine's payload: the order (functions/wfstart
// starts the execution with the deadline the Wait state waits for).
type input struct {
	OrderID       string `json:"orderId"`
	CorrelationID string `json:"correlationId"`
}

// output says what the step did.
type output struct {
	OrderID   string `json:"orderId"`
	Cancelled bool   `json:"cancelled" doc:"false when the order had moved on (paid, cancelled, released)"`
}

// NotDue is the error of a step that ran before the order's deadline;
// the state machine retries it (its error name is the type's name).
type NotDue struct{ OrderID string }

func (e *NotDue) Error() string {
	return fmt.Sprintf("order %s: its payment time has not ended yet", e.OrderID)
}

// Malformed is the error of an input without an order; not retried.
type Malformed struct{ Reason string }

func (e *Malformed) Error() string { return "p2ptimeout: malformed input: " + e.Reason }

// handler runs the deadline step under the invocation's logging context.
func handler(rt *awslambda.Runtime, d *platform.Deps) func(context.Context, input) (output, error) {
	return func(ctx context.Context, in input) (output, error) {
		ctx, log := rt.Begin(ctx, in.CorrelationID)
		if in.OrderID == "" || len(in.OrderID) > 64 {
			return output{}, &Malformed{Reason: "no orderId"}
		}
		cancelled, err := d.P2P().Timeout(ctx, in.OrderID)
		switch {
		case errors.Is(err, p2p.ErrNotDue):
			return output{}, &NotDue{OrderID: in.OrderID}
		case errors.Is(err, apperr.New(apperr.CodeP2POrderNotFound)):
			// Nothing to cancel: an order that was never stored.
			log.Warn().Str("order", in.OrderID).Msg("p2p timeout for an unknown order")
			return output{OrderID: in.OrderID}, nil
		case err != nil:
			return output{}, err
		}
		log.Info().Str("order", in.OrderID).Bool("cancelled", cancelled).Msg("p2p payment deadline")
		return output{OrderID: in.OrderID, Cancelled: cancelled}, nil
	}
}
