import { getConfig } from './config'

/**
 * The exchange's capabilities and whether each is live. A capability that is
 * not live is never sold: menus mark it "Soon", the home page marks its card,
 * and screens leave out what only it would use (the markets' Margin badge,
 * the wallet's savings rates). As a capability lands, set it live here and
 * the marks go everywhere at once.
 *
 * Of earn, flexible savings is live (/savings); staking, the launchpad and
 * crypto loans are not: their menu links have no route yet, so they lead to
 * their maintenance pages, marked "Soon" (link-target.ts).
 */
export type Capability = 'spot' | 'margin' | 'grid' | 'futures' | 'p2p' | 'savings'

const LIVE: Record<Exclude<Capability, 'futures'>, boolean> = {
  spot: true,
  margin: false,
  grid: false,
  p2p: true,
  savings: true,
}

/** True when the capability can be used now (futures follow the server's flag). */
export function isLive(capability: Capability): boolean {
  if (capability === 'futures') return getConfig().flags.futuresLive
  return LIVE[capability]
}
