package p2p

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"tenger/internal/apperr"

	"tenger/internal/workflow"
)

// TimeoutKind is the workflow kind of an order's payment deadline.
const TimeoutKind = "p2p-timeout"

// timeoutID is the workflow instance id of an order's payment deadline.
func timeoutID(orderID string) string { return "p2p-timeout-" + orderID }

// TimeoutInput is the timeout instance's input.
type TimeoutInput struct {
	OrderID string `json:"orderId"`
}

// TimeoutDefinition is the workflow that cancels an order still unpaid at
// its deadline: one step, due at the deadline (workflow.StartOpAt), that
// does nothing when the order has moved on. It is idempotent: the order's
// transition is conditioned on its state.
func (s *Service) TimeoutDefinition() workflow.Definition {
	return workflow.Definition{Kind: TimeoutKind, First: "expire", Steps: map[string]workflow.Step{
		"expire": {Run: func(ctx context.Context, in workflow.Instance) (workflow.Transition, error) {
			var ti TimeoutInput
			if err := json.Unmarshal(in.Input, &ti); err != nil || ti.OrderID == "" {
				return workflow.Transition{}, workflow.Permanent(fmt.Errorf("p2p timeout: bad input %s", in.Input))
			}
			_, err := s.Timeout(ctx, ti.OrderID)
			if errors.Is(err, apperr.New(apperr.CodeP2POrderNotFound)) {
				return workflow.Finish(), nil // nothing to cancel (an order that was never stored)
			}
			if err != nil {
				return workflow.Transition{}, err // ErrNotDue and store failures: tried again
			}
			return workflow.Finish(), nil
		}},
	}}
}
