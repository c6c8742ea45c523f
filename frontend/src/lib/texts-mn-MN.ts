import type { Translations } from './content-client'

/** The mn-MN page texts, one chunk (loaded by bundled-texts.ts). */
export default import.meta.glob<Translations>('@texts/mn-MN/*.json', { eager: true, import: 'default' })
