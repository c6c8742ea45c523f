package main

import (
	"net/http"

	"tenger/internal/httpapi"
	"tenger/internal/platform"
)

// newHandler builds the wallet service's router, the same routers `tenger
// serve` mounts for the wallet area (balances, transfers, rates, address
// book, bank accounts, trade password, deposits and withdrawals), from the
// platform's ports. In AWS Config.Dev is false, so the chain and bank
// simulators' /dev routes are not mounted.
func newHandler(d *platform.Deps) (http.Handler, error) {
	routers, err := d.WalletArea()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, routers...)
	return mux, nil
}
