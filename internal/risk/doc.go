// Package risk is the engine's risk stage: the balances orders trade
// against, held in memory, and the checks and settlements around the
// matching books (the R1 / ME / R2 pipeline of exchange-core).
//
//   - Accounts holds every engine-owned balance in dense arrays, keyed by
//     user slot, account kind (spot now; margin and futures as they land)
//     and coin, in int64 engine units (10^-Decimals of the coin; 8 decimals
//     for most coins, more where a chain needs them). Available and held
//     amounts never go negative: a failing Hold or Debit changes nothing,
//     and a broken invariant (releasing more than is held) panics.
//   - Spot is R1 and R2 of spot trading. Place holds what a new order can
//     spend (a sell its base, a limit buy price × quantity, a market buy its
//     budget) before the command reaches the book, or refuses it
//     (Insufficient, the API's CodeTradeInsufficient); Amend holds more for
//     an order that grows. As the book's matching.Sink, it settles every
//     trade (the buyer pays the quote amount from its hold and receives the
//     base less its fee; the seller the other way round; fees, rounded up
//     to 8 decimals and never above the amount, go to the fee account),
//     releases what an order's hold has left when it ends, and what an
//     amended order no longer needs.
//   - Futures is R1 and R2 of perpetual futures on the same accounts'
//     futures kind: an order holds its initial margin and taker fee; fills
//     open, add to, reduce or turn positions (isolated or cross, with a
//     leverage per contract), realize PnL against a settlement balance,
//     pay fees; the mark price keeps each contract's liquidation index
//     (internal/perp) and answers the positions a tick makes liquidatable,
//     which LiquidationOrder (IOC at the bankruptcy price, the liquidation
//     fee to the insurance fund) and TakeOver (the rest to the fund's
//     account at that price, or, with the fund at its floor, to the most
//     profitable opposite positions by auto-deleveraging) liquidate;
//     funding rounds pay between longs and shorts. Not yet in the engine's state or snapshots: the futures
//     commands come with the futures issue.
//   - Snapshot, RestoreSpot and StateHash write, read and hash the state in
//     one canonical encoding, so an engine restored from a snapshot and
//     replaying the journal after it hashes equal to one that never stopped.
//
// It has no clock, no I/O and no goroutines, like the matching core: the
// same commands from the same state give the same state.
// BenchmarkWorkload1MWithRisk runs the matching benchmark's flow through
// R1, the book and R2 (the goal: 10M commands a second on one core, no
// allocations).
package risk
