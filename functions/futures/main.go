// Command futures is the Lambda function behind the HTTP API's perpetual
// futures routes (/fe-co-api): the contracts and their prices, the
// contracts' market data, the caller's settings, account, positions,
// orders, fills and trigger orders. Orders, cancels, leverage, margin
// mode, isolated margin and trigger orders are commands to the engine task
// (engine-fargate), which runs the futures risk engine, the mark prices,
// funding and liquidations, over its private endpoint (platform.RemoteEngine).
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"tenger/functions/internal/httpfn"
)

func main() { httpfn.Serve("futures", newHandler) }
