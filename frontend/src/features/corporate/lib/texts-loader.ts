import { toBundleLocale, type BundleLocale } from '@/lib/bundled-texts'
import type { Translations } from '@/lib/content-client'
import { getLanguage, getRawLanguage } from '@/lib/cookies'

/**
 * The bundled texts of corporate verification and their loading (the hook
 * is texts.ts, which says which pages and the zh-CN rule). Like the pages,
 * they are not part of the first load: the pages' code loads them.
 */

/** The content page ids. */
export const CORPORATE_PAGES = [
  'corporateVerification',
  'corporateVerificationStep1',
  'corporateVerificationStep2',
  'corporateVerificationStep3',
  'corporateVerificationStep4',
  'corporateVerificationStep5',
] as const
export type CorporatePage = (typeof CORPORATE_PAGES)[number]

/** The page of a step's texts (0 or none: the general page). */
export function corporatePage(step?: number): CorporatePage {
  return step && step >= 1 && step <= 5 ? (`corporateVerificationStep${step}` as CorporatePage) : 'corporateVerification'
}

/** True for a lan cookie value meaning Chinese (zh_CN, zh-CN, any case). */
export function isChinese(lan: string | undefined): boolean {
  return !!lan && /^zh[-_]cn$/i.test(lan.trim())
}

/**
 * The bundled locale of these pages for a raw lan cookie value: en-US for
 * zh-CN (spec §5), otherwise the app's own (en_US is en-US, the rest mn-MN;
 * a value the app does not know counts as en_US, as everywhere).
 */
export function corporateBundleLocale(rawLan: string | undefined): BundleLocale {
  if (isChinese(rawLan)) return 'en-US'
  return toBundleLocale(knownLanguage(rawLan))
}

/**
 * The lan value the content query is made with: zh_CN as it is (the
 * service answers these pages in en-US for it), otherwise the app's
 * language.
 */
export function corporateContentLan(rawLan: string | undefined): string {
  return isChinese(rawLan) ? 'zh_CN' : knownLanguage(rawLan)
}

function knownLanguage(rawLan: string | undefined): string {
  return rawLan === 'mn_MN' || rawLan === 'en_US' ? rawLan : getLanguage()
}

const files = import.meta.glob<Translations>('@texts/*/corporateVerification*.json', { import: 'default' })

const loaded: Partial<Record<BundleLocale, Partial<Record<CorporatePage, Translations>>>> = {}
const loading: Partial<Record<BundleLocale, Promise<void>>> = {}
const listeners = new Set<() => void>()
let version = 0

/** Subscribes to the arrival of a locale's texts (for useSyncExternalStore). */
export function subscribeCorporateTexts(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Changes whenever a locale's texts arrive. */
export function corporateTextsVersion(): number {
  return version
}

function loaderOf(locale: BundleLocale, page: CorporatePage): (() => Promise<Translations>) | undefined {
  return Object.entries(files).find(([path]) => path.endsWith(`/${locale}/${page}.json`))?.[1]
}

/** Loads a locale's bundled texts of the six pages (once; a failed load may be retried). */
export function loadCorporateTexts(locale: BundleLocale): Promise<void> {
  loading[locale] ??= Promise.all(CORPORATE_PAGES.map(async (page) => [page, (await loaderOf(locale, page)?.()) ?? {}] as const))
    .then((pages) => {
      loaded[locale] = Object.fromEntries(pages)
      version++
      listeners.forEach((listener) => listener())
    })
    .catch((err: unknown) => {
      delete loading[locale]
      throw err
    })
  return loading[locale]
}

/**
 * Loads the texts for a lan cookie value; en-US, the last fallback of
 * every key, follows without being waited for.
 */
export function loadCorporateTextsFor(rawLan: string | undefined = getRawLanguage()): Promise<void> {
  const locale = corporateBundleLocale(rawLan)
  const first = loadCorporateTexts(locale)
  if (locale !== 'en-US') void first.then(() => loadCorporateTexts('en-US')).catch(() => undefined)
  return first
}

/** True once a locale's bundled texts are in. */
export function isCorporateTextsLoaded(locale: BundleLocale): boolean {
  return loaded[locale] !== undefined
}

/** Bundled texts of a page in a locale (empty until loaded). */
export function bundledCorporateTexts(locale: BundleLocale, page: CorporatePage): Translations {
  return loaded[locale]?.[page] ?? {}
}
