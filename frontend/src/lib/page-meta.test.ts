import { describe, expect, it } from 'vitest'
import { applyPageMeta, pageMeta, pageMetaKey } from './page-meta'

describe('page meta key per first path segment', () => {
  it.each([
    ['/', {}, 'default'],
    ['/market', {}, 'market'],
    ['/auth/login', {}, 'login'],
    ['/auth/register', {}, 'register'],
    ['/auth/forgot-password', {}, 'default'],
    ['/trade/BTC_USDT', {}, 'spot'],
    ['/trade/BTC_USDT', { type: 'margin' }, 'margin'],
    ['/trade/BTC_USDT', { type: 2 }, 'margin'],
    ['/futures/BTCUSDT', {}, 'futures'],
    ['/staking', {}, 'staking'],
    ['/savings/flexible', {}, 'savings'],
    ['/launchpad', {}, 'launchpad'],
    ['/taskCenter', {}, 'taskCenter'],
    ['/p2p/trading', {}, 'p2p'],
    ['/wallet', {}, 'default'],
    ['/order/spot', { tab: 'history' }, 'orders'],
  ] as const)('%s %o -> %s', (path, search, key) => {
    expect(pageMetaKey(path, search)).toBe(key)
  })
})

describe('page meta texts', () => {
  it('has a title and description in both languages for every key', () => {
    const paths = ['/', '/market', '/auth/login', '/auth/register', '/trade/X', '/futures/X', '/staking', '/savings', '/launchpad', '/taskCenter', '/p2p', '/order/spot']
    for (const lan of ['en_US', 'mn_MN']) {
      const titles = new Set<string>()
      for (const path of paths) {
        const meta = pageMeta(path, {}, lan)
        expect(meta.title, `${lan} ${path}`).not.toBe('')
        expect(meta.description, `${lan} ${path}`).not.toBe('')
        titles.add(meta.title)
      }
      expect(titles.size).toBe(paths.length)
    }
    expect(pageMeta('/market', {}, 'en_US').title).toContain('Markets')
    expect(pageMeta('/market', {}, 'mn_MN').title).toContain('Зах зээл')
    expect(pageMeta('/trade/BTC_USDT', { type: 'margin' }, 'en_US').title).toContain('Margin')
  })

  it('writes the document title and description', () => {
    applyPageMeta({ title: 'T1', description: 'D1' })
    expect(document.title).toBe('T1')
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('D1')
    applyPageMeta({ title: 'T2', description: 'D2' })
    expect(document.querySelectorAll('meta[name="description"]').length).toBe(1)
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('D2')
  })
})
