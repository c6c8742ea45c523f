import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the launchpad (content page 'launchpad': /launchpad, a sale's
 * page /launchpad/<id>, the commit dialog and the allocation report). Only
 * the lazily loaded launchpad routes show them: their loaders await them.
 */
export const launchpadTexts = lazyPageTexts('launchpad', import.meta.glob<Translations>('@texts/*/launchpad.json', { import: 'default' }))
