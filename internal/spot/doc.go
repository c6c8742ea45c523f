// Package spot is Tenger's spot exchange: the trading service (order entry,
// cancellation, amendment, order and trade queries), the runtime that runs
// the engine owning the balances orders trade against (package engine) with
// its store projection and market data, and spot's part of that projection
// (the order items, fill rows and fee-tier volumes).
//
// # Order entry
//
// PlaceOrder validates the order against the pair's grid from the markets
// catalogue (tick, lot, minimum quantity and notional; nothing is rounded),
// refuses a stop its pair's last trade price has already reached, and
// sends the engine one command (entry.go). Service requires Options.Engine:
// Runtime in one process (`tenger serve`, the engine task in AWS), the
// engine task's private endpoint in the AWS functions. The engine checks the
// order against the user's available balance and holds exactly what it can
// spend, because fees are taken from what the user receives: a limit buy
// holds price × volume of the quote coin, a market buy by quote amount its
// quoteVolume, a sell its volume of the base coin. A market buy by base
// quantity (volume) has no price to hold against: the engine holds
// everything of the quote coin the user can spend, at most its budget
// (budgetLimit: its volume at the pair's reference price, or else its last
// trade price, × MarketBuyBand; before the pair has a price, its cost at the
// book's top price), for the moment it takes to match; it buys the volume or
// stops when the budget is spent (then it ends cancelled, partly filled),
// and its end releases what it did not spend. The budget is not stored as
// the order's quoteVolume. A market order by volume worth less than the
// pair's minimum value at the best opposite price is REJECTED. An order the
// balance cannot cover is refused at once (CodeTradeInsufficient) and
// holds nothing.
//
// A REST call is answered once the store shows its command (so the page's
// next read includes it); the WebSocket and batch routes mark their
// requests AckAtJournal and are answered once the engine's journal holds
// the command. A clientOrderId sent again answers the first order, or
// CodeTradeClientOrderReused with other parameters: the engine remembers
// the ids of the last engine.ClientIDWindow (a place's Ref), for every
// process that submits (the AWS functions included), and the store's
// client id item answers after that.
//
// Cancels, amendments (amend.go) and cancel-alls are engine commands too,
// checked against the engine's live book: one the engine refuses found the
// order ended meanwhile. A cancel-all carries an order-id bound taken when
// it was asked, so it never cancels an order placed after it.
//
// # Self-trade prevention
//
// An order that would trade with one of its owner's resting orders follows
// its stp (PlaceRequest.STP), or else its pair's SelfTradePrevention, or
// else cancel_taker (matching.STPMode; the core's decrement is refused, as
// it changes quantities without a trade or an amendment). The mode is
// resolved at entry and written into the command, so the journal replays
// the same after an operator changes a pair's default, and a mode other
// than cancel_taker is stored on the order ("stp").
//
// # The runtime
//
// StartRuntime (runtime.go) opens the engine: it restores the newest
// snapshot the store projection's checkpoint allows, replays the journal
// after it and hands the projection what it lacks, so a crash anywhere
// between the journal and the store loses nothing and writes nothing twice.
// It then lists every coin and pair of the catalogues in the engine, and a
// pair the operator adds while the exchange runs (the catalogue's watcher
// replaces it, markets/reload.go) within 50 ms. A snapshot is written every
// SnapshotEvery, once market data has stored the trades handed to it (the
// journal the snapshot covers could publish them again), and when the
// runtime closes. Verify compares every balance the engine owns with the
// store's.
//
// # The store projection
//
// The projector (package projector) writes each engine batch behind the
// engine: the balances, one ledger posting through the clearing account
// that explains them, and spot's items from Projection (project.go): each
// order the batch touched at its state after it (its Place creates it whole,
// with what the command's note carries: type, clientOrderId, quote volume,
// stp), a row per fill side, the fee tier's daily volume items and the
// pair's marks (its last trade: the price stop orders are checked against
// at entry). A batch written twice changes nothing twice.
//
// # Market data
//
// The Publisher (publish.go) hands each batch's trades to market data once
// the store shows the batch, and the depth of every book a batch changed at
// most every 100 ms per pair (every level the merged depth steps group).
// After a restart the runtime publishes the recovered books and the trades
// of the journal it replayed; market data skips the ones it already stored.
//
// # Fees
//
// Maker and taker rates come from a tier table (DefaultFeeTiers) by the
// user's 30-day volume in USDT (every pair's trades, each valued at the
// lower of its quote amount and its base at the reference price, so a
// self-trade far from the market buys no tier; tradeVolume), kept in daily
// items per user spread over volumeShards items, less FeeCoinDiscount
// while the user's update_fee_coin_open switch is on. The rates are fixed
// on the order when it is placed (the command carries them). The engine
// takes fees in the coin the user receives (base for a buyer, quote for a
// seller), rounded up to 8 decimals and never more than the amount, into
// the engine's fee account (ledger.EngineFeeAccount).
//
// # Storage layout
//
// See the constants in order.go: orders (history in gsi1, open orders in
// gsi2 while open), clientOrderId mappings, trade rows per order (a user's
// trades in gsi1), daily volumes and each pair's marks.
//
// Order statuses: 1 NEW, 2 PARTIALLY_FILLED, 3 FILLED, 4 CANCELLED (also an
// IOC, FOK or market remainder, or self-trade prevention; partly filled
// orders keep their deal volume), 5 REJECTED (post-only that would take, a
// stop that would trigger at once, a market order by volume worth less
// than the pair's minimum value at the best opposite price).
package spot
