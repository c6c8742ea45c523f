import { useState } from 'react'
import { useTexts } from '@/lib/i18n'
import { cleanNumberInput, finishedNumber, inputNoticeKey } from '../lib/order-form'

/**
 * A number field's input handling: what is typed or pasted is cleaned
 * (cleanNumberInput: digits and one point, `places` decimals) before
 * `onChange` gets it, and `noticeText` says why when that changed the
 * number. The notice stays while the field's value is the one it explains,
 * so a value set from elsewhere (a slider, a price picked in the book) ends it.
 * A point typed last (kept while typing, so that "1000.5" can be typed on) is
 * dropped when the field is left (`onBlur`): "1000." becomes 1000.
 */
export function useNumberInput(value: string, places: number, onChange: (v: string) => void) {
  const { t } = useTexts('trade')
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
