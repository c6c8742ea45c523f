package main

import (
	"errors"
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// errNoOrdersQueue: without the orders queue an order would be stored and
// its funds held, but only the engine's outbox sweep would ever send it.
var errNoOrdersQueue = errors.New("trade: the orders queue is not configured (" + platform.EnvOrdersQueue + ")")

// newHandler builds the spot trading routers, the same ones `tenger serve`
// mounts for the trade area, from the platform's ports.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if d.Orders == nil {
		return nil, errNoOrdersQueue
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, d.TradeArea()...)
	return mux, nil
}
