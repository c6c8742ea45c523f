import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the e-mail change and the account closing (content page
 * 'account'). They show on the security page's e-mail row and danger zone
 * and on the close-account page, all on lazily loaded routes, so their
 * bundled copy is not part of the first load (lib/texts-*.ts leave the file
 * out): the routes' loaders await them before rendering.
 */
export const accountTexts = lazyPageTexts(
  'account',
  import.meta.glob<Translations>('@texts/*/account.json', { import: 'default' }),
)
