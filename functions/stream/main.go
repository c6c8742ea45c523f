// Command stream is the change-feed consumer of the AWS runtime: the
// DynamoDB stream of the table (NEW_AND_OLD_IMAGES) triggers it in batches,
// and it posts each user's order and balance changes to that user's
// authenticated WebSocket connections (channels user_orders and
// user_balances, internal/userfeed) and the push outbox to its channel or
// user, through the API Gateway management API, dropping connections that
// are gone. Failed records are reported as partial batch failures.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
	"tenger/internal/userfeed"
)

func main() {
	rt := awslambda.NewRuntime("stream", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	if d.Push == nil {
		log.Fatal().Msg("start: WS_ENDPOINT is not set, nothing to push to")
	}
	lambda.Start(rt.DynamoDBBatch(fanout{pusher: d.Push, users: userfeed.New(d.Markets)}.handle))
}
