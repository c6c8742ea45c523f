package httpapi

import (
	"tenger/internal/auth"
	"tenger/internal/coins"
	"tenger/internal/favourites"
	"tenger/internal/markets"
)

// NewWalletNamedRouter serves, at /fe-ex-api/wallet/<name>, the named wallet
// operations of spec §7 whose calls other areas serve at their own paths:
// emailValid and smsValid (the send-code buttons of the withdraw, add-bank,
// address and trade-password modals; /v4/common/emailValidCode and
// smsValidCode) and marketData (the market document, public_info_market,
// without tickers). Every other named operation has its wallet path in
// the wallet and funds routers.
func NewWalletNamedRouter(svc *auth.Service, cc *coins.Catalogue, mc *markets.Catalogue, favs *favourites.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "wallet"
	}
	r := NewRouter(opts)
	addCodeRoutes(r, svc, "/fe-ex-api/wallet/emailValid", "/fe-ex-api/wallet/smsValid")
	Handle(r, "/fe-ex-api/wallet/marketData", RouteOpts{Summary: "Coins and pairs grouped by quote coin, with the caller's favourites (public_info_market)"},
		marketInfo(cc, mc, nil, favs))
	return r
}
