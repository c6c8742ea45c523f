package main

import (
	"net/http"

	"tenger/internal/platform"
)

// newHandler builds the Binance-compatible API (platform.Deps.BinanceAPI),
// the server `tenger serve` mounts, on each of its prefixes. It needs the
// engine (order entry) and the key API key secrets are sealed with
// (Deps.SecretKey): without either it refuses to start rather than answer
// every signed request with an error.
//
// The client's address, which API keys' IP restrictions and the request
// weight limits go by, is the host of RemoteAddr, which the adapter
// (awslambda.RequestFromV2) takes from requestContext.http.sourceIp: the
// address API Gateway saw, not a header the client may set.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	api, err := d.BinanceAPI()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	for _, p := range api.Prefixes() {
		mux.Handle(p, api)
	}
	return mux, nil
}
