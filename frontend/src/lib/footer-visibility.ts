/**
 * Footer rule of spec §2: hidden on login, register, any trade path, any
 * wallet path, futureBonus paths and p2p paths. The wallet's withdrawal
 * address list lives at /{lan}/newAssets/addressMent (spec §2), a wallet
 * path too. The futures trading page (/futures/*) is a trade page, so it
 * has none either (the futures orders page, /order/futures, keeps it).
 */

const HIDDEN_PREFIXES = ['/auth/login', '/auth/register', '/futures']
const HIDDEN_FRAGMENTS = ['trade', 'wallet', 'newassets', 'futurebonus', 'p2p']

/** True when the footer must not be shown on this pathname. */
export function isFooterHidden(pathname: string): boolean {
  const path = pathname.toLowerCase()
  if (HIDDEN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return true
  return HIDDEN_FRAGMENTS.some((fragment) => path.includes(fragment))
}

/** Language prefix of footer links: the lan cookie value, mn_MN when absent. */
export function footerLanguage(lan: string | undefined): string {
  return lan && lan.trim() ? lan : 'mn_MN'
}

/** Prefixes a footer link path with the language code ('/about' -> '/mn_MN/about'). */
export function footerHref(path: string, lan: string | undefined): string {
  return `/${footerLanguage(lan)}${path.startsWith('/') ? path : `/${path}`}`
}
