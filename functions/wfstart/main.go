// Command wfstart starts the withdrawal state machine. The table's stream
// (filtered to INSERTs of pk "WF#...") triggers it with the workflow items a
// withdrawal submit writes together with its hold; it calls StartExecution
// named after the withdrawal, which makes a redelivery harmless. Failed
// records are reported as partial batch failures.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"tenger/internal/awslambda"
)

// EnvStateMachine names the variable holding the withdrawal state machine's ARN.
const EnvStateMachine = "WITHDRAWAL_STATE_MACHINE_ARN"

func main() {
	rt := awslambda.NewRuntime("wfstart", os.Stdout)
	log := rt.Logger()
	arn := os.Getenv(EnvStateMachine)
	if arn == "" {
		log.Fatal().Msg("start: " + EnvStateMachine + " is not set")
	}
	cfg, err := config.LoadDefaultConfig(context.Background())
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(rt.DynamoDBBatch(starter{api: sfn.NewFromConfig(cfg), stateMachine: arn}.handle))
}
