import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of staking (content page 'staking': the /staking page, its stake
 * dialog and the early redemption's confirmation). Only the lazily loaded
 * /staking route shows them: its loader awaits them.
 */
export const stakingTexts = lazyPageTexts('staking', import.meta.glob<Translations>('@texts/*/staking.json', { import: 'default' }))
