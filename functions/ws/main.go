// Command ws is the Lambda function behind the WebSocket API's $connect,
// $disconnect and $default routes. Connections and subscriptions are items
// of the main table (with a TTL); replies go out through the API Gateway
// management API at $WS_ENDPOINT. Request frames (order.place,
// order.cancel, order.amend, order.cancelAll) run the spot service as the
// trade function's routes do, so the function reaches the engine task's
// endpoint as that one does ($ENGINE_KEY_SECRET_ARN), and answers at the
// engine's journal.
package main

import (
	"tenger/functions/internal/httpfn"
	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

func main() {
	httpfn.ServeWebSocket("ws", func(d *platform.Deps) (awslambda.WebSocketHandler, error) { return newConnections(d) })
}
