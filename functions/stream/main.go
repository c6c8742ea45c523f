// Command stream is the change-feed consumer of the AWS runtime: the
// DynamoDB stream of the table (NEW_AND_OLD_IMAGES) triggers it in batches,
// and it posts each user's order and balance changes to that user's
// authenticated WebSocket connections (channels user_orders and
// user_balances, internal/userfeed) through the API Gateway management API,
// dropping connections that are gone. Each user's connections are looked
// up once per batch, and a user without connections costs nothing more.
// It also posts the Binance-compatible user data events to the connections
// streaming the user's listen keys and, with $BINANCE_WS_ENDPOINT set, to
// the WebSocket API connections subscribed to the user (binance.go). Every other change pushes nothing. Failed records are reported as partial
// batch failures: the batch stops at the first one, and Lambda retries
// from it.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
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
	fan, ok := d.Push.(*apigw.Fanout)
	if !ok {
		log.Fatal().Msg("start: the pusher is not the API Gateway adapter")
	}
	f := fanout{pusher: fan, conns: fan.UserConnections, users: userfeed.New(d.Markets)}
	// The Binance-compatible user data: the WebSocket API's subscribers
	// and the listen-key streams.
	f.binance = newBinanceFanout(d, fan)
	lambda.Start(f.handler(rt))
}
