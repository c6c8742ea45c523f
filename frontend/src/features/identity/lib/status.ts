import type { TranslateFn } from '@/lib/i18n'
import type { KycLevel, KycStatus, LevelList, LevelStatus } from '../api/get-level-list'

/**
 * What the identity page says of the user's verification, read from the
 * level list: the state of the level applied for, with the level held.
 */

/**
 * The page's state: a review under way is 'pending'; a rejection of the
 * level applied for is 'rejected' (the user may send documents again) or
 * 'final' (FINAL: only support can help); else the user is 'verified' when
 * holding a level, otherwise 'unverified'.
 */
export type IdentityState = 'unverified' | 'pending' | 'verified' | 'rejected' | 'final'

const UNDER_REVIEW = new Set(['pending', 'onHold'])

/** The state of the page for a level list. */
export function identityState(list: Pick<LevelList, 'reviewStatus' | 'reviewAnswer' | 'reviewRejectType' | 'verifiedLevel' | 'kycStatus'>): IdentityState {
  if (UNDER_REVIEW.has(list.reviewStatus)) return 'pending'
  if (list.reviewStatus === 'completed' && list.reviewAnswer === 'RED') {
    return list.reviewRejectType === 'FINAL' ? 'final' : 'rejected'
  }
  if (list.verifiedLevel || list.kycStatus === 2) return 'verified'
  return 'unverified'
}

/** The level held (undefined when none). */
export function heldLevel(list: Pick<LevelList, 'levels' | 'verifiedLevel'>): KycLevel | undefined {
  return list.levels.find((l) => l.levelName === list.verifiedLevel)
}

/** The first level above the one held (undefined at the top). */
export function nextLevel(list: Pick<LevelList, 'levels' | 'verifiedLevel'>): KycLevel | undefined {
  const held = heldLevel(list)?.rank ?? 0
  return list.levels.find((l) => l.rank > held)
}

/**
 * The level a Verify or Retry button works on: the one applied for when it
 * is not held yet (continue or retry it), else the next one up.
 */
export function targetLevel(list: Pick<LevelList, 'levels' | 'verifiedLevel' | 'currentLevel'>): KycLevel | undefined {
  const held = heldLevel(list)?.rank ?? 0
  const current = list.levels.find((l) => l.levelName === list.currentLevel)
  if (current && current.rank > held) return current
  return nextLevel(list)
}

/** Whether the user can start (or resume, or retry) verification now. */
export function canVerify(list: LevelList): boolean {
  const state = identityState(list)
  if (!list.provider || state === 'pending' || state === 'final') return false
  if (state === 'rejected' && !list.canRetry) return false
  return targetLevel(list) !== undefined
}

/** Badge colours of the statuses. */
export const STATUS_COLOR: Record<LevelStatus, string> = {
  unverified: 'gray',
  pending: 'orange',
  verified: 'green',
  rejected: 'red',
}

/** The level status of a kycStatus (the profile's 0–3). */
export function statusOfKyc(status: KycStatus): LevelStatus {
  return (['unverified', 'pending', 'verified', 'rejected'] as const)[status]
}

/** 'SOME_LABEL' as 'Some label': a label the texts do not know, readable. */
export function humanizeLabel(label: string): string {
  const words = label.toLowerCase().replace(/_+/g, ' ').trim()
  return words ? words[0].toUpperCase() + words.slice(1) : label
}

/** A reviewer's label in the reader's language where the texts know it. */
export function rejectLabelText(t: TranslateFn, label: string): string {
  return (/^[A-Z0-9_]+$/.test(label) && t(`rejectLabels.${label}`)) || humanizeLabel(label)
}

/** The rejection's labels, each once, in the reader's language. */
export function rejectLabelTexts(t: TranslateFn, labels: readonly string[]): string[] {
  return [...new Set(labels.map((l) => rejectLabelText(t, l)))]
}

/** A level's name in the reader's language where the texts know it, else the operator's name. */
export function levelTitle(t: TranslateFn, levelName: string): string {
  return (/^[\w.-]+$/.test(levelName) && t(`levels.names.${levelName}`)) || humanizeLabel(levelName)
}

/** A level's description in the reader's language where the texts know it, else the operator's. */
export function levelDescription(t: TranslateFn, level: Pick<KycLevel, 'levelName' | 'description'>): string {
  return (/^[\w.-]+$/.test(level.levelName) && t(`levels.descriptions.${level.levelName}`)) || level.description
}
