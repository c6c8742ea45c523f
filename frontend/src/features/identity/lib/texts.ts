import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the identity and account-limits pages (content pages 'identity'
 * and 'accountLimits'). Only these two lazily loaded pages show them, so
 * their bundled copies are not part of the first load (lib/texts-*.ts leave
 * the files out): each locale's file is its own chunk, which the pages load
 * when they mount (in parallel with their data: a route loader would put
 * these modules into the first load); a page shows its skeleton until its
 * texts are in.
 */

/** The identity page's texts (statuses, levels, reject labels, toasts). */
export const identityTexts = lazyPageTexts(
  'identity',
  import.meta.glob<Translations>('@texts/*/identity.json', { import: 'default' }),
)

/** The account limits page's texts. */
export const accountLimitsTexts = lazyPageTexts(
  'accountLimits',
  import.meta.glob<Translations>('@texts/*/accountLimits.json', { import: 'default' }),
)
