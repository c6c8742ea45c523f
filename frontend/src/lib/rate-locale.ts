/** The valuation locale of a currency (spec §1: MNT uses the mn_MN rates, any other currency the en_US ones). */
export function rateLocale(currency: string): 'mn_MN' | 'en_US' {
  const c = currency.toUpperCase()
  return c === 'MNT' || c === 'MONT' ? 'mn_MN' : 'en_US'
}
