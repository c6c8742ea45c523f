// Package refprice forms the exchange's reference (index) prices: what a
// coin is worth in USDT, and the MNT per USDT rate, as far as any decision
// of the exchange is concerned (the 24 h withdrawal limit, wallet
// valuations, the fee tier's 30-day volume, the price band of market
// orders; later margin, futures, loans and earn). The last trade price
// decides none of them: two accounts of one person can trade a small amount
// at any price they like.
//
// How a price is formed (Config, DefaultConfig), per index ("btcusdt", ...,
// and "usdtmnt", the MNT per USDT rate):
//
//   - Every Interval (5 s) the Service samples the mid of the exchange's own
//     book (best bid and best ask of the pair of that name, as the engine
//     last published them), when the book is two-sided and its spread is at
//     most MaxSpread (5 %) of the mid.
//   - The book's source price is the median of the mids sampled in the last
//     Window (5 min), once it holds MinSamples (12, one minute) of them. A
//     burst of trades or quotes far from the market must hold the book there
//     for more than half the window to move that median at all.
//   - External sources, when configured (Binance's spot prices, OKX's
//     index; ParseSources), each count as one more source while their quote
//     is at most Stale (1 min) old.
//   - The sources are combined by their median, leaving out those more than
//     MaxDeviation (5 %) from the median of all (if every source is that far
//     from the others, the median of all is used). With two external sources
//     configured, the exchange's own book cannot move the combination alone.
//   - Bound: the reference price moves at most MaxMovePerMinute (2 %) per
//     minute from its previous value, whatever the sources say. An index
//     starts from its stored price, or from its anchor (the seeded table)
//     when it has none; with neither, the first combination is taken as is.
//   - Operators can pin an index (FileSource: DATA/prices.json, written by
//     `tenger prices pin`; StoreSource in AWS): the pinned price is
//     published while the computed one goes on, so an unpin resumes from
//     the market.
//
// The Service runs where the engine runs (it needs the book) and writes one
// item per index (pk "refprice", sk the index); Readers in every process
// answer from those items, cached for a couple of seconds, and implement
// the wallet's price port.
package refprice
