import { beforeAll, describe, expect, it } from 'vitest'
import { normalizeLevelList, type LevelList } from '../api/get-level-list'
import { canVerify, heldLevel, humanizeLabel, identityState, levelTitle, nextLevel, rejectLabelText, rejectLabelTexts, targetLevel } from './status'
import { lookup } from '@/lib/i18n'
import { identityTexts } from './texts'

/** A level list as the server answers it, with two levels. */
function list(over: Partial<LevelList> = {}): LevelList {
  return normalizeLevelList({
    levels: [
      { levelName: 'advanced', providerLevel: 'adv', withdrawDailyUsdt: '500000', description: 'Selfie', rank: 2, status: 'unverified', current: false },
      { levelName: 'basic', providerLevel: 'basic-kyc-level', withdrawDailyUsdt: '100000', description: 'Document', rank: 1, status: 'unverified', current: false },
    ],
    kycStatus: 0,
    unverifiedWithdrawDailyUsdt: '1000',
    withdrawDailyUsdt: '1000',
    provider: 'simulator',
    ...over,
  })
}

/** `t` of the bundled en-US identity texts. */
const en = (key: string) => lookup(identityTexts.bundled('en-US'), key) ?? ''

describe('identity status', () => {
  beforeAll(() => Promise.all([identityTexts.load('en-US'), identityTexts.load('mn-MN')]))

  it('normalizes the answer: levels in rank order, amounts as strings, missing fields empty', () => {
    const l = normalizeLevelList({ levels: [{ levelName: 'basic', withdrawDailyUsdt: 100000 as unknown as string }], kycStatus: 7 as never })
    expect(l.levels[0]).toMatchObject({ levelName: 'basic', withdrawDailyUsdt: '100000', rank: 1, status: 'unverified', current: false })
    expect(l.kycStatus).toBe(0)
    expect(l.rejectLabels).toEqual([])
    expect(list().levels.map((x) => x.levelName)).toEqual(['basic', 'advanced'])
  })

  it('reads the state: unverified, pending (also on hold), rejected, final, verified', () => {
    expect(identityState(list())).toBe('unverified')
    expect(identityState(list({ reviewStatus: 'init', currentLevel: 'basic' }))).toBe('unverified')
    expect(identityState(list({ reviewStatus: 'pending', kycStatus: 1 }))).toBe('pending')
    expect(identityState(list({ reviewStatus: 'onHold', kycStatus: 1 }))).toBe('pending')
    expect(identityState(list({ reviewStatus: 'completed', reviewAnswer: 'RED', reviewRejectType: 'RETRY', kycStatus: 3 }))).toBe('rejected')
    expect(identityState(list({ reviewStatus: 'completed', reviewAnswer: 'RED', reviewRejectType: 'FINAL', kycStatus: 3 }))).toBe('final')
    expect(identityState(list({ reviewStatus: 'completed', reviewAnswer: 'GREEN', verifiedLevel: 'basic', kycStatus: 2 }))).toBe('verified')
    // A higher level under review or refused is what the page talks about; the level held stays (kycStatus 2).
    expect(identityState(list({ reviewStatus: 'pending', verifiedLevel: 'basic', kycStatus: 2 }))).toBe('pending')
    expect(identityState(list({ reviewStatus: 'completed', reviewAnswer: 'RED', verifiedLevel: 'basic', kycStatus: 2 }))).toBe('rejected')
  })

  it('finds the level held, the next one and the one Verify works on', () => {
    const none = list()
    expect(heldLevel(none)).toBeUndefined()
    expect(nextLevel(none)?.levelName).toBe('basic')
    expect(targetLevel(none)?.levelName).toBe('basic')
    const basic = list({ verifiedLevel: 'basic', currentLevel: 'basic', reviewStatus: 'completed', reviewAnswer: 'GREEN', kycStatus: 2 })
    expect(heldLevel(basic)?.levelName).toBe('basic')
    expect(targetLevel(basic)?.levelName).toBe('advanced')
    // The level applied for (above the one held) is continued or retried.
    expect(targetLevel(list({ verifiedLevel: 'basic', currentLevel: 'advanced' }))?.levelName).toBe('advanced')
    const top = list({ verifiedLevel: 'advanced', currentLevel: 'advanced', kycStatus: 2 })
    expect(nextLevel(top)).toBeUndefined()
    expect(targetLevel(top)).toBeUndefined()
  })

  it('offers Verify when it can start: not under review, not final, a retry allowed, a provider, a level left', () => {
    expect(canVerify(list({ canRetry: true }))).toBe(true)
    expect(canVerify(list({ reviewStatus: 'pending', kycStatus: 1 }))).toBe(false)
    expect(canVerify(list({ reviewStatus: 'completed', reviewAnswer: 'RED', reviewRejectType: 'RETRY', canRetry: true }))).toBe(true)
    expect(canVerify(list({ reviewStatus: 'completed', reviewAnswer: 'RED', reviewRejectType: 'RETRY', canRetry: false }))).toBe(false)
    expect(canVerify(list({ reviewStatus: 'completed', reviewAnswer: 'RED', reviewRejectType: 'FINAL' }))).toBe(false)
    expect(canVerify(list({ provider: '' }))).toBe(false)
    expect(canVerify(list({ verifiedLevel: 'advanced', kycStatus: 2 }))).toBe(false)
  })

  it('says the reviewer\'s labels in the reader\'s language where known, readable otherwise', () => {
    expect(rejectLabelText(en, 'UNSATISFACTORY_PHOTOS')).toBe('The photos are unclear or unreadable')
    expect(rejectLabelText(en, 'SOMETHING_NEW')).toBe('Something new')
    expect(rejectLabelText(en, 'rejectLabels.evil')).toBe('Rejectlabels.evil')
    // Two labels with the same text show once.
    expect(rejectLabelTexts(en, ['PROBLEMATIC_APPLICANT_DATA', 'REQUESTED_DATA_MISMATCH', 'LOW_QUALITY'])).toEqual([
      'The details you entered do not match the document',
      'The document image is of low quality',
    ])
    expect(humanizeLabel('')).toBe('')
  })

  it('names the levels it knows, the operator\'s name otherwise', () => {
    expect(levelTitle(en, 'basic')).toBe('Basic')
    expect(levelTitle(en, 'pro_plus')).toBe('Pro plus')
  })
})
