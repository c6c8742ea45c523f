import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of flexible savings (content page 'savings': the /savings page and
 * the subscribe and redeem dialogs, which the wallet's earn view opens too).
 * Only lazily loaded screens show them, so their bundled copy is not part of
 * the first load (lib/texts-*.ts leave the file out): the routes' loaders
 * await them.
 */
export const savingsTexts = lazyPageTexts('savings', import.meta.glob<Translations>('@texts/*/savings.json', { import: 'default' }))
