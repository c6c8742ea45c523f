import { formatCut } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { AmountProblem } from '@/features/staking/lib/amounts'

/**
 * The message of a problem with a typed amount: `errors.<kind>` of the
 * crypto cash texts, with the coin's decimals, or the limit and the coin.
 * `kinds` renames a kind for one field ('min' of the loan amount is
 * 'loanMin', of the collateral 'collateralMin').
 */
export function amountText(
  t: TranslateFn,
  problem: AmountProblem | undefined,
  places: number,
  coin: string,
  kinds: Record<string, string> = {},
): string | undefined {
  if (!problem) return undefined
  const key = kinds[problem.kind] ?? problem.kind
  if (problem.kind === 'positive' || problem.kind === 'precision') return t(`errors.${key}`, { places })
  return t(`errors.${key}`, { amount: formatCut(problem.value, places), coin })
}
