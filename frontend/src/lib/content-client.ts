import { getConfig } from './config'

/**
 * Client of the headless content service (spec §7 Content): one GraphQL query
 * per page id and locale, answering a JSON object of text keys.
 */

/** Page texts: text keys, nesting allowed. */
export type Translations = { [key: string]: string | Translations }

/** The content locales; en-US is the default. */
export const DEFAULT_CONTENT_LOCALE = 'en-US'

export const PAGE_QUERY =
  'query($id:String!,$locale:String!){ page(id:$id, locale:$locale){ id locale translations } }'

export const UNKNOWN_TRANSPORT_ERROR = 'Unknown transport error'

/** Content locale from a lan cookie value: the underscore becomes a hyphen; en-US when absent. */
export function toContentLocale(lan?: string | null): string {
  if (!lan) return DEFAULT_CONTENT_LOCALE
  return lan.replace('_', '-')
}

function isTranslations(value: unknown): value is Translations {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Options for {@link fetchPageTexts}. */
export interface FetchPageOptions {
  endpoint?: string
  fetchImpl?: typeof fetch
  signal?: AbortSignal
}

/**
 * Fetches one page's texts. Rejects with Error for an empty id, with the first
 * server error message when the service answers errors, and with 'Unknown
 * transport error' when the answer cannot be read at all.
 */
export async function fetchPageTexts(id: string, locale: string, options: FetchPageOptions = {}): Promise<Translations> {
  if (id.trim() === '') throw new Error('Page id must not be empty')
  const endpoint = options.endpoint ?? getConfig().content
  const fetchImpl = options.fetchImpl ?? fetch
  let payload: unknown
  try {
    const res = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ query: PAGE_QUERY, variables: { id, locale } }),
      signal: options.signal,
    })
    payload = await res.json()
  } catch {
    throw new Error(UNKNOWN_TRANSPORT_ERROR)
  }
  if (!isTranslations(payload)) throw new Error(UNKNOWN_TRANSPORT_ERROR)
  const errors = (payload as { errors?: unknown }).errors
  if (Array.isArray(errors) && errors.length > 0) {
    const first = errors[0] as { message?: unknown }
    throw new Error(typeof first?.message === 'string' && first.message ? first.message : UNKNOWN_TRANSPORT_ERROR)
  }
  const data = (payload as { data?: { page?: unknown } }).data
  const page = data?.page as { translations?: unknown } | null | undefined
  if (!page) throw new Error(UNKNOWN_TRANSPORT_ERROR)
  let translations = page.translations
  if (typeof translations === 'string') {
    try {
      translations = JSON.parse(translations)
    } catch {
      throw new Error(UNKNOWN_TRANSPORT_ERROR)
    }
  }
  // A list of translations: the first one is used (spec §7).
  if (Array.isArray(translations)) translations = translations[0]
  if (!isTranslations(translations)) throw new Error(UNKNOWN_TRANSPORT_ERROR)
  return translations
}
