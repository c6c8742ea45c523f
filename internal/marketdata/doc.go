// Package marketdata turns the trade engine's output (trades, depth
// snapshots) into public market data: recent trades, 24 h tickers, klines
// and stepped depth, served over REST (httpapi/marketdata_routes.go) and
// pushed over the realtime port (push.Pusher).
//
// Wiring: New(ctx, Options{Store, Markets, Pusher, Log}) rebuilds from the
// store, Start runs the apply/push loop, Stop drains it. The *Service is the
// Feed the engine calls; NewWalletPrices(md, wallet.SeededPrices()) is the
// wallet's price source; NewMaker(...).Run(ctx) is the dev market maker.
//
// Realtime channels (messages built with push.Tick / push.Data):
//
//	market_{symbol}_depth_step{0,1,2}  tick {buys:[[price,qty]...], asks:[...], ts}  ≤ 1 per 100 ms per symbol
//	market_{symbol}_trade_ticker       data [{id, side, price, vol, amount, ts, ds}...] (new trades, oldest first)
//	market_{symbol}_ticker             tick {symbol, open, high, low, close, vol, amount, rose, count, ts}
//	market_{symbol}_kline_{period}     tick {id (bucket start, s), open, high, low, close, vol, amount, count}
//
// Prices and quantities are decimal strings. Nothing is sent on subscribe:
// clients load the snapshot over REST first, then subscribe and apply
// pushes (a depth push is a full snapshot of the top 200 levels, so the
// book needs no sequence numbers).
//
// Trade ids must increase per symbol (digit strings compare as numbers):
// each stored candle keeps the last trade id applied to it, which makes
// replays after a restart harmless.
package marketdata
