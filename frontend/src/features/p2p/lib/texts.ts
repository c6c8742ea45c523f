import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the P2P pages (content page 'p2p'): the sub-navigation, the
 * agreement notice, trading, express, orders, the order page and its chat,
 * profiles, ads, merchants and payment methods. Only these lazily loaded
 * pages show them, so their bundled copy is not part of the first load
 * (lib/texts-*.ts leave the file out): the routes' loaders await them.
 */
export const p2pTexts = lazyPageTexts('p2p', import.meta.glob<Translations>('@texts/*/p2p.json', { import: 'default' }))
