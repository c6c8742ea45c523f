/**
 * The P2P pages' names, for the route files (part of the first load: this
 * module holds nothing else, as whatever any chunk takes from a module of
 * the first load stays in it). The pages check their search values
 * themselves (search-values.ts, in the P2P chunk).
 */

/** The pages under /p2p/ (spec §2), each /p2p/{page}; trading and express are open to visitors. */
export const P2P_PAGES = ['trading', 'express', 'order-detail', 'profile', 'publish-ad', 'my-advertising', 'apply-merchant', 'payment-method'] as const
export type P2PPageName = (typeof P2P_PAGES)[number]

/** True for a page name; `open` also asks that visitors may see it (the others send them to log in and back). */
export const isP2PPage = (v: unknown, open?: boolean): v is P2PPageName => {
  const i = (P2P_PAGES as readonly unknown[]).indexOf(v)
  return open ? i === 0 || i === 1 : i >= 0
}
