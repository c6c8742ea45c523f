package main

import (
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the profile service's router, the same one `tenger
// serve` mounts, from the platform's ports: main passes the AWS adapters
// (platform.NewAWS), the handler test DynamoDB Local and a recording
// notifier.
func newHandler(d *platform.Deps) http.Handler {
	mux := http.NewServeMux()
	httpapi.Mount(mux, d.ProfileArea()...)
	return mux
}
