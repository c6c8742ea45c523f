import type { Translations } from '@/lib/content-client'
import { lazyPageTexts } from '@/lib/lazy-texts'

/**
 * Texts of the finance and staking records (content page 'financeRecords':
 * /order/finance). Only that lazily loaded route shows them: its loader
 * awaits them.
 */
export const financeRecordsTexts = lazyPageTexts('financeRecords', import.meta.glob<Translations>('@texts/*/financeRecords.json', { import: 'default' }))
