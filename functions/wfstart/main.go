// Command wfstart starts the withdrawal state machine. The table's stream
// (filtered to INSERTs of pk "WF#...") triggers it with the workflow items a
// withdrawal submit writes together with its hold; it calls StartExecution
// named after the withdrawal, which makes a redelivery harmless, and marks
// the workflow instance handed over. Failed records are reported as partial
// batch failures. An EventBridge schedule also invokes it every few
// minutes: it then starts the withdrawals whose instance was never handed
// over (their record kept failing and went to the dead-letter queue), so
// no withdrawal stays held without its workflow.
package main

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
	"tenger/internal/store/dynamo"
)

// EnvStateMachine names the variable holding the withdrawal state machine's ARN.
const EnvStateMachine = "WITHDRAWAL_STATE_MACHINE_ARN"

// EnvP2PStateMachine names the variable holding the P2P payment deadline's
// state machine ARN.
const EnvP2PStateMachine = "P2P_TIMEOUT_STATE_MACHINE_ARN"

func main() {
	rt := awslambda.NewRuntime("wfstart", os.Stdout)
	log := rt.Logger()
	arn := os.Getenv(EnvStateMachine)
	if arn == "" {
		log.Fatal().Msg("start: " + EnvStateMachine + " is not set")
	}
	table := os.Getenv(platform.EnvTable)
	if table == "" {
		log.Fatal().Msg("start: " + platform.EnvTable + " is not set")
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	st := dynamo.New(dynamodb.NewFromConfig(cfg), dynamodbstreams.NewFromConfig(cfg), table)
	s := starter{api: sfn.NewFromConfig(cfg), stateMachine: arn, p2pMachine: os.Getenv(EnvP2PStateMachine), st: st, now: time.Now}
	lambda.Start(handler(rt, s))
}

// sweepResult is the answer to a scheduled invocation.
type sweepResult struct {
	Started int `json:"started"`
}

// handler serves both invocations: an EventBridge scheduled event runs
// the sweep; anything else is a batch of the table's stream.
func handler(rt *awslambda.Runtime, s starter) func(ctx context.Context, raw json.RawMessage) (any, error) {
	batch := rt.DynamoDBBatch(s.handle)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var probe struct {
			DetailType string `json:"detail-type"`
			ID         string `json:"id"`
		}
		_ = json.Unmarshal(raw, &probe)
		if probe.DetailType == "Scheduled Event" {
			ctx, log := rt.Begin(ctx, probe.ID)
			n, err := s.sweep(ctx)
			if err != nil {
				log.Error().Err(err).Int("started", n).Msg("sweep failed")
				return nil, err
			}
			log.Info().Int("started", n).Msg("sweep")
			return sweepResult{Started: n}, nil
		}
		var ev events.DynamoDBEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, err
		}
		return batch(ctx, ev)
	}
}
