import { formatDateTime as appDateTime } from '@/features/orders/lib/order-format'

/**
 * Date and time as every page of the app shows them, 'YYYY-MM-DD HH:mm:ss' in
 * local time, in en_US and mn_MN alike (the wallet histories, the orders pages);
 * '—' without a time. The language does not change it: callers may still pass theirs.
 */
export const formatDateTime: (ms: number | undefined, lan?: string) => string = (ms) => {
  if (ms === undefined || !Number.isFinite(Number(ms)) || Number(ms) <= 0) return '—'
  return appDateTime(Number(ms))
}
