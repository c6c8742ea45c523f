package main

import (
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the spot trading routers, the same ones `tenger serve`
// mounts for the trade area, from the platform's ports; orders go to the
// engine task's endpoint.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, d.TradeArea()...)
	return mux, nil
}
