import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useSyncExternalStore } from 'react'
import { toContentLocale } from '@/lib/content-client'
import { getLanguage, getRawLanguage } from '@/lib/cookies'
import { interpolate, lookup, pageTextsQuery, type TranslateFn } from '@/lib/i18n'
import {
  bundledCorporateTexts,
  corporateBundleLocale,
  corporateContentLan,
  corporatePage,
  corporateTextsVersion,
  isCorporateTextsLoaded,
  loadCorporateTextsFor,
  subscribeCorporateTexts,
} from './texts-loader'

/**
 * Texts of corporate verification: six content pages, the general one
 * ('corporateVerification') and one per step ('corporateVerificationStep1'
 * … 'Step5'), spec §2. Only these lazily loaded pages show them, so their
 * bundled copies are not part of the first load (lib/texts-*.ts leave the
 * files out): each locale's files are chunks of their own, loaded when
 * the pages' code first asks for them (the pages show their skeleton
 * until they are in).
 *
 * Spec §5: these texts fall back to en-US when the language is zh-CN. The
 * content service does so for page ids starting with corporateVerification
 * (internal/content/locale.go), and so does the bundled copy here: the
 * content query sends the lan cookie as it is (zh_CN becomes zh-CN), and the
 * bundled locale of zh_CN is en-US, where every other page's is mn-MN.
 */

export {
  CORPORATE_PAGES,
  corporateBundleLocale,
  corporateContentLan,
  corporatePage,
  isChinese,
  loadCorporateTexts,
  loadCorporateTextsFor,
  type CorporatePage,
} from './texts-loader'

/** Result of {@link useCorporateTexts}. */
export interface CorporateTexts {
  t: TranslateFn
  /** The app's language (en_US or mn_MN), for dates and country names. */
  lan: string
  /** The content locale the texts are asked in (zh-CN for Chinese). */
  contentLocale: string
  /** The bundled texts of the reader's locale are in (until then the pages show their skeleton). */
  ready: boolean
}

/**
 * `t` for one corporate verification page (0 or none: the general page;
 * 1–5 a step's): the content service's texts, then the bundled locale, then
 * bundled en-US, so a key always resolves.
 */
export function useCorporateTexts(step?: number): CorporateTexts {
  const page = corporatePage(step)
  const raw = getRawLanguage()
  const contentLan = corporateContentLan(raw)
  const locale = corporateBundleLocale(raw)
  const current = useSyncExternalStore(subscribeCorporateTexts, corporateTextsVersion, corporateTextsVersion)
  const { data: server } = useQuery(pageTextsQuery(page, contentLan))
  useEffect(() => {
    void loadCorporateTextsFor(raw).catch(() => undefined)
  }, [raw])
  const t = useCallback<TranslateFn>(
    (key, vars) => {
      const value =
        lookup(server, key) ?? lookup(bundledCorporateTexts(locale, page), key) ?? lookup(bundledCorporateTexts('en-US', page), key)
      if (value === undefined) {
        if (import.meta.env.DEV) console.warn(`missing text ${page}:${key}`)
        return ''
      }
      return interpolate(value, vars)
    },
    // `current` changes when a locale's texts arrive, so `t` does too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [server, locale, page, current],
  )
  return { t, lan: getLanguage(), contentLocale: toContentLocale(contentLan), ready: isCorporateTextsLoaded(locale) }
}
