import { dec, plain } from '@/features/staking/lib/amounts'
import { cmpDec, divDec, formatDec, mulDec, roundDec, subDec, type Dec } from '@/lib/decimal'
import type { LoanConfig, LoanView } from '../api/crypto-cash-api'

/**
 * The figures of crypto loans, worked out as the exchange does (internal/earn
 * loan.go): LTV = (principal + interest) ÷ (collateral × index price); the
 * collateral a loan needs is amount ÷ (price × initial LTV), rounded up to
 * the collateral coin's unit; the liquidation price is debt ÷ (collateral ×
 * liquidation LTV). Exact decimal arithmetic on strings.
 */

/** a − b, at least 0. */
function subDecFloor0(a: Dec, b: Dec): Dec {
  const d = subDec(a, b)
  return d.units > 0n ? d : { units: 0n, scale: d.scale }
}

/** The three LTV thresholds in percent ('65', '75', '83'). */
export interface Thresholds {
  initial: string
  marginCall: string
  liquidation: string
}

/** A fraction as a percentage without trailing zeros ('0.65' → '65', '0.025' → '2.5'). */
export function fractionPercent(fraction: string): string {
  const text = plain(roundDec(mulDec(dec(fraction), { units: 100n, scale: 0 }), 4))
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

/** The settings' LTV fractions as percentages. */
export function thresholdsOf(config: Pick<LoanConfig, 'initialLTV' | 'marginCallLTV' | 'liquidationLTV'>): Thresholds {
  return { initial: fractionPercent(config.initialLTV), marginCall: fractionPercent(config.marginCallLTV), liquidation: fractionPercent(config.liquidationLTV) }
}

/**
 * The LTV in percent, rounded half up to 2 decimals ('64.99'): debt ÷
 * (collateral × price) × 100; '' when the collateral is worth nothing.
 */
export function ltvPercent(debt: string, collateral: string, price: string): string {
  const value = mulDec(dec(collateral), dec(price))
  if (value.units <= 0n) return ''
  const q = divDec(mulDec(dec(debt), { units: 100n, scale: 0 }), value, 6)
  return q ? formatDec(roundDec(q, 2), 2) : ''
}

/** Where an LTV stands against the thresholds. */
export type LtvZone = 'safe' | 'warning' | 'marginCall' | 'liquidation'

/**
 * The zone of an LTV (percent): up to the initial LTV safe; above it a
 * warning (no collateral can be taken back); from the margin-call LTV a
 * margin call; from the liquidation LTV liquidation.
 */
export function ltvZone(ltv: string, t: Thresholds): LtvZone {
  const v = dec(ltv)
  if (cmpDec(v, dec(t.liquidation)) >= 0) return 'liquidation'
  if (cmpDec(v, dec(t.marginCall)) >= 0) return 'marginCall'
  if (cmpDec(v, dec(t.initial)) > 0) return 'warning'
  return 'safe'
}

/** Rounds a ÷ b up to `places` decimals ('' when b is zero). */
function divUp(a: Dec, b: Dec, places: number): string {
  if (b.units <= 0n) return ''
  const num = a.units * 10n ** BigInt(places + b.scale)
  const den = b.units * 10n ** BigInt(a.scale)
  const q = (num + den - 1n) / den
  return formatDec({ units: q, scale: places }, places)
}

/**
 * The least collateral for a debt at an LTV (a fraction): debt ÷ (price ×
 * LTV), rounded up to the collateral coin's unit ('' without a price).
 */
export function collateralFor(debt: string, price: string, ltvFraction: string, collateralPrecision: number): string {
  return divUp(dec(debt), mulDec(dec(price), dec(ltvFraction)), collateralPrecision)
}

/**
 * The collateral's price at which the loan reaches the liquidation LTV: debt
 * ÷ (collateral × LTV), rounded half up to 8 decimals (as the server shows it).
 */
export function liquidationPrice(debt: string, collateral: string, liquidationFraction: string): string {
  const q = divDec(dec(debt), mulDec(dec(collateral), dec(liquidationFraction)), 12)
  return q && dec(collateral).units > 0n ? formatDec(roundDec(q, 8), 8) : ''
}

/**
 * The most collateral that may be taken back: what is above the collateral
 * the debt needs at the initial LTV (never below 0), in the coin's unit.
 */
export function removableCollateral(debt: string, collateral: string, price: string, initialFraction: string, collateralPrecision: number): string {
  const need = collateralFor(debt, price, initialFraction, collateralPrecision)
  if (need === '') return formatDec({ units: 0n, scale: 0 }, collateralPrecision)
  return formatDec(subDecFloor0(dec(collateral), dec(need)), collateralPrecision)
}

/** One hour's interest on a principal at a rate in percent per hour, rounded up to the coin's unit (as the server accrues it). */
export function hourInterest(principal: string, hourlyRate: string, precision: number): string {
  return divUp(mulDec(dec(principal), dec(hourlyRate)), { units: 100n, scale: 0 }, precision)
}

/**
 * What "Repay all" sends: the debt and one more hour's interest (at the
 * overdue multiple when it is overdue), so an hour's interest that accrues
 * while the payment is on its way does not leave the loan open. The server
 * takes only what is owed (an amount above the debt pays the debt).
 */
export function repayAllAmount(
  loan: Pick<LoanView, 'debt' | 'principal' | 'hourlyRate' | 'overdue'>,
  precision: number,
  overdueMultiplier = '1',
): string {
  const hour = hourInterest(loan.principal, loan.hourlyRate, precision)
  const extra = loan.overdue ? mulDec(dec(hour), dec(overdueMultiplier)) : dec(hour)
  const sum = dec(loan.debt)
  const scale = Math.max(sum.scale, extra.scale)
  const total = { units: sum.units * 10n ** BigInt(scale - sum.scale) + extra.units * 10n ** BigInt(scale - extra.scale), scale }
  return formatDec(total, precision)
}

/** How a repayment is split (interest first) and what is left owed. */
export function repaySplit(loan: Pick<LoanView, 'interest' | 'principal' | 'debt'>, amount: string, precision: number) {
  const a = dec(amount)
  const interest = dec(loan.interest)
  const payInterest = cmpDec(a, interest) < 0 ? a : interest
  const rest = subDecFloor0(a, payInterest)
  const principal = dec(loan.principal)
  const payPrincipal = cmpDec(rest, principal) < 0 ? rest : principal
  const left = subDecFloor0(subDecFloor0(dec(loan.debt), payInterest), payPrincipal)
  const f = (d: Dec) => formatDec(d, precision)
  return { interest: f(payInterest), principal: f(payPrincipal), left: f(left), full: left.units === 0n }
}
