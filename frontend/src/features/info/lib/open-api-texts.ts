import { useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { toBundleLocale, type BundleLocale } from '@/lib/bundled-texts'
import type { Translations } from '@/lib/content-client'
import { getLanguage } from '@/lib/cookies'
import { interpolate, lookup, pageTextsQuery, type TranslateFn } from '@/lib/i18n'

/**
 * Texts of the Open API page (content page 'openApi'). They are long and
 * only this page shows them, so the bundled copy is not part of the first
 * load (lib/texts-*.ts leave the file out): each locale's file is its own
 * chunk, loaded with the page. As with useTexts, the content service's
 * texts are layered over the bundled ones.
 */

/** Content page id of the Open API texts. */
export const OPEN_API_TEXTS_PAGE = 'openApi'

const files = import.meta.glob<Translations>('@texts/*/openApi.json', { import: 'default' })

const loaded: Partial<Record<BundleLocale, Translations>> = {}
const loading: Partial<Record<BundleLocale, Promise<void>>> = {}

function loaderOf(locale: BundleLocale): (() => Promise<Translations>) | undefined {
  return Object.entries(files).find(([path]) => path.endsWith(`/${locale}/${OPEN_API_TEXTS_PAGE}.json`))?.[1]
}

/** Loads a locale's bundled Open API texts (once; a failed load may be retried). */
export function loadOpenApiTexts(locale: BundleLocale): Promise<void> {
  loading[locale] ??= (loaderOf(locale)?.() ?? Promise.resolve({}))
    .then((texts) => {
      loaded[locale] = texts
    })
    .catch((err: unknown) => {
      delete loading[locale]
      throw err
    })
  return loading[locale]
}

/**
 * Loads the texts for a lan cookie value; en-US, the last fallback of every
 * key, follows without being waited for when another locale is active.
 */
export function loadOpenApiTextsFor(lan: string): Promise<void> {
  const locale = toBundleLocale(lan)
  const first = loadOpenApiTexts(locale)
  if (locale !== 'en-US') void first.then(() => loadOpenApiTexts('en-US')).catch(() => undefined)
  return first
}

/** Bundled Open API texts of a locale (empty until loaded). */
export function bundledOpenApiTexts(locale: BundleLocale): Translations {
  return loaded[locale] ?? {}
}

/** `t` for the Open API page: server texts, then the bundled locale, then bundled en-US. */
export function useOpenApiTexts(): { t: TranslateFn; lan: string } {
  const lan = getLanguage()
  const { data: server } = useQuery(pageTextsQuery(OPEN_API_TEXTS_PAGE, lan))
  const locale = toBundleLocale(lan)
  const t = useCallback<TranslateFn>(
    (key, vars) => {
      const value = lookup(server, key) ?? lookup(loaded[locale], key) ?? lookup(loaded['en-US'], key)
      return value === undefined ? '' : interpolate(value, vars)
    },
    [server, locale],
  )
  return { t, lan }
}
