import { useEffect, useRef } from 'react'
import { fixed } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import type { TradePair } from '../api/trade-api'

/**
 * The browser tab's title on the trade page: the last price at the pair's
 * places, grouped as on the page, then the pair ('64,210.50 | BTC/USDT |
 * Tenger'); undefined without a price (the page's own title stays).
 */
export function priceTitle(price: string | undefined, pair: Pick<TradePair, 'showName' | 'pricePrecision'>, t: TranslateFn): string | undefined {
  const shown = fixed(price, pair.pricePrecision)
  return shown === '—' ? undefined : t('header.tabTitle', { price: shown, pair: pair.showName })
}

/** The title this page wants (undefined: the page's own), what it last wrote, and the title to give back. */
interface TitleState {
  wanted?: string
  written?: string
  base: string
}

/**
 * The mounted users of the hook, oldest first: only the newest writes the
 * title (two writers watching the title would write over each other forever).
 */
const owners: TitleState[] = []

/**
 * Brings the document's title in line with the newest owner: a title someone
 * else wrote (not the last one written here) becomes the one to give back;
 * the wanted title, else that one, is then written when it is not already
 * shown (only a change is written: the observer sees every write).
 */
function syncTitle(): void {
  const state = owners[owners.length - 1]
  if (!state) return
  const current = document.title
  if (current !== state.written) state.base = current
  const next = state.wanted ?? state.base
  if (current !== next) document.title = next
  state.written = state.wanted === undefined ? undefined : next
}

let observer: MutationObserver | undefined

/**
 * Shows the pair's live price in the browser tab's title while mounted (the
 * trade header) and gives the page's title back when unmounted.
 *
 * The app layout writes each page's title (page-meta) in an effect that runs
 * after this one whenever the address changes (a parent's effects run after
 * its children's), e.g. when the pair is switched without a page load. So the
 * title is watched: a title written by anyone else becomes the one to give
 * back, and the price title is written over it again.
 */
export function usePriceTitle(pair: Pick<TradePair, 'showName' | 'pricePrecision'>, price: string | undefined): void {
  const { t } = useTexts('trade')
  const title = priceTitle(price, pair, t)
  const state = useRef<TitleState>({ base: '' })

  useEffect(() => {
    const s = state.current
    s.base = document.title
    s.written = undefined
    owners.push(s)
    if (!observer && typeof MutationObserver !== 'undefined') {
      observer = new MutationObserver(syncTitle)
      observer.observe(document.head, { childList: true, subtree: true, characterData: true })
    }
    return () => {
      const top = owners[owners.length - 1] === s
      owners.splice(owners.indexOf(s), 1)
      if (top && s.written !== undefined && document.title === s.written) document.title = s.base
      s.written = undefined
      s.wanted = undefined
      if (owners.length === 0) {
        observer?.disconnect()
        observer = undefined
      } else if (top) syncTitle()
    }
  }, [])

  useEffect(() => {
    state.current.wanted = title
    syncTitle()
  }, [title])
}
