import { describe, expect, it } from 'vitest'
import { getBundledTexts } from '@/lib/bundled-texts'
import { lookup } from '@/lib/i18n'
import type { Translations } from '@/lib/content-client'

function keys(texts: Translations, prefix = ''): string[] {
  return Object.entries(texts).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)))
}

describe('wallet texts', () => {
  it('has every key in both languages', () => {
    expect(keys(getBundledTexts('wallet', 'mn-MN')).sort()).toEqual(keys(getBundledTexts('wallet', 'en-US')).sort())
  })

  it('mn_MN: the wallet names a deposit one way (Орлого), as its modals and history do', () => {
    const wallet = getBundledTexts('wallet', 'mn-MN')
    expect(lookup(wallet, 'actions.deposit')).toBe('Орлого')
    expect(lookup(getBundledTexts('walletModals', 'mn-MN'), 'deposit.title')).toBe('Орлого')
    expect(lookup(getBundledTexts('history', 'mn-MN'), 'tabs.deposit')).toBe('Орлого')
    for (const page of ['wallet', 'walletModals']) {
      expect(JSON.stringify(getBundledTexts(page, 'mn-MN'))).not.toMatch(/[Цц]энэглэ/)
    }
  })
})
