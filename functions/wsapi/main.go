// Command wsapi is the Lambda function behind the Binance-compatible
// WebSocket API's $connect, $disconnect and $default routes: Binance's
// WebSocket API (order.place, account.status, session.logon,
// userDataStream.subscribe.signature ...; internal/binance) with each
// frame served as one invocation. What a connection remembers between
// frames is kept in the table (internal/binance/wsapiaws), answers go out
// through the management API at $BINANCE_WS_ENDPOINT, and the stream
// function posts the user data events. Orders go to the engine task's
// endpoint as the openapi function's do ($ENGINE_KEY_SECRET_ARN); API
// keys' HMAC secrets are opened with the auth key ($AUTH_KEY_SECRET_ARN).
package main

import (
	"tenger/functions/internal/httpfn"
	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

func main() {
	httpfn.ServeWebSocket("wsapi", func(d *platform.Deps) (awslambda.WebSocketHandler, error) { return newHandler(d) })
}
