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
	"tenger/functions/internal/httpfn"
)

func main() { httpfn.Serve("trade", newHandler) }
