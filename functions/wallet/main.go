// Command wallet is the Lambda function behind the HTTP API's wallet routes
// (/fe-ex-api/wallet/*, /fe-ex-api/finance/*, /fe-ex-api/record/*,
// /fe-ex-api/fiat/*, /fe-ex-api/cost/*, the wallet's exact /fe-ex-api/common,
// /user and /v4 paths, and /bank/v2/withdraw-req). A withdrawal submit
// writes the withdrawal and its WF# workflow item, then holds the funds in
// the engine task (whose hold step makes the hold if the submit died
// before it); the wfstart function starts the state machine from the
// workflow item's stream record.
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"tenger/functions/internal/httpfn"
)

func main() { httpfn.Serve("wallet", newHandler) }
