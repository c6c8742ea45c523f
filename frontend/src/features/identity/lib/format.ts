import { formatAtLeast } from '@/lib/decimal'

/**
 * A USDT amount of a limit as the pages show it: grouped, with the decimals
 * it has and no more ('100000' → '100,000', '12.50' → '12.5'); '—' when the
 * answer carried none.
 */
export function formatUsdt(value: string | undefined): string {
  const text = formatAtLeast(value, 0)
  return text === '--' ? '—' : text
}
