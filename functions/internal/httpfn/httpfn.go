// Package httpfn starts the Lambda functions behind the HTTP API and the
// WebSocket APIs: each function's main names itself and gives the handler
// it serves.
package httpfn

import (
	"context"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"tenger/internal/awslambda"
	"tenger/internal/platform"
)

// Serve starts the function named name: its runtime (logs on stdout), the
// AWS platform, and the handler build makes of it, served through the HTTP
// API's payload v2 adapter. A failure to start is fatal: Lambda starts the
// function again.
func Serve(name string, build func(d *platform.Deps) (http.Handler, error)) {
	rt, h := start(name, build)
	lambda.Start(rt.HTTP(h))
}

// ServeWebSocket is Serve for a function behind a WebSocket API's
// $connect, $disconnect and $default routes.
func ServeWebSocket(name string, build func(d *platform.Deps) (awslambda.WebSocketHandler, error)) {
	rt, h := start(name, build)
	lambda.Start(rt.WebSocket(h))
}

// start builds the runtime, the platform and the handler, or stops.
func start[H any](name string, build func(d *platform.Deps) (H, error)) (*awslambda.Runtime, H) {
	rt := awslambda.NewRuntime(name, os.Stdout)
	log := rt.Logger()
	d, err := platform.NewAWS(context.Background(), log)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	h, err := build(d)
	if err != nil {
		log.Fatal().Err(err).Msg("start")
	}
	// Behind the edge, only what came through it (its web ACL) is served.
	rt.RequireOrigin(string(d.OriginKey))
	return rt, h
}
