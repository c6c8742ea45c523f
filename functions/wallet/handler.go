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
//
// Every movement of a spot balance (deposit credits, withdrawal holds,
// transfers) is a command to the engine task, which owns those balances.
func newHandler(d *platform.Deps) (http.Handler, error) {
	if err := d.NeedEngine(); err != nil {
		return nil, err
	}
	routers, err := d.WalletArea()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	httpapi.Mount(mux, routers...)
	return mux, nil
}
