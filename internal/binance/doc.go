// Package binance serves a Binance-compatible spot REST API on Tenger's
// market data, so that Binance clients (CCXT's binance class, trading
// bots) work with only their base URL changed. Request parameters,
// response fields (their names, order and types: numbers as strings
// where Binance sends strings), enums and errors follow Binance's spot
// API documentation.
//
// Wiring: New(Options{Markets, Coins, Data, Log}) returns an http.Handler
// for the paths under Prefixes (/api/v3/, /sapi/, /fapi/, /dapi/). It
// routes by exact method and path; an unknown endpoint answers 404 with
// an HTML page, as Binance does.
//
// Symbols are Binance's: base and quote in upper case (BTCUSDT for the
// pair btcusdt). Open pairs are TRADING; a closed pair is BREAK (not
// listed, its market data still readable by name).
//
// Limits: every request costs its endpoint's weight, counted per client
// IP and minute (limiter in limits.go); every answer carries
// X-MBX-USED-WEIGHT-1M. Over Options.WeightLimit (6000) an IP gets 429
// with Retry-After, and one that keeps sending is banned (418). New
// orders also count per account against the ORDERS limits (order_count.go:
// 100 per 10 seconds, 200000 per day, or Options.RateLimits' ORDERS
// entries), reported in X-MBX-ORDER-COUNT-10S and -1D; over them an order
// is refused with 429 and -1015. Counters live in this process: behind
// several processes each counts its own.
//
// Adding an endpoint (signed ones in their own files of this package,
// registered from New like addMarketRoutes):
//
//	s.route(http.MethodPost, "/api/v3/order", 1, SecTrade, s.newOrder).
//		params("symbol", "side", "type", "quantity", "price", ...)
//
// A route lists the parameters it takes (others sent are -1104; signed
// routes also take timestamp, recvWindow and signature); .weigh(f) makes
// its weight depend on them. The handler reads typed parameters from
// c.Params (Symbol, Symbols, Long, Limit, Time, Decimal, Enum, Bool, each
// answering Binance's -11xx errors) and returns a value written as JSON
// or an error: an *Error (the constructors in errors.go) is answered as
// is, anything else is logged and answered -1001. Routes whose security
// is not SecNone go through Options.Authenticate first, which checks the
// API key and signature (c.Params.RawQuery and RawBody hold what was
// signed) and may set c.Account.
package binance
