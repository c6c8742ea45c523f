package main

import (
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the P2P routers, the same ones `tenger serve` mounts,
// from the platform's ports: main passes the AWS adapters, the handler
// test DynamoDB Local.
func newHandler(d *platform.Deps) http.Handler {
	mux := http.NewServeMux()
	httpapi.Mount(mux, d.P2PArea()...)
	return mux
}
