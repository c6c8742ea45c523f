const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Date and time as the app's pages show them: 'YYYY-MM-DD HH:mm:ss' in local
 * time, the same in en_US and mn_MN (as the orders and wallet histories);
 * '—' without a time. `seconds: false` leaves the seconds out.
 */
export function formatDateTime(ms: number | undefined | null, { seconds = true }: { seconds?: boolean } = {}): string {
  const n = Number(ms)
  if (!ms || !Number.isFinite(n) || n <= 0) return '—'
  const d = new Date(n)
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`
  return `${day} ${time}`
}
