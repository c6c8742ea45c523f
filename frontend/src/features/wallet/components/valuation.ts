import { useQuery } from '@tanstack/react-query'
import { getCurrency } from '@/lib/cookies'
import { getRates, walletKeys } from '../api/wallet-api'
import { compareDecimals, isPositive, multiplyDecimals, valueInCurrency, type RateTable } from '../lib/format'

/** The chosen currency and a formatter of BTC amounts in it (spec §1 valuation rule). */
export function useValuation() {
  const currency = getCurrency()
  const rates = useQuery({ queryKey: walletKeys.rates, queryFn: getRates, staleTime: 60 * 1000 })
  /**
   * The amount (BTC unless `coin` is given) in the chosen currency, '≈ $1,234.56'.
   * A holding is valued through its own coin's rate, so MNT in MNT is its
   * amount exactly (not MNT → BTC → MNT, which rounds twice).
   */
  const fiat = (amount: string | undefined, coin = 'BTC'): string => {
    const v = amount ? valueInCurrency(amount, currency, rates.data, coin) : undefined
    return v ? `≈ ${v.sign}${v.value}` : '--'
  }
  return { currency, fiat, rates: rates.data }
}

/**
 * Whether `amount` of `coin` is worth more than `limitUsdt` USDT by the rate
 * table (/common/rate, the one the valuations use): amount × rate(coin)
 * against limit × rate(USDT) in the same table, so no division rounds.
 * Undefined when no table has both rates: the server checks it then.
 */
export function exceedsInUsdt(
  amount: string,
  coin: string,
  limitUsdt: string,
  rates: Record<string, RateTable> | undefined,
): boolean | undefined {
  const code = coin.toUpperCase()
  for (const locale of ['en_US', 'mn_MN']) {
    const table = rates?.[locale]
    const rate = table?.[code]
    const usdt = table?.USDT
    if (!rate || !usdt || !isPositive(rate) || !isPositive(usdt)) continue
    const value = multiplyDecimals(amount, rate, 18)
    const limit = multiplyDecimals(limitUsdt, usdt, 18)
    if (value === '' || limit === '') continue
    return compareDecimals(value, limit) > 0
  }
  return undefined
}
