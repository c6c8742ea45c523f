// Command p2ptimeout is the task of the P2P payment deadline's state
// machine: after its Wait state reaches an order's deadline, it cancels
// the order if it is still unpaid (the escrow returns to the ad or to the
// seller) and does nothing when the order has moved on. It answers NotDue
// when it runs early (the state machine retries it), and the same step
// runs in `tenger serve` from the in-process workflow runner.
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

func main() {
	rt := awslambda.NewRuntime("p2ptimeout", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(handler(rt, d))
}
