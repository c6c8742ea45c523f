import type { Translations } from './content-client'

/**
 * The page texts shipped inside the build, read from the same JSON files the
 * content service loads (internal/content/texts/<locale>/<page>.json). They
 * are shown until (or when) the service answers, so the UI never shows keys.
 *
 * Each locale is its own chunk: the first load carries only the active
 * locale's (main.tsx awaits loadBundledTexts before the first render; a
 * language change reloads the page). en-US, the last fallback of every key,
 * follows after the first render when another locale is active.
 */

export type BundleLocale = 'en-US' | 'mn-MN'

const loaders: Record<BundleLocale, () => Promise<{ default: Record<string, Translations> }>> = {
  'en-US': () => import('./texts-en-US'),
  'mn-MN': () => import('./texts-mn-MN'),
}

const bundle: Partial<Record<BundleLocale, Record<string, Translations>>> = {}
const loading: Partial<Record<BundleLocale, Promise<void>>> = {}

/** Loads a locale's bundled texts (once); later calls share the first. */
export function loadBundledTexts(locale: BundleLocale): Promise<void> {
  loading[locale] ??= loaders[locale]().then((mod) => {
    const pages: Record<string, Translations> = {}
    for (const [path, texts] of Object.entries(mod.default)) {
      const match = /\/([^/]+)\.json$/.exec(path)
      if (match) pages[match[1]] = texts
    }
    bundle[locale] = pages
  })
  return loading[locale]
}

/** Bundled texts of a page in a locale (empty object when absent or not loaded yet). */
export function getBundledTexts(page: string, locale: string): Translations {
  return bundle[locale as BundleLocale]?.[page] ?? {}
}

/** Page ids present in the bundle for a locale (once loaded). */
export function bundledPages(locale: string): string[] {
  return Object.keys(bundle[locale as BundleLocale] ?? {}).sort()
}

/** Locale of the bundled fallback: en_US is en-US, anything else mn-MN (spec §9). */
export function toBundleLocale(lan: string): BundleLocale {
  return lan === 'en_US' ? 'en-US' : 'mn-MN'
}
