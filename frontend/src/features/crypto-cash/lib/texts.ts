import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of crypto loans (content page 'cryptoCash': the /cryptoCash page,
 * its borrow form, the repay and collateral dialogs and the loan records).
 * Only the lazily loaded /cryptoCash route shows them: its loader awaits them.
 */
export const cryptoCashTexts = lazyPageTexts('cryptoCash', import.meta.glob<Translations>('@texts/*/cryptoCash.json', { import: 'default' }))
