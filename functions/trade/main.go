// Command trade is the Lambda function behind the HTTP API's spot trading
// routes (/fe-ex-api/order/* and /fe-ex-api/trade/*): order entry, cancels
// and the order and trade queries. Placing an order holds the funds, stores
// the order and its outbox record in one transaction and then sends the
// command to the orders FIFO queue ($ORDERS_QUEUE_URL, required); the
// engine service (engine-fargate) matches and settles it.
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
