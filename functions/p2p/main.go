// Command p2p is the Lambda function behind the HTTP API's P2P routes: the
// OTC service (/fe-otc-api: ads, orders with escrow, appeals, the order
// chat, payment methods, express, contacts) and the OTC order lists of
// /fe-ex-api/v4/order/otc. Orders and chat messages are pushed to both
// sides over the WebSocket API; an order's payment deadline is the p2p
// timeout state machine, started by wfstart from the workflow item the
// order's transaction writes.
// Build: scripts/build-lambdas.sh (GOOS=linux GOARCH=arm64, bootstrap).
package main

import (
	"net/http"

	"tenger/functions/internal/httpfn"
	"tenger/internal/platform"
)

func main() {
	httpfn.Serve("p2p", func(d *platform.Deps) (http.Handler, error) { return newHandler(d), nil })
}
