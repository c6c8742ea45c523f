// Command ws is the Lambda function behind the WebSocket API's $connect,
// $disconnect and $default routes. Connections and subscriptions are items
// of the main table (with a TTL); replies go out through the API Gateway
// management API at $WS_ENDPOINT.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
	"tenger/internal/push/apigw"
)

func main() {
	rt := awslambda.NewRuntime("ws", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	// platform.NewAWS builds the API Gateway adapter when WS_ENDPOINT is
	// set (the realtime stack sets it); auth frames resolve sessions through
	// the profile service.
	fanout, ok := d.Push.(*apigw.Fanout)
	if !ok {
		log.Fatal().Msg("start: WS_ENDPOINT is not set, no WebSocket adapter")
	}
	lambda.Start(rt.WebSocket(connections{fanout: fanout}))
}
