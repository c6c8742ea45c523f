// Package marketdata turns the trade engine's output (trades, depth
// snapshots) into public market data: recent trades, 24 h tickers, klines
// and stepped depth, served over REST (httpapi/marketdata_routes.go) and
// pushed over the realtime port (push.Pusher).
//
// Wiring: New(ctx, Options{Store, Markets, Pusher, Log}) rebuilds from the
// store, Start runs the apply/push loop, Stop drains it. The *Service is the
// Feed the engine calls, and its BestBidAsk the book the reference prices
// sample (package refprice); NewMaker(...).Run(ctx) is the dev market maker.
//
// Two modes. The fed service (the process that runs the engine: `tenger
// serve`, the engine task in AWS) keeps everything in memory, answers from
// there and writes what other processes need to the store. A reader
// (Options.Refresh > 0: the AWS Lambda functions) is never fed: it loads a
// symbol when first asked and reloads the part a call needs (depth, recent
// trades, one period's candles) when it was read more than Refresh ago,
// so a warm container answers at most about Refresh + DepthStoreInterval
// behind the engine (reader.go).
//
// Store layout (single table, next to each other under "md#"):
//
//	pk md#k#<symbol>#<period>  sk <bucket start, Unix s, 12 digits>  one candle: t o h l c v a n last
//	pk md#recent               sk <symbol>                           trades: the last 200 [{id p q s t}]
//	pk md#depth                sk <symbol>                           the book: t, b, a[, m, b1, a1, b2, a2]
//
// Candles and the recent trades are written with the trades that change
// them; the depth item at most once per DepthStoreInterval (1 s) per symbol
// when the book changed (and on Stop). It holds the best 200 levels per
// side ("price,qty;..." strings) and, when a side had more, the merged
// views of steps 1 and 2 (200 levels each) as the depth call shows them:
// tens of kilobytes at most, well under DynamoDB's 400 KB item limit.
//
// Realtime channels (messages built with push.Tick / push.Data):
//
//	market_{symbol}_depth_step{0,1,2}  tick {buys:[[price,qty]...], asks:[...], ts}  ≤ 1 per 100 ms per symbol
//	market_{symbol}_trade_ticker       data [{id, side, price, vol, amount, ts, ds}...] (new trades, oldest first)
//	market_{symbol}_ticker             tick {symbol, open, high, low, close, vol, amount, rose, count, ts}
//	market_{symbol}_kline_{period}     tick {id (bucket start, s), open, high, low, close, vol, amount, count}
//
// Depth, ticker and klines go out at most once per PushInterval per symbol
// (PushInterval is 100 ms), the trades at once. A kline push is one candle;
// each candle changed since the last push is pushed, oldest first. The
// ticker is pushed when a trade changed it and, without trades, when
// trades leave its 24 h window (the oldest one-minute candle with trades
// drops out 24 h after it began): the service keeps per symbol when that
// next happens and recomputes the ticker only then or after a trade,
// pushing it when it differs (ts aside) from the last one pushed. So a
// pair that stops trading has its pushed volume, change and high/low
// follow the window as REST answers them, and an idle window costs a
// comparison per flush. After a restart the ticker the process starts
// with counts as pushed. A reader (Options.Refresh) never pushes.
//
// Prices and quantities are decimal strings. Nothing is sent on subscribe:
// clients load the snapshot over REST first, then subscribe and apply
// pushes (a depth push is a full snapshot of the top 200 levels, so the
// book needs no sequence numbers).
//
// Book versions: each snapshot applied gets a version (DepthView.Seq),
// its time in Unix ms or the previous version + 1, so versions increase
// per symbol, across restarts too; the depth item keeps it (u). A
// Listener (Listen) is told of every snapshot with its version and of
// every trade applied: the Binance-compatible API's diff depth stream is
// built from those, numbered with the versions its REST depth answers.
//
// Trade ids must increase per symbol (digit strings compare as numbers):
// each stored candle keeps the last trade id applied to it, which makes
// replays after a restart harmless.
package marketdata
