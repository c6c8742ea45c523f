import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the futures trading competition (content page 'competition',
 * /futureBonus). Only that lazily loaded page shows them, so their bundled
 * copy is not part of the first load (lib/texts-*.ts leave the file out):
 * the route's loader awaits them.
 */
export const competitionTexts = lazyPageTexts('competition', import.meta.glob<Translations>('@texts/*/competition.json', { import: 'default' }))
