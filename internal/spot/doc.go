// Package spot is Tenger's spot exchange: the trading service (order entry,
// cancellation, order and trade queries), the engine process (sequencing,
// journalling and matching order commands with the matching core) and
// settlement (applying the engine's events to the ledger and the stored
// orders).
//
// # Order entry
//
// PlaceOrder validates the order against the pair's grid from the markets
// catalogue (tick, lot, minimum quantity and notional; nothing is rounded)
// and then, in ONE store transaction (a ledger posting "order:<id>" with
// extra operations): holds the funds in the user's spot account, stores the
// order with status NEW, stores the clientOrderId mapping (so a retry returns
// the first order) and writes an outbox record holding the encoded command.
// Then it sends the command to the orders queue (message group = symbol,
// DedupID = "place:<id>", Backed: the outbox record is its durable copy,
// so the local queue answers without an fsync of its own).
//
// The hold is exactly what the order can spend, because fees are taken from
// what the user receives: a limit buy holds price × volume of the quote
// coin, a market buy by quote amount holds its quoteVolume, a sell holds its
// volume of the base coin. A market buy by base quantity (volume) has no
// price to hold against: it holds everything of the quote coin the user can
// spend, at most its volume at the last trade price × MarketBuyBand (price
// protection; before the pair's first trade, at most its cost at the book's
// top price), and that hold is also its budget in the engine
// (matching.Command.Quote). It
// buys the volume or stops when the budget is spent (then it ends
// cancelled, partly filled); its end releases what it did not spend, in the
// same engine batch, so the funds are held only for the moment of the
// match. The budget is not stored as the order's quoteVolume. A market order
// by volume worth less than the pair's minimum value at the best opposite
// price is REJECTED.
//
// # Self-trade prevention
//
// An order that would trade with one of its owner's resting orders follows
// its stp (PlaceRequest.STP), or else its pair's SelfTradePrevention, or
// else cancel_taker (matching.STPMode; the core's decrement is refused, as
// it changes quantities without a trade or an amend, which settlement and
// book rebuilds would not see). The mode is resolved at entry and
// written into the command, so a journal replays the same after an operator
// changes a pair's default, and a mode other than cancel_taker is stored on
// the order ("stp") for a rebuild of the book from stored orders.
//
// # Nothing lost between the commit and the send
//
// If the API process dies after the commit and before the send, the order
// exists only in the store. The outbox record covers this: the engine sends
// every outbox record again at start and, while running, every record older
// than EngineOptions.SweepAfter. Settlement of the order's Accepted (or
// Rejected) event deletes the record. Duplicates are harmless: the engine
// sequences a place command only if the order has no "seq" attribute yet
// (set when its Accepted event is settled) and it has not sequenced it
// itself in this run. An amend has an outbox record too (amend.go); sent
// twice, the second finds the order already reduced and is refused.
//
// # Engine
//
// One goroutine (Engine.Run) receives batches of commands, gives each the
// next sequence number (one global sequence; each book ignores numbers it
// has applied), appends them to the journal and syncs it once per batch,
// applies them to the books, settles every event, publishes trades and depth
// to the market-data feed, and only then deletes the queue messages. A crash
// at any point leaves either messages that are delivered again (and skipped
// if already sequenced) or journalled commands whose events are settled
// again on restart: NewEngine restores each book's snapshot, replays the
// journal after it (re-emitting exactly the same events, as the core is
// deterministic) and settles them; settlement is idempotent. Snapshots are
// only written between batches, when every applied command is settled, so a
// restore never skips an unsettled event. Once a snapshot is durable the
// journal segments it covers are deleted (journal.go), so the journal does
// not grow without bound. Books are created for every pair of the catalogue
// at start, and a pair the operator adds while the exchange runs (the
// catalogue's watcher replaces it, markets/reload.go) gets its book before
// the engine's next batch (pairs.go), with no restart of the engine or the
// API.
//
// Without a usable journal (empty storage, a lost volume, a journal that
// does not continue its snapshots, or a snapshot older than the store),
// NewEngine rebuilds the books from the stored open orders instead, in
// their original priority and with their remaining quantities, and goes on
// sequencing after the highest stored seq (rebuild.go). Settlement keeps
// the per-symbol records this needs (open orders, last trade and seq). A
// batch's commands and events are stored before its settlement begins, and
// a rebuild settles that record again first (pending.go), so a batch that
// a crash left half settled is completed rather than rebuilt from. After a
// rebuild, market data gets the settled trades it lost back from the store
// (feedgap.go).
//
// # Amending
//
// AmendOrder reduces an open order's quantity (amend.go): it keeps its
// price and its place in the queue, and settlement of the Amended event
// releases the hold of the removed quantity ("amend:<orderId>:<seq>").
//
// # Settlement
//
// Each trade is ONE ledger posting "trade:<symbol>:<tradeId>": the buyer's
// frozen quote goes to the seller (less the seller's fee, to the fee
// account) and the seller's frozen base to the buyer (less the buyer's
// fee). The two orders' filled quantity, money and fee, the two trade rows
// and the two users' daily volume are extra operations of the same
// transaction, so a replayed trade writes nothing at all. An order's end
// (Done, or Rejected for a place) releases hold − consumed (the buyer's
// price improvement, an IOC remainder, an unspent market budget) with the
// posting "done:<orderId>" and sets the final status in the same
// transaction, conditional on the order not being finished yet.
//
// # Fees
//
// Maker and taker rates come from a tier table (DefaultFeeTiers) by the
// user's 30-day volume in USDT (every pair's trades, each valued at the
// lower of its quote amount and its base at the reference price, so a
// self-trade far from the market buys no tier; settler.volume), in daily
// items per user, added to by each trade's posting and spread over volumeShards items so that
// one user's trades can share store transactions), less FeeCoinDiscount
// while the user's update_fee_coin_open switch is on. The rates are fixed
// on the order when it is placed, so settling an event again builds the
// same posting. Fees are taken in the coin the user receives (base for a
// buyer, quote for a seller), rounded up to 8 decimals and never more than
// the amount.
//
// # Storage layout
//
// See the constants in order.go: orders (history in gsi1, open orders in
// gsi2 while open), clientOrderId mappings, outbox records per symbol, trade
// rows per order (a user's trades in gsi1) and daily volumes.
//
// Order statuses: 1 NEW, 2 PARTIALLY_FILLED, 3 FILLED, 4 CANCELLED (also an
// IOC, FOK or market remainder, or self-trade prevention; partly filled
// orders keep their deal volume), 5 REJECTED (post-only that would take, a
// stop that would trigger at once, a market order by volume worth less
// than the pair's minimum value at the best opposite price).
package spot
