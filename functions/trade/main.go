// Command trade is the Lambda function behind the HTTP API's spot trading
// routes (/fe-ex-api/order/* and /fe-ex-api/trade/*): order entry, cancels
// and the order and trade queries. Orders, cancels and amends are commands
// to the engine task (engine-fargate) over its private endpoint in the VPC
// (platform.RemoteEngine, signed with the key of $ENGINE_KEY_SECRET_ARN):
// the engine checks the balance, holds, matches and answers once the
// command is in its journal and the table shows it.
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
	rt := awslambda.NewRuntime("trade", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	h, err := newHandler(d)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(rt.HTTP(h))
}
