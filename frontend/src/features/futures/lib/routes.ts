import { redirect } from '@tanstack/react-router'
import { isLive } from '@/lib/capabilities'
import { getLanguage } from '@/lib/cookies'

/**
 * What the futures route files need, part of the first load: the gate and
 * the texts' loader (the pages come with their routes' lazy chunks).
 */

/** Where the futures pages lead while futures are not live. */
export const FUTURES_MAINTENANCE = '/maintenance?area=futures'

/** While futures are not live (the server's futuresLive flag) the pages are their maintenance notice, as the menus' links are. */
export function futuresGate(): void {
  if (!isLive('futures')) throw redirect({ href: FUTURES_MAINTENANCE, replace: true })
}

/** The futures texts of the language, which the pages' routes wait for. */
export const loadFuturesTexts = () => import('./texts').then((m) => m.futuresTexts.loadFor(getLanguage()))
