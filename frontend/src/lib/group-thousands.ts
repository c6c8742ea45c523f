/**
 * Puts thousands separators into the whole part of a formatted decimal
 * ('-1234567.891' -> '-1,234,567.891'); anything else is returned as it is.
 * The one grouping rule of the wallet, trade, markets and orders screens.
 */
export function groupThousands(text: string): string {
  const m = /^(-?)(\d+)(\.\d*)?$/.exec(text)
  if (!m) return text
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`
}
