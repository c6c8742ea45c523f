import { useQuery } from '@tanstack/react-query'
import { getCurrency } from '@/lib/cookies'
import { getRates, walletKeys } from '../api/wallet-api'
import { valueInCurrency } from '../lib/format'

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
