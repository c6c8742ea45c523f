import { describe, expect, it } from 'vitest'
import { getBundledTexts } from '@/lib/bundled-texts'
import { lookup } from '@/lib/i18n'
import { MENU_SECTIONS, menuHref } from './menu-items'

describe('product menus', () => {
  it('lists markets, trade, futures, P2P, earn and more in order; the second title has no link', () => {
    expect(MENU_SECTIONS.map((s) => s.id)).toEqual(['markets', 'trade', 'futures', 'p2p', 'earn', 'more'])
    expect(MENU_SECTIONS[1].link).toBeUndefined()
  })

  it('sends futures links other than the competition to /maintenance while futures are not live', () => {
    const futures = MENU_SECTIONS.find((s) => s.id === 'futures')!
    const closed = futures.items.map((item) => [item.id, menuHref(item, { futuresLive: false })])
    expect(closed).toEqual([
      ['futures-usdt', '/maintenance'],
      ['futures-guide', '/maintenance'],
      ['futures-competition', '/futureBonus'],
    ])
    const live = futures.items.map((item) => menuHref(item, { futuresLive: true }))
    expect(live).toEqual(['/futures/BTCUSDT', '/futures/guide', '/futureBonus'])
  })

  it('never redirects other links, except capabilities not built yet (margin, grid) to their maintenance page', () => {
    for (const section of MENU_SECTIONS.filter((s) => s.id !== 'futures')) {
      for (const item of section.items.filter((i) => !i.notLive)) expect(menuHref(item, { futuresLive: false })).toBe(item.link)
    }
    const trade = MENU_SECTIONS.find((s) => s.id === 'trade')!
    expect(trade.items.map((item) => [item.id, menuHref(item, { futuresLive: true })])).toEqual([
      ['spot', '/trade/BTC_USDT'],
      ['margin', '/maintenance?area=margin'],
      ['grid', '/maintenance?area=grid'],
    ])
  })

  it('has a label and a description in both languages for every item', () => {
    for (const locale of ['en-US', 'mn-MN']) {
      const texts = getBundledTexts('navbar', locale)
      for (const section of MENU_SECTIONS) {
        expect(lookup(texts, `menu.${section.id}`), `${locale} menu.${section.id}`).toBeTruthy()
        for (const item of section.items) {
          expect(lookup(texts, item.textKey), `${locale} ${item.textKey}`).toBeTruthy()
          expect(lookup(texts, `${item.textKey}Desc`), `${locale} ${item.textKey}Desc`).toBeTruthy()
        }
      }
    }
  })
})
