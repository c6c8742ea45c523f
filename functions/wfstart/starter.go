package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sfn/types"
	"github.com/rs/zerolog"

	"tenger/internal/awslambda"
	"tenger/internal/p2p"
	"tenger/internal/store"
	"tenger/internal/withdraw"
	"tenger/internal/workflow"
)

// Workflow instance items (internal/workflow): a withdrawal submit writes
// pk "WF#<id>", sk "WF", kind "withdrawal", id, in the same transaction as
// its hold posting. Their INSERT on the table's stream starts the state
// machine; every other record is ignored (the event source's filter already
// drops most of them).
const (
	instancePrefix = "WF#"
	instanceSK     = "WF"
)

// sfnAPI is the part of the Step Functions client the starter uses.
type sfnAPI interface {
	StartExecution(ctx context.Context, in *sfn.StartExecutionInput, opts ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error)
}

var _ sfnAPI = (*sfn.Client)(nil)

// executionInput is the withdrawal state machine's input: the withdrawal id
// (the steps read the stored record) and the correlation id of the request
// that submitted it.
type executionInput struct {
	Withdrawal struct {
		WithdrawalID string `json:"withdrawalId"`
	} `json:"withdrawal"`
	CorrelationID string `json:"correlationId"`
}

// starter starts one execution per withdrawal.
type starter struct {
	api          sfnAPI
	stateMachine string // ARN
	// p2pMachine is the P2P payment deadline's state machine ARN; its
	// instances are left alone when it is empty.
	p2pMachine string
	// st, when set, is the table: a started withdrawal's workflow instance
	// is marked handed over (it leaves the due index), and sweep finds
	// those never started.
	st  store.Store
	now func() time.Time
}

// SweepAfter is how long after its submit a withdrawal whose execution was
// never started (its stream record kept failing and went to the
// dead-letter queue) is started by the sweep.
const SweepAfter = 15 * time.Minute

// handle processes one stream record. The execution is named after the
// withdrawal, so a redelivered record (or a retried batch) cannot start a
// second one: ExecutionAlreadyExists counts as done. Any other failure
// returns the error, which reports this record as the batch's failure so
// Lambda retries from it.
func (s starter) handle(ctx context.Context, rec events.DynamoDBEventRecord) error {
	ch, err := awslambda.ChangeFromStreamRecord(rec)
	if err != nil {
		// A record that cannot be read never becomes readable: log and skip
		// it rather than block the shard.
		zerolog.Ctx(ctx).Error().Err(err).Msg("unreadable stream record skipped")
		return nil
	}
	if ch.Kind != store.ChangeInsert || !strings.HasPrefix(ch.Key.PK, instancePrefix) || ch.Key.SK != instanceSK {
		return nil
	}
	id := ch.New.Str("id")
	if id == "" {
		id = strings.TrimPrefix(ch.Key.PK, instancePrefix)
	}
	switch kind := ch.New.Str("kind"); {
	case kind == withdraw.WorkflowKind:
		return s.start(ctx, id, ch.New.Str(awslambda.ItemAttrCorrelationID))
	case kind == p2p.TimeoutKind && s.p2pMachine != "":
		return s.startP2P(ctx, id, ch.New.Str("input"), time.UnixMilli(ch.New.Int("nextRun")))
	default:
		zerolog.Ctx(ctx).Debug().Str("kind", kind).Msg("not a workflow this starter runs; ignored")
		return nil
	}
}

// p2pInput is the P2P payment deadline's execution input: the order and
// the deadline its Wait state waits for (RFC 3339, UTC).
type p2pInput struct {
	OrderID       string `json:"orderId"`
	Deadline      string `json:"deadline"`
	CorrelationID string `json:"correlationId"`
}

