// Command competition is the futures competitions' schedule in AWS: an
// EventBridge rule invokes it every minute, and it works every running
// competition's ranking out (competition.Service.Refresh), as `tenger
// serve`'s refresher does; after a competition's end the first refresh
// fixes its winners and pays their prizes into spot through the engine
// task (an engine client, as the trade function is), once each.
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
	rt := awslambda.NewRuntime("competition", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	if err := d.NeedEngine(); err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	lambda.Start(handler(rt, d))
}
