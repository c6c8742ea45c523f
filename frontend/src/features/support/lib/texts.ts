import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the support ticket pages (content page 'support'). Only these
 * lazily loaded pages show them, so their bundled copy is not part of the
 * first load (lib/texts-*.ts leave the file out): the routes' loaders
 * await them before rendering.
 */
export const supportTexts = lazyPageTexts(
  'support',
  import.meta.glob<Translations>('@texts/*/support.json', { import: 'default' }),
)
