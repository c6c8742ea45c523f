package main

import (
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the futures routers and the competitions' (both under
// /fe-co-api), the same ones `tenger serve` mounts, from the platform's
// ports; orders, leverage, margin and trigger orders go to the engine
// task's endpoint.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	routers, err := d.FuturesArea()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, append(routers, d.CompetitionArea()...)...)
	return mux, nil
}
