// Command workflow is the Lambda function behind the withdrawal state
// machine's tasks (validate, hold, send, await with a task token, settle,
// release). Until the wallet ledger lands only validate does work; every
// money-moving step refuses with StepUnavailable.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/events"
	"tenger/internal/awslambda"
)

func main() {
	rt := awslambda.NewRuntime("workflow", os.Stdout)
	lambda.Start(handler(rt))
}

// handler runs one step under the invocation's logging context, keyed by the
// correlation id the state machine carries.
func handler(rt *awslambda.Runtime) func(context.Context, events.WorkflowStep) (events.StepResult, error) {
	return func(ctx context.Context, in events.WorkflowStep) (events.StepResult, error) {
		ctx, _ = rt.Begin(ctx, in.CorrelationID)
		return run(ctx, in)
	}
}
