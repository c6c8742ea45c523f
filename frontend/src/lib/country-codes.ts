/**
 * Country calling codes offered by the phone inputs. Mongolia comes first
 * because it is the exchange's home market; the rest are the countries its
 * users most often hold numbers from.
 */

/** One choice of the country code select. */
export interface CountryCode {
  /** Calling code without '+', as the API expects it ('976'). */
  code: string
  /** ISO 3166-1 alpha-2 country. */
  iso: string
  /** English country name (the select shows the code and the name). */
  name: string
}

export const COUNTRY_CODES: readonly CountryCode[] = [
  { code: '976', iso: 'MN', name: 'Mongolia' },
  { code: '86', iso: 'CN', name: 'China' },
  { code: '7', iso: 'RU', name: 'Russia' },
  { code: '82', iso: 'KR', name: 'South Korea' },
  { code: '81', iso: 'JP', name: 'Japan' },
  { code: '1', iso: 'US', name: 'United States' },
  { code: '44', iso: 'GB', name: 'United Kingdom' },
  { code: '49', iso: 'DE', name: 'Germany' },
  { code: '61', iso: 'AU', name: 'Australia' },
  { code: '7', iso: 'KZ', name: 'Kazakhstan' },
  { code: '65', iso: 'SG', name: 'Singapore' },
  { code: '852', iso: 'HK', name: 'Hong Kong' },
  { code: '90', iso: 'TR', name: 'Turkey' },
  { code: '971', iso: 'AE', name: 'United Arab Emirates' },
]

/** The default country code of the phone inputs. */
export const DEFAULT_COUNTRY_CODE = '976'

/** Formats a stored phone for display: '+976 8811 2233'. */
export function formatPhone(countryCode: string | undefined, number: string | undefined): string {
  if (!number) return ''
  const grouped = number.length === 8 ? `${number.slice(0, 4)} ${number.slice(4)}` : number
  return countryCode ? `+${countryCode} ${grouped}` : grouped
}

/** Masks the middle of a phone number for hints: '+976 88****33'. */
export function maskPhone(countryCode: string | undefined, number: string | undefined): string {
  if (!number) return ''
  const masked = number.length > 4 ? `${number.slice(0, 2)}${'*'.repeat(number.length - 4)}${number.slice(-2)}` : number
  return countryCode ? `+${countryCode} ${masked}` : masked
}
