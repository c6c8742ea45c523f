import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the futures screens (content page 'futures'): the trading page
 * and the futures orders page. Only these lazily loaded pages show them, so
 * their bundled copy is not part of the first load (lib/texts-*.ts leave the
 * file out): the routes' loaders await them. The chart, book and trades the
 * page shares with the spot page keep the spot page's texts ('trade').
 */
export const futuresTexts = lazyPageTexts('futures', import.meta.glob<Translations>('@texts/*/futures.json', { import: 'default' }))
