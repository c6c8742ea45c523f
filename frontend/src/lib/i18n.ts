import { queryOptions, useQuery } from '@tanstack/react-query'
import { useCallback } from 'react'
import { getBundledTexts, toBundleLocale } from './bundled-texts'
import { fetchPageTexts, toContentLocale, type Translations } from './content-client'
import { getLanguage, type Language } from './cookies'

/**
 * Page texts for components: server texts from the content service layered
 * over the bundled copy of the same files, so a key always resolves.
 */

/** Looks up a dotted key ('hero.title') in nested translations. */
export function lookup(texts: Translations | undefined, key: string): string | undefined {
  if (!texts) return undefined
  const direct = texts[key]
  if (typeof direct === 'string') return direct
  let node: string | Translations | undefined = texts
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

/** Replaces {name} placeholders with values. */
export function interpolate(template: string, vars?: Record<string, string | number>): string {
  if (!vars) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

/** Translate function returned by {@link useTexts}. */
export type TranslateFn = (key: string, vars?: Record<string, string | number>) => string

/** Resolves a key: server texts, then the bundled locale, then bundled en-US. */
export function translate(
  page: string,
  lan: string,
  server: Translations | undefined,
  key: string,
  vars?: Record<string, string | number>,
): string {
  const value =
    lookup(server, key) ??
    lookup(getBundledTexts(page, toBundleLocale(lan)), key) ??
    lookup(getBundledTexts(page, 'en-US'), key)
  if (value === undefined) {
    if (import.meta.env.DEV) console.warn(`missing text ${page}:${key}`)
    return ''
  }
  return interpolate(value, vars)
}

/** TanStack Query options for one page's texts. */
export function pageTextsQuery(page: string, lan: string = getLanguage()) {
  const locale = toContentLocale(lan)
  return queryOptions({
    queryKey: ['page-texts', page, locale],
    queryFn: ({ signal }) => fetchPageTexts(page, locale, { signal }),
    staleTime: 10 * 60 * 1000,
    gcTime: Infinity,
    retry: 1,
    refetchOnWindowFocus: false,
  })
}

/** Result of {@link useTexts}. */
export interface UseTextsResult {
  t: TranslateFn
  lan: Language
  isLoading: boolean
}

/**
 * Texts of a content page (home, navbar, footer, login ...). `t('a.b')`
 * returns the text for the current lan cookie, never the raw key.
 */
export function useTexts(page: string): UseTextsResult {
  const lan = getLanguage()
  const query = useQuery(pageTextsQuery(page, lan))
  const server = query.data
  const t = useCallback<TranslateFn>((key, vars) => translate(page, lan, server, key, vars), [page, lan, server])
  return { t, lan, isLoading: query.isLoading }
}
