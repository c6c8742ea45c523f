import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'

/**
 * The rate tables of spec §1 and §7 (rateData, POST /fe-ex-api/common/rate):
 * per locale (en_US in USD, mn_MN in MNT) the price of one unit of each coin
 * and the currency sign (lang_logo). The wallet values balances with the same
 * tables; the market list shows each pair's price in the chosen currency.
 */
export const RATES_PATH = '/fe-ex-api/common/rate'

/** One locale's table: coin code -> price as a decimal string, plus lang_logo. */
export type RateTable = Record<string, string>

/** Rate tables by locale (en_US, mn_MN). */
export type RateTables = Record<string, RateTable>

/** Reads the tables defensively: a locale's table keeps its string values only. */
export function parseRates(data: unknown): RateTables {
  const out: RateTables = {}
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return out
  for (const [locale, table] of Object.entries(data)) {
    if (typeof table !== 'object' || table === null || Array.isArray(table)) continue
    out[locale] = Object.fromEntries(Object.entries(table).filter((e): e is [string, string] => typeof e[1] === 'string'))
  }
  return out
}

/** The rates follow the reference prices; the list reads them again every minute. */
export const RATES_REFRESH_MS = 60_000

/** Query options of the rate tables; a failure is not toasted (the fiat column shows '—'). */
export const ratesQuery = queryOptions({
  queryKey: ['market', 'rates'],
  queryFn: async ({ signal }) => parseRates(await apiData(RATES_PATH, {}, { silent: true, signal })),
  staleTime: RATES_REFRESH_MS,
  refetchInterval: RATES_REFRESH_MS,
  retry: 1,
})
