/** Date and time in the interface language, e.g. 2026-11-21 10:00:00 style for tables. */
export function formatDateTime(ms: number | undefined, lan: string): string {
  if (ms === undefined || !Number.isFinite(Number(ms)) || Number(ms) <= 0) return '—'
  return new Intl.DateTimeFormat(lan === 'mn_MN' ? 'mn-MN' : 'en-US', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(new Date(Number(ms)))
}
