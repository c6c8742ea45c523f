// Package matching is Tenger's spot matching core: one deterministic,
// single-threaded order book per symbol, working in int64 price ticks and
// int64 quantity lots.
//
// The design follows exchange-core and gitbitex-spot: the core has three
// seams and nothing else. Commands come in (the engine process reads them
// from the queue port and assigns each a strictly increasing sequence
// number), events go out (into a caller-provided Sink, one Event at a time,
// without allocating), and the state can be written out and read back
// (Snapshot / Restore) or rebuilt by replaying the command Journal. Because
// the core has no clock, no randomness and no goroutines, replaying the same
// commands from the same snapshot yields the same events and the same
// StateHash.
//
// # Order types
//
//   - Limit GTC: takes what crosses, rests the remainder.
//   - Market (TIF must be IOC): by base quantity (Qty), or, for buys only, by
//     a quote budget (Quote, in quote units = ticks × lots, see
//     SymbolConfig.QuoteToUnits): asks are consumed level by level, buying
//     only whole lots, never spending more than the budget. A buy by
//     quantity may carry a budget too, the funds held for it: it buys at
//     most Qty lots, and if the budget runs out first the remainder ends
//     with ReasonIOCRemainder (ReasonDust when it could not buy a single
//     lot). A market order by quantity worth less than
//     MinNotional at the best opposite price is rejected with
//     ReasonBelowMinNotional (a sell cannot fetch more, a buy costs more).
//   - IOC: fills what it can, the remainder ends with ReasonIOCRemainder.
//   - FOK: fills entirely at once or ends with ReasonFOKNotFilled; nothing of
//     it ever rests and nothing trades when it cannot fill entirely.
//   - Post-only: rejected with ReasonPostOnlyWouldTake if it would take.
//   - Stop-limit (the spec's "spot limit"): a limit order with StopPrice > 0.
//     It waits outside the book until the last trade price reaches the stop
//     (buy: last >= stop; sell: last <= stop), then enters as a limit order
//     with its own TIF (GTC, IOC or FOK). A stop that would trigger at once
//     is rejected with ReasonStopWouldTrigger, so a user never gets an
//     immediate taker fill from an order they meant to wait.
//
// # Priority, amendments, self-trade prevention
//
// Makers are matched in price-time priority. Amend with the same price and
// a smaller (or equal) quantity keeps the order's place in the queue; a
// larger quantity or a new price re-queues it at the back (it may then take,
// as a taker, under its own order id). Self-trade prevention applies the
// taker's mode (or the book's default): cancel taker (default), cancel maker,
// cancel both, or decrement-and-cancel; every STP cancellation is a Done
// event with ReasonSelfTrade.
//
// # Dust
//
// Quantities are whole lots, so nothing below the lot size can exist inside
// the book. What can remain is a quantity below the book's minimum quantity:
// no order rests with such a remainder (taker remainders and partially
// filled makers end with ReasonDust), and a market buy whose remaining budget
// cannot buy a single lot at the best ask ends (ReasonFilled when something
// was bought, ReasonDust when nothing could be).
//
// # Events
//
// A Place yields Accepted or Rejected first. After Accepted come, in order,
// each fill as a Trade followed by the maker's Done when that fill (or an
// STP action) ends the maker, then the taker's Done if it does not rest.
// Cancel yields Done (or Rejected); CancelAll yields a Done per order in
// canonical order (bids best first, asks best first, then stops in trigger
// order); Amend yields Amended (or Rejected), then, when it re-queues at a
// crossing price, the same events as a taker. Stops reached by the last
// price after a command are then activated one by one (buy stops first,
// lowest stop first; sell stops highest first; ties in arrival order), each
// with Triggered followed by its taker events. Every event carries the
// command's Seq; trade ids count 1, 2, 3 ... per book.
//
// # Engine integration
//
// The engine process owns one Books (or a Book per symbol) on one
// goroutine and, for each command: assigns the next Seq, appends it to the
// Journal, calls Apply, and publishes the events (after Journal.Sync for
// the batch, so nothing published can be lost). It writes Snapshot
// periodically; on restart it calls Restore with the latest snapshot and
// replays Journal entries after the snapshot's LastSeq (Apply ignores any
// Seq it has already applied). StateHash must then equal the hash logged
// before the crash. Prices, quantities and budgets are converted from
// decimals at the edge with SymbolConfig (PlaceCommand, ToTicks, ToLots,
// QuoteToUnits), which rejects off-grid values instead of rounding them.
package matching
