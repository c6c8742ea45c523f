// The server's own list (internal/corporate/countries.go embeds the same file).
import countryCodes from '../../../../../internal/corporate/countries.txt?raw'

/**
 * The ISO 3166-1 alpha-2 codes the server accepts (the 249 officially
 * assigned codes). Addresses and nationalities are kept as codes; the
 * pickers name them in the reader's language through Intl.DisplayNames.
 */
export const COUNTRY_CODES: readonly string[] = countryCodes.trim().split(/\s+/)

const KNOWN = new Set(COUNTRY_CODES)

/** True for a code the server accepts. */
export function isCountryCode(code: string): boolean {
  return KNOWN.has(code)
}

/** The BCP 47 language of an app language (en_US, mn_MN). */
export function displayLanguage(lan: string): string {
  return lan === 'mn_MN' ? 'mn' : 'en'
}

const namers = new Map<string, Intl.DisplayNames | null>()

/**
 * A country's name from the browser (the code itself when it cannot name
 * it). Browsers name regions only in their own interface languages, which
 * for Chrome does not include Mongolian: the pages name countries from the
 * texts (CLDR's names, countries.<code> of the general page) and use this
 * only for a code the texts lack.
 */
export function countryName(code: string, lan: string): string {
  if (!code) return ''
  const language = displayLanguage(lan)
  if (!namers.has(language)) {
    try {
      namers.set(language, new Intl.DisplayNames([language, 'en'], { type: 'region', fallback: 'code' }))
    } catch {
      namers.set(language, null)
    }
  }
  try {
    return namers.get(language)?.of(code) ?? code
  } catch {
    return code
  }
}

/** One choice of a country picker. */
export interface CountryOption {
  code: string
  name: string
}

/**
 * Every country named by nameOf, sorted by name in the language, with
 * Mongolia (the exchange's home market) first.
 */
export function countryOptions(lan: string, nameOf: (code: string) => string): CountryOption[] {
  const collator = new Intl.Collator(displayLanguage(lan))
  const rest = COUNTRY_CODES.filter((c) => c !== 'MN')
    .map((code) => ({ code, name: nameOf(code) }))
    .sort((a, b) => collator.compare(a.name, b.name))
  return [{ code: 'MN', name: nameOf('MN') }, ...rest]
}
