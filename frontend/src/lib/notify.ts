import { TOAST_DURATION_MS, toaster } from '@/components/ui/toaster'
import { getLanguage } from './cookies'
import { pageTextsQuery, translate } from './i18n'
import { queryClient } from './query-client'

/**
 * Toast helpers: every success or error message of the app appears top right
 * for 5 seconds (spec §8, §9).
 */

/** When the last error toast was shown (see {@link reportUnreachable}). */
let lastErrorAt = 0

/** Shows a success toast. */
export function notifySuccess(message: string, title?: string): void {
  toaster.create({
    type: 'success',
    title: title ?? message,
    description: title ? message : undefined,
    duration: TOAST_DURATION_MS,
    closable: true,
  })
}

/** Shows an error toast. */
export function notifyError(message: string, title?: string): void {
  lastErrorAt = Date.now()
  toaster.create({
    type: 'error',
    title: title ?? message,
    description: title ? message : undefined,
    duration: TOAST_DURATION_MS,
    closable: true,
  })
}

/** Id of the "server unreachable" toast: there is never more than one. */
export const UNREACHABLE_TOAST_ID = 'server-unreachable'
/**
 * How long a failed request waits before its notice: a screen that says
 * itself that the exchange could not be reached (trade's order form, open
 * orders, the orders pages) toasts within this time, and then there is no
 * second, general notice.
 */
export const UNREACHABLE_GRACE_MS = 400
/** Once told, further failures stay quiet this long, unless a request gets an answer in between. */
export const UNREACHABLE_QUIET_MS = 60_000

let pending: ReturnType<typeof setTimeout> | undefined
/** When the user was last told that the exchange could not be reached (0: not during this outage). */
let toldAt = 0

/** The common catalogue's text in the current language (server texts when loaded, else the bundled copy). */
function commonText(key: string): string {
  const lan = getLanguage()
  return translate('common', lan, queryClient.getQueryData(pageTextsQuery('common', lan).queryKey), key)
}

/**
 * Shows the "exchange could not be reached" error toast now, unless it is
 * already on screen. For a user's own action that failed without an answer.
 */
export function notifyUnreachable(): void {
  toldAt = Date.now()
  if (toaster.isVisible(UNREACHABLE_TOAST_ID)) return
  toaster.create({
    id: UNREACHABLE_TOAST_ID,
    type: 'error',
    title: commonText('serverUnreachable'),
    duration: TOAST_DURATION_MS,
    closable: true,
  })
}

/**
 * Called by the request client for each request the exchange did not
 * answer. A burst of them (a page's queries, polling) gives one toast; none
 * when the screen toasted its own notice meanwhile (an error toast within
 * {@link UNREACHABLE_GRACE_MS}); and no new one for
 * {@link UNREACHABLE_QUIET_MS} after the user was told, while nothing answers.
 */
export function reportUnreachable(): void {
  if (pending !== undefined) return
  if (toldAt && Date.now() - toldAt < UNREACHABLE_QUIET_MS) return
  const failedAt = Date.now()
  pending = setTimeout(() => {
    pending = undefined
    if (lastErrorAt >= failedAt) {
      // The screen said so itself.
      toldAt = Date.now()
      return
    }
    notifyUnreachable()
  }, UNREACHABLE_GRACE_MS)
}

/**
 * For a screen that says inline that the exchange could not be reached:
 * the general toast for the same failure stays away.
 */
export function markUnreachableTold(): void {
  lastErrorAt = Date.now()
}

/** Called by the request client for every answer: the next outage is told again. */
export function reportReachable(): void {
  toldAt = 0
}
