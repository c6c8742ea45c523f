import { describe, expect, it } from 'vitest'
import { cryptoCashTexts } from '@/features/crypto-cash/lib/texts'
import { launchpadTexts } from '@/features/launchpad/lib/texts'
import { stakingTexts } from '@/features/staking/lib/texts'
import type { Translations } from '@/lib/content-client'
import { lookup } from '@/lib/i18n'
import type { LazyTexts } from '@/lib/lazy-texts'
import { RECORD_GROUPS, RECORD_TYPES } from '../api/records-api'
import { financeRecordsTexts } from './texts'

/**
 * The texts of the earn pages (staking, launchpad, cryptoCash,
 * financeRecords): lazily loaded with their pages, complete in both
 * languages, Mongolian in mn-MN, and every key the pages ask for there.
 */

function flatten(texts: Translations, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(texts).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v]] : Object.entries(flatten(v, `${prefix}${k}.`)))),
  )
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

/** The component sources of each feature, to find the literal keys they ask for. */
const sources: Record<string, Record<string, string>> = {
  staking: import.meta.glob<string>('../../staking/components/*.tsx', { query: '?raw', import: 'default', eager: true }),
  launchpad: import.meta.glob<string>('../../launchpad/components/*.tsx', { query: '?raw', import: 'default', eager: true }),
  cryptoCash: import.meta.glob<string>('../../crypto-cash/components/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true }),
  financeRecords: import.meta.glob<string>('../components/*.tsx', { query: '?raw', import: 'default', eager: true }),
}

const PAGES: [string, LazyTexts, string[]][] = [
  [
    'staking',
    stakingTexts,
    [
      ...['daily', 'maturity'].flatMap((p) => [`payout.${p}`, `stake.dates.${p}`]),
      ...['pending', 'locked', 'completed', 'redeemed'].map((s) => `status.${s}`),
      ...['positive', 'precision', 'min', 'available', 'userCap', 'remaining'].map((e) => `errors.${e}`),
      ...['lock', 'rewards', 'release'].map((h) => `how.${h}`),
    ],
  ],
  [
    'launchpad',
    launchpadTexts,
    [
      ...['upcoming', 'subscription', 'calculation', 'distribution', 'ended'].flatMap((p) => [`phases.${p}`, `detail.commitClosed.${p}`]),
      ...['upcoming', 'subscription', 'calculation'].flatMap((p) => [`countdown.${p}`, `countdown.soon.${p}`]),
      ...['projects', 'participants', 'ended'].map((f) => `figures.${f}`),
      ...['positive', 'precision', 'min', 'available'].map((e) => `errors.${e}`),
    ],
  ],
  [
    'cryptoCash',
    cryptoCashTexts,
    [
      ...['pending_repayment', 'liquidating', 'repaid', 'liquidated'].map((s) => `status.${s}`),
      ...['safe', 'warning', 'marginCall', 'liquidation'].map((z) => `ltv.zones.${z}`),
      ...['initial', 'marginCall', 'liquidation'].flatMap((m) => [`ltv.marks.${m}`, `rules.${m}`]),
      ...['repay', 'collateral', 'liquidation'].flatMap((l) => [`records.tabs.${l}`, `records.empty.${l}`]),
      ...['repay', 'added', 'removed', 'liquidation'].map((k) => `records.kinds.${k}`),
      ...['positive', 'precision', 'loanMin', 'loanMax', 'collateralMin', 'available', 'removable'].map((e) => `errors.${e}`),
      'collateral.add',
      'collateral.remove',
    ],
  ],
  ['financeRecords', financeRecordsTexts, [...RECORD_TYPES.map((r) => `types.${r}`), ...Object.keys(RECORD_GROUPS).map((g) => `groups.${g}`)]],
]

describe.each(PAGES)('%s texts', (page, texts, dynamicKeys) => {
  it('load with the page, in both languages, with the same keys and the same placeholders', async () => {
    await Promise.all([texts.load('en-US'), texts.load('mn-MN')])
    const en = flatten(texts.bundled('en-US'))
    const mn = flatten(texts.bundled('mn-MN'))
    expect(Object.keys(en).length).toBeGreaterThan(30)
    expect(Object.keys(mn).sort()).toEqual(Object.keys(en).sort())
    for (const key of Object.keys(en)) {
      expect(placeholders(mn[key]), key).toEqual(placeholders(en[key]))
      expect(mn[key].trim(), key).not.toBe('')
    }
  })

  it('are Mongolian in mn-MN, not copies of the English', async () => {
    await Promise.all([texts.load('en-US'), texts.load('mn-MN')])
    const en = flatten(texts.bundled('en-US'))
    const mn = flatten(texts.bundled('mn-MN'))
    for (const [key, text] of Object.entries(mn)) {
      if (/[A-Za-z]{3}/.test(en[key].replace(/\{\w+\}/g, '').replace(/\b(LTV|UTC|USDT|BTC)\b/g, ''))) {
        expect(text, key).toMatch(/[\u0400-\u04FF]/)
        expect(text, key).not.toBe(en[key])
      }
    }
  })

  it('have every key the page asks for', async () => {
    await texts.load('en-US')
    const en = texts.bundled('en-US')
    const literal = Object.values(sources[page]).flatMap((src) => [
      ...[...src.matchAll(/(?<![.\w])t\(\s*'([\w.]+)'/g)].map((m) => m[1]),
      // t(cond ? 'a.b' : 'c.d')
      ...[...src.matchAll(/(?<![.\w])t\(\s*[^'(),]*\?\s*'([\w.]+)'\s*:\s*'([\w.]+)'/g)].flatMap((m) => [m[1], m[2]]),
    ])
    expect(literal.length).toBeGreaterThan(10)
    for (const key of [...new Set([...literal, ...dynamicKeys])]) expect(lookup(en, key), `${page}: ${key}`).toBeDefined()
  })

  it('mn_MN: a deposit is Орлого, as the wallet names it', async () => {
    await texts.load('mn-MN')
    expect(JSON.stringify(texts.bundled('mn-MN'))).not.toMatch(/[Цц]энэглэ/)
  })
})
