// Command earn is the Lambda function of the earn products in AWS. Behind
// the HTTP API it serves the earn routers `tenger serve` mounts: savings,
// staking and crypto loans under /fe-increment-api, the wallet's named
// savings operations (/fe-ex-api/wallet/get_project_list,
// confirm_subscription, confirm_auto_sub and savings/release, whose exact
// routes win over the wallet function's {proxy+}) and the launchpad
// (/fe-ex-api/newcoinV2/*, common/launchpad_footer, api/newcoin_purchase).
// An EventBridge schedule invokes it every 5 minutes for the settlement
// (Resume, then RunDue: savings interest and payouts, auto-subscribe,
// stakes, launchpad distributions, loans' interest and liquidations), as
// `tenger serve`'s scheduler does every minute. Every move of a spot
// balance, a liquidation's market order among them, goes to the engine
// task (an engine client, as the wallet function is); the earn accounts
// are the store ledger's.
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
	rt := awslambda.NewRuntime("earn", os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	h, err := newHandler(d)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	// Behind the edge, only what came through it (its web ACL) is served;
	// the schedule's events do not pass the HTTP adapter.
	rt.RequireOrigin(string(d.OriginKey))
	lambda.Start(handler(rt, d, h))
}
