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
	if kind := ch.New.Str("kind"); kind != withdraw.WorkflowKind {
		zerolog.Ctx(ctx).Debug().Str("kind", kind).Msg("not a withdrawal workflow; ignored")
		return nil
	}
	id := ch.New.Str("id")
	if id == "" {
		id = strings.TrimPrefix(ch.Key.PK, instancePrefix)
	}
	return s.start(ctx, id, ch.New.Str(awslambda.ItemAttrCorrelationID))
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
	name := executionName(id)
	log := zerolog.Ctx(ctx).With().Str("withdrawal_id", id).Str("execution", name).Logger()
	out, err := s.api.StartExecution(ctx, &sfn.StartExecutionInput{
		StateMachineArn: aws.String(s.stateMachine),
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
		log.Info().Str("execution_arn", aws.ToString(out.ExecutionArn)).Msg("withdrawal workflow started")
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
