/**
 * What a number field of the order forms (spot and futures) does with what
 * is typed or pasted: clean it to digits and one point with the field's
 * decimals, say why when that changed the number, and drop a point left at
 * the end when the field is left. Pure rules and one hook; the field itself
 * is components/form/number-field.tsx.
 */
import { useState } from 'react'
import { GROUPED, sanitizeInput } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'

/**
 * Why a number field changed what was typed or pasted: 'chars' when it
 * dropped something other than digits and one decimal point (letters, a
 * sign, an exponent, a second point), 'places' when it cut decimals the pair
 * does not allow. The field says so under itself, so that a number never
 * changes without the user learning why.
 */
export type InputNotice = 'chars' | 'places'

/**
 * The field's value for what was typed or pasted (sanitizeInput: digits and
 * one point, at most `places` decimals) and, when that changed the number,
 * why. Spaces (pasted around a number or grouping it) and commas that group
 * thousands or stand for the decimal point keep the number and go without a
 * notice; anything else dropped is one.
 */
export function cleanNumberInput(raw: string, places: number): { value: string; notice?: InputNotice } {
  const value = sanitizeInput(raw, places)
  const kept = raw.replace(/\s/g, '')
  const points = kept.split('.').length - 1
  const commas = kept.split(',').length - 1
  const [whole, fraction = ''] = kept.split('.')
  const commasKeepNumber =
    commas === 0 || (points === 0 ? commas === 1 || GROUPED.test(kept) : GROUPED.test(whole) && !fraction.includes(','))
  if (/[^\d.,]/.test(kept) || points > 1 || !commasKeepNumber) return { value, notice: 'chars' }
  if (value !== sanitizeInput(raw, Number.MAX_SAFE_INTEGER)) return { value, notice: 'places' }
  return { value }
}

/** The text key (trade and futures catalogues) that tells a field's user why their input changed. */
export function inputNoticeKey(notice: InputNotice, places: number): string {
  if (notice === 'chars') return 'form.input.chars'
  return places === 0 ? 'form.input.whole' : places === 1 ? 'form.input.placesOne' : 'form.input.places'
}

/** A typed number without the point it may end on while typing ("12." is 12). */
export function finishedNumber(value: string): string {
  return value.endsWith('.') ? value.slice(0, -1) : value
}

/**
 * A number field's input handling: what is typed or pasted is cleaned
 * (cleanNumberInput: digits and one point, `places` decimals) before
 * `onChange` gets it, and `noticeText` says why when that changed the
 * number, in the words of `t` (a catalogue with form.input.* keys: the
 * trade and futures texts). The notice stays while the field's value is the
 * one it explains, so a value set from elsewhere (a slider, a price picked
 * in the book) ends it. A point typed last (kept while typing, so that
 * "1000.5" can be typed on) is dropped when the field is left (`onBlur`):
 * "1000." becomes 1000.
 */
export function useNumberInput(value: string, places: number, onChange: (v: string) => void, t: TranslateFn) {
  const [notice, setNotice] = useState<{ value: string; key: string } | null>(null)
  const noticeText = notice && notice.value === value ? t(notice.key, { places }) : ''
  const onInput = (raw: string) => {
    const cleaned = cleanNumberInput(raw, places)
    setNotice(cleaned.notice ? { value: cleaned.value, key: inputNoticeKey(cleaned.notice, places) } : null)
    onChange(cleaned.value)
  }
  const onBlur = () => {
    if (finishedNumber(value) !== value) onChange(finishedNumber(value))
  }
  return { noticeText, onInput, onBlur }
}
