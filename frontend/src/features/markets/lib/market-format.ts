import { cmpDec, fixed, formatDec, parseDec, type Dec } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'

/** A price at the pair's places (as sent without them), grouped in thousands; '—' without one. */
export function formatPrice(price: string | undefined, places: number | undefined): string {
  if (price === undefined) return '—'
  if (places !== undefined) return fixed(price, places)
  const dot = price.indexOf('.')
  return fixed(price, dot < 0 ? 0 : price.length - dot - 1)
}

/** Decimals of a 24 h volume. */
export const VOLUME_PLACES = 2

const ONE: Dec = { units: 1n, scale: 0 }

/** d ÷ 10^n exactly, as a decimal string. */
function shift(d: Dec, n: number): string {
  return formatDec({ units: d.units, scale: d.scale + n }, d.scale + n)
}

/** d ÷ 10^n at the volume's places, and whether that shows at least 1 ('0.999' shows 1.00). */
function inUnits(d: Dec, n: number): { text: string; atLeastOne: boolean } {
  const text = fixed(shift(d, n), VOLUME_PLACES)
  const abs = parseDec(text.replace(/[,-]/g, ''))
  return { text, atLeastOne: !!abs && cmpDec(abs, ONE) >= 0 }
}

/**
 * A 24 h volume, 2 decimals: as it is below a million ('523,456.78'), in
 * millions or billions from there on ('12.35M', '3.40B'; the texts
 * markets.millions and markets.billions say how in each language:
 * '12.35 сая'). A volume that rounds to 1.00 of the larger unit shows in
 * it. '—' without one. The figures stay exact decimals (never floats).
 */
export function formatVolume(amount: string | undefined, t: TranslateFn): string {
  const d = parseDec(amount)
  if (!d) return '—'
  const billions = inUnits(d, 9)
  if (billions.atLeastOne) return t('markets.billions', { value: billions.text })
  const millions = inUnits(d, 6)
  if (millions.atLeastOne) return t('markets.millions', { value: millions.text })
  return fixed(amount, VOLUME_PLACES)
}
