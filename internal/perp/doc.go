// Package perp is the arithmetic of USDT-margined perpetual contracts in the
// engine's integer units, with no state, clock or I/O: what the engine's
// futures risk stage (margin checks, liquidation, funding) and the API's
// displays compute, so both get the same numbers.
//
// # Units
//
//   - Prices are in ticks of the contract's price grid (50,000.00 with a
//     0.01 tick is 5,000,000).
//   - Quantities are in contracts (a BTCUSDT contract is 0.001 BTC).
//   - Money is in the margin coin's engine units (USDT: 10^-8).
//   - TickValue is what one contract is worth per tick, in money units
//     (contract value × tick × 10^decimals; 0.001 × 0.01 × 10^8 = 1,000).
//     The catalogue refuses a contract whose TickValue is not whole.
//   - Rates (maintenance margin rates, funding rates, fees) are in 10^-8
//     (RateScale): 0.4 % is 400,000, as venues publish 8 decimals.
//
// A position keeps its Cost, the notional it was opened at (the sum of its
// fills' price × quantity × TickValue), rather than an average entry price,
// which is seldom a whole tick. Products that could pass int64 are worked
// out in 128 bits (mulDiv) and refused with ErrOverflow when the result
// itself does not fit.
//
// # Margin (Binance's USDT-M rules, REFERENCES (b))
//
//   - Maintenance = notional × MMR − cum of the notional's tier; cumₙ =
//     floorₙ × (MMRₙ − MMRₙ₋₁) + cumₙ₋₁, so maintenance is continuous across
//     tiers (NewTiers computes cum).
//   - Initial margin = notional ÷ leverage, the leverage at most the tier's.
//   - A position is liquidatable at mark x when its margin balance (the
//     wallet balance it may use plus its unrealized PnL) is at most its
//     maintenance: Liquidatable. In isolated mode the wallet balance is the
//     position's margin; in cross mode it is the account's balance less the
//     maintenance and plus the unrealized PnL of its other positions (the
//     formula's WB − TMM1 + UPNL1).
//   - LiquidationPrice is the exact boundary of Liquidatable on the tick
//     grid: for a long the highest price at which it is liquidatable, for a
//     short the lowest. It starts from the published closed form, LP =
//     (WB + cum − side × Cost) ÷ (Q × TickValue × (MMR − side)), tier by
//     tier, then steps to the exact tick with Liquidatable itself, so the
//     engine's heap key and its check never disagree. The worked example:
//     long 1 BTC at 50,000 with 5,000 margin liquidates at 45,180.72.
//   - BankruptcyPrice is where the margin balance is zero: the worst price
//     a liquidation may trade at without a loss beyond the position's
//     margin.
//
// # Funding
//
// F = P + clamp(I − P, −0.05 %, +0.05 %), within the contract's cap, where
// P is the time-weighted premium index (Σ i·Pᵢ ÷ Σ i over the interval's
// samples, each P = [max(0, impact bid − index) − max(0, index − impact
// ask)] ÷ index). A position pays or receives its value at mark × F: a
// payer's amount is rounded up and a receiver's down, so the payments never
// create money; the rounding remainder goes to the insurance fund.
//
// # Mark price
//
// Mark = median(index × (1 + last funding rate × time to funding ÷
// interval), index + moving average of (mid − index), last price).
//
// Sampler keeps a contract's 5-second samples between funding times: the
// premium (from ImpactPrice of each book side for ImpactNotional, 200 of
// the margin coin at the highest leverage) and the basis (mid − index) for
// the mark price's moving average; it answers Mark at any moment and the
// funding rate at each funding time (NextFunding: multiples of the
// interval from 00:00 UTC).
//
// # Liquidation candidates
//
// Index keeps one contract's positions in two heaps keyed by liquidation
// price (longs highest first, shorts lowest first), so a mark tick pops
// exactly the positions it makes liquidatable: O(k log n) for k liquidated
// of n, never a scan of all positions (BenchmarkMarkTick).
package perp
