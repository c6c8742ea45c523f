import { describe, expect, it } from 'vitest'
import { getBundledTexts } from '@/lib/bundled-texts'
import type { Translations } from '@/lib/content-client'
import { savingsTexts } from './texts'

function flatten(texts: Translations, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(texts).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)))),
  )
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('savings texts', () => {
  it('load with the page, in both languages, with the same keys and the same placeholders', async () => {
    await Promise.all([savingsTexts.load('en-US'), savingsTexts.load('mn-MN')])
    const en = flatten(savingsTexts.bundled('en-US'))
    const mn = flatten(savingsTexts.bundled('mn-MN'))
    expect(Object.keys(en).length).toBeGreaterThan(80)
    expect(Object.keys(mn).sort()).toEqual(Object.keys(en).sort())
    for (const key of Object.keys(en)) {
      expect(placeholders(mn[key]), key).toEqual(placeholders(en[key]))
      expect(mn[key].trim(), key).not.toBe('')
    }
  })

  it('are Mongolian in mn-MN, not copies of the English', async () => {
    await Promise.all([savingsTexts.load('en-US'), savingsTexts.load('mn-MN')])
    const en = flatten(savingsTexts.bundled('en-US'))
    const mn = flatten(savingsTexts.bundled('mn-MN'))
    // Only the figure-only texts may read the same ("{date}: {amount} {coin}").
    const same = Object.keys(en).filter((k) => /[A-Za-z]{3}/.test(en[k].replace(/\{\w+\}/g, '')) && en[k] === mn[k])
    expect(same).toEqual([])
    for (const [key, text] of Object.entries(mn)) {
      if (/[A-Za-z]{3}/.test(en[key].replace(/\{\w+\}/g, ''))) expect(text, key).toMatch(/[\u0400-\u04FF]/)
    }
  })

  it('are not part of the first load (lib/texts-*.ts leave them out)', () => {
    expect(getBundledTexts('savings', 'en-US')).toEqual({})
    expect(getBundledTexts('savings', 'mn-MN')).toEqual({})
  })

  it('mn_MN: a deposit is Орлого, as the wallet names it', async () => {
    await savingsTexts.load('mn-MN')
    expect(JSON.stringify(savingsTexts.bundled('mn-MN'))).not.toMatch(/[Цц]энэглэ/)
  })
})
