import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useSyncExternalStore } from 'react'
import { toBundleLocale, type BundleLocale } from './bundled-texts'
import type { Translations } from './content-client'
import { getLanguage, type Language } from './cookies'
import { interpolate, lookup, pageTextsQuery, type TranslateFn } from './i18n'

/**
 * Page texts that are not part of the first load: a page shown only on its
 * own lazily loaded route keeps its bundled texts out of lib/texts-*.ts,
 * and each locale's file becomes a chunk of its own, loaded with the page
 * (the route's loader awaits {@link LazyTexts.loadFor}). As with useTexts,
 * the content service's texts are layered over the bundled ones, then the
 * bundled en-US, so a key always resolves.
 *
 * A feature names its files with a literal glob (Vite needs one):
 *
 *   const files = import.meta.glob<Translations>('@texts/*\/support.json', { import: 'default' })
 *   export const supportTexts = lazyPageTexts('support', files)
 */

/** Result of {@link LazyTexts.useTexts}. */
export interface UseLazyTextsResult {
  t: TranslateFn
  lan: Language
  /** The active locale's bundled texts are in (the route's loader waited for them). */
  ready: boolean
}

/** A lazily loaded page's texts: its loaders and its hook. */
export interface LazyTexts {
  /** Content page id (the file name without .json). */
  readonly page: string
  /** Loads a locale's bundled texts (once; a failed load may be retried). */
  load(locale: BundleLocale): Promise<void>
  /** Loads the texts for a lan cookie value; en-US, the last fallback, follows without being waited for. */
  loadFor(lan: string): Promise<void>
  /** The bundled texts of a locale (empty until loaded). */
  bundled(locale: BundleLocale): Translations
  /** `t` for the page: server texts, then the bundled locale, then bundled en-US; loads what is missing. */
  useTexts(): UseLazyTextsResult
}

/** Builds the loaders and the hook of one lazily loaded page's texts. */
export function lazyPageTexts(page: string, files: Record<string, () => Promise<Translations>>): LazyTexts {
  const loaded: Partial<Record<BundleLocale, Translations>> = {}
  const loading: Partial<Record<BundleLocale, Promise<void>>> = {}
  const listeners = new Set<() => void>()
  let version = 0

  const loaderOf = (locale: BundleLocale) =>
    Object.entries(files).find(([path]) => path.endsWith(`/${locale}/${page}.json`))?.[1]

  const load = (locale: BundleLocale): Promise<void> => {
    loading[locale] ??= (loaderOf(locale)?.() ?? Promise.resolve({}))
      .then((texts) => {
        loaded[locale] = texts
        version++
        listeners.forEach((listener) => listener())
      })
      .catch((err: unknown) => {
        delete loading[locale]
        throw err
      })
    return loading[locale]
  }

  const loadFor = (lan: string): Promise<void> => {
    const locale = toBundleLocale(lan)
    const first = load(locale)
    if (locale !== 'en-US') void first.then(() => load('en-US')).catch(() => undefined)
    return first
  }

  const subscribe = (listener: () => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  const snapshot = () => version

  function useTexts(): UseLazyTextsResult {
    const lan = getLanguage()
    const locale = toBundleLocale(lan)
    const current = useSyncExternalStore(subscribe, snapshot, snapshot)
    const { data: server } = useQuery(pageTextsQuery(page, lan))
    useEffect(() => {
      void loadFor(lan).catch(() => undefined)
    }, [lan])
    const t = useCallback<TranslateFn>(
      (key, vars) => {
        const value = lookup(server, key) ?? lookup(loaded[locale], key) ?? lookup(loaded['en-US'], key)
        return value === undefined ? '' : interpolate(value, vars)
      },
      // `current` changes when a locale's texts arrive, so `t` does too.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [server, locale, current],
    )
    return { t, lan, ready: !!loaded[locale] }
  }

  return { page, load, loadFor, bundled: (locale) => loaded[locale] ?? {}, useTexts }
}