// startP2P starts the deadline execution of a P2P order (named after the
// workflow instance, so a second start is a no-op) and marks the instance
// handed over. A deadline already past (a sweep's late start) is waited
// for no longer.
func (s starter) startP2P(ctx context.Context, id, raw string, deadline time.Time) error {
	var in p2p.TimeoutInput
	if err := json.Unmarshal([]byte(raw), &in); err != nil || in.OrderID == "" {
		zerolog.Ctx(ctx).Error().Str("instance", id).Msg("p2p timeout instance without an order; skipped")
		return nil
	}
	if now := s.now(); deadline.Before(now) {
		deadline = now
	}
	body, err := json.Marshal(p2pInput{OrderID: in.OrderID, Deadline: deadline.UTC().Format(time.RFC3339Nano),
		CorrelationID: awslambda.CorrelationID(ctx)})
	if err != nil {
		return err
	}
	return s.execute(ctx, s.p2pMachine, id, body, zerolog.Ctx(ctx).With().Str("order_id", in.OrderID).Logger())
}

// start starts the execution of a withdrawal (a started one counts as
// done) and marks its workflow instance handed over.
func (s starter) start(ctx context.Context, id, correlationID string) error {
	var in executionInput
	in.Withdrawal.WithdrawalID = id
	in.CorrelationID = correlationID
	if in.CorrelationID == "" {
		in.CorrelationID = awslambda.CorrelationID(ctx)
	}
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return s.execute(ctx, s.stateMachine, id, body, zerolog.Ctx(ctx).With().Str("withdrawal_id", id).Logger())
}

// execute starts the execution of machine named after the workflow
// instance id (a started one counts as done) and marks the instance
// handed over.
func (s starter) execute(ctx context.Context, machine, id string, body []byte, log zerolog.Logger) error {
	name := executionName(id)
	log = log.With().Str("execution", name).Logger()
	out, err := s.api.StartExecution(ctx, &sfn.StartExecutionInput{
		StateMachineArn: aws.String(machine),
		Name:            aws.String(name),
		Input:           aws.String(string(body)),
	})
	var exists *types.ExecutionAlreadyExists
	switch {
	case errors.As(err, &exists):
		log.Info().Msg("execution already started")
	case err != nil:
		return fmt.Errorf("start execution %s: %w", name, err)
	default:
		log.Info().Str("execution_arn", aws.ToString(out.ExecutionArn)).Msg("workflow started")
	}
	if s.st == nil {
		return nil
	}
	if err := workflow.HandedOver(ctx, s.st, id, s.now()); err != nil && !errors.Is(err, workflow.ErrNotFound) {
		return fmt.Errorf("mark %s handed over: %w", id, err)
	}
	return nil
}

// sweep starts the withdrawals submitted more than SweepAfter ago whose
// execution was never started (an EventBridge schedule runs it every few
// minutes): their workflow instances are still in the due index. Each is
// started (or found started) and handed over; the first failure is
// returned after the others were tried.
func (s starter) sweep(ctx context.Context) (int, error) {
	waiting, err := workflow.Waiting(ctx, s.st, withdraw.WorkflowKind, s.now().Add(-SweepAfter))
	if err != nil {
		return 0, err
	}
	var first error
	for _, in := range waiting {
		if err := s.start(ctx, in.ID, ""); err != nil && first == nil {
			first = err
		}
	}
	if s.p2pMachine != "" {
		// P2P deadlines past by more than SweepAfter whose execution never
		// started: started now, their Wait state passes at once.
		late, err := workflow.Waiting(ctx, s.st, p2p.TimeoutKind, s.now().Add(-SweepAfter))
		if err != nil {
			return len(waiting), err
		}
		for _, in := range late {
			if err := s.startP2P(ctx, in.ID, string(in.Input), s.now()); err != nil && first == nil {
				first = err
			}
		}
		waiting = append(waiting, late...)
	}
	if len(waiting) > 0 {
		zerolog.Ctx(ctx).Warn().Int("withdrawals", len(waiting)).Msg("sweep: started withdrawals whose workflow never started")
	}
	return len(waiting), first
}

// validName is what Step Functions accepts as an execution name (1..80 of
// letters, digits, '-' and '_'; the service allows a few more, these are
// enough).
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)

// executionName is the withdrawal id itself when it is a valid name (the
// withdrawal service's ids are "w" and 24 hex digits), otherwise a digest of
// it: deterministic either way, so the name stays the idempotency key.
func executionName(id string) string {
	if validName.MatchString(id) {
		return id
	}
	h := sha256.Sum256([]byte(id))
	return "wd-" + hex.EncodeToString(h[:20])
}
