/** A moment (Unix ms) as a date and time in the app's language. */
export function formatMoment(ms: number, lan: string): string {
  if (!ms) return ''
  return new Date(ms).toLocaleString(lan === 'mn_MN' ? 'mn-MN' : 'en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

/** A postal address on one line, the country named by nameOf. */
export function formatAddress(
  a: { street: string; city: string; zip: string; country: string } | null | undefined,
  nameOf: (code: string) => string,
): string {
  if (!a) return ''
  return [a.street, [a.zip, a.city].filter(Boolean).join(' '), a.country ? nameOf(a.country) : ''].filter((x) => x && x.trim()).join(', ')
}
