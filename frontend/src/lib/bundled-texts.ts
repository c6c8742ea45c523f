import type { Translations } from './content-client'

/**
 * The page texts shipped inside the build, read from the same JSON files the
 * content service loads (internal/content/texts/<locale>/<page>.json). They
 * are shown until (or when) the service answers, so the UI never shows keys.
 */

const files = import.meta.glob<Translations>('@texts/*/*.json', { eager: true, import: 'default' })

const bundle: Record<string, Record<string, Translations>> = {}
for (const [path, texts] of Object.entries(files)) {
  const match = /([A-Za-z]{2}-[A-Za-z]{2})\/([^/]+)\.json$/.exec(path)
  if (!match) continue
  const [, locale, page] = match
  ;(bundle[locale] ??= {})[page] = texts
}

/** Bundled texts of a page in a locale (empty object when absent). */
export function getBundledTexts(page: string, locale: string): Translations {
  return bundle[locale]?.[page] ?? {}
}

/** Page ids present in the bundle for a locale. */
export function bundledPages(locale: string): string[] {
  return Object.keys(bundle[locale] ?? {}).sort()
}

/** Locale of the bundled fallback: en_US is en-US, anything else mn-MN (spec §9). */
export function toBundleLocale(lan: string): 'en-US' | 'mn-MN' {
  return lan === 'en_US' ? 'en-US' : 'mn-MN'
}
