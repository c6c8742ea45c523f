// Package engine is the exchange's single writer of every balance an order
// can hold: one deterministic state machine (State) behind a journal, in
// the manner of LMAX and exchange-core.
//
// # Pipeline
//
// Commands (Command: orders, and money commands idempotent by their Ref)
// are submitted concurrently; the runtime (Engine) applies them in groups
// (internal/combine), and for each command:
//
//	sequence (Seq) → R1 (risk: hold what an order can spend, or refuse it)
//	→ the pair's book (internal/matching) → R2 (risk: settle fills, release
//	holds, reading the book's events where it wrote them)
//
// then appends it to the journal (internal/engine/journal). A group is one
// fsync; its commands are answered only after it, while the next group is
// applied meanwhile. Durable groups are handed on (Deliver) in order as a
// Batch: commands, results, book events, trade fees and the final value of
// every balance the group changed, once each.
//
// # State
//
// The balances (risk.Accounts), the open orders' holds (risk.Spot), the
// books, the listed coins and pairs, the refs of the money commands applied
// (a retry with the same fields answers Exists, other fields Conflict, as
// TigerBeetle answers) and the open withdrawal holds. No I/O, no clock
// (a command's time is set by the runtime and journaled), no goroutines:
// the same commands from the same state give the same StateHash.
//
// # Perpetual futures
//
// The state also holds the futures risk stage (risk.Futures) and each
// listed contract's book (KindAddContract; a contract's symbol is never a
// pair's). Futures orders are KindPlace commands on a contract's symbol;
// transfers between the spot and futures accounts, leverage, margin mode,
// isolated margin, mark prices, liquidations and funding rounds are their
// own commands (command.go), transfers and funding idempotent by Ref. A
// book takes one command per engine sequence number, so a liquidation is
// steps of their own: KindMark answers the positions it makes
// liquidatable (State.Liquidatable; they stay in the liquidation index, so
// a mark after a restart finds them again), then KindLiquidate step 1
// cancels the user's orders in the contract and step 2 sends the
// liquidation order and hands what is left to the insurance fund or to
// auto-deleveraging. The futures account is the engine's: transfers
// between spot and futures are KindFutTransfer (spotfunds.Funds.Futures).
// A batch carries, beside the users' balances, the futures stage's own
// (BalanceState.System: the settlement balance of each margin coin, which
// may be negative, and each contract's insurance fund), the positions it
// changed (Positions), each futures trade's fees and realized PnL (Fees),
// and the positions its marks made liquidatable (Liquidatable).
//
// # Recovery
//
// Snapshot writes the state between groups (Dir/snapshots/<seq>.snap) and
// starts a new journal segment. Open restores the newest snapshot at or
// below the store projection's checkpoint (Options.Checkpoint), replays the
// journal after it, and hands the commands after the checkpoint to Deliver
// again; journal segments are deleted only once a snapshot the projection
// has passed covers them. A crash anywhere between the journal and the
// store therefore loses nothing and applies nothing twice.
//
// # Reaching the engine
//
// In `tenger serve` the order and wallet services call Submit in process.
// In AWS the engine runs as a task and the API functions reach it over a
// private endpoint (package remote: the command codec on the wire, signed
// with HMAC-SHA256 under a shared key, answers in order), so a refusal for
// funds is answered in the caller's request; one active task holds the
// lease (package lease), a standby replays the journal and takes over when
// it lapses.
//
// # The store behind (the projection)
//
// The projector (package projector, and its Runner on its own goroutine)
// turns each Batch into netted store writes, idempotent by batch, with a
// checkpoint item written last:
//
//   - one write per changed balance (BalanceState, absolute values), in the
//     ledger's balance items, which nothing else writes for engine-owned
//     accounts (users' spot and futures accounts; the fee accounts of
//     spot and futures trades; the futures settlement balances and
//     insurance funds);
//   - one posting item per batch holding the batch's legs, netted per
//     (from, to, bucket, coin), in the ledger's posting format, so the
//     ledger's audit proves store balances = postings and the external-flow
//     invariant as before; engine commands carry their counterparty and
//     display fields opaquely (the spot order's type and client id, a
//     deposit's chain account) for the projector;
//   - the latest state of each order the batch touched (spot's order item,
//     with the seq it reflects, so a replay skips what it holds) and the
//     trade rows (spot.Projection); market data gets the trades and depth
//     (spot.Publisher).
//
// Reads keep using the store and trail the acknowledgement by the
// projection lag.
package engine
