import type { Translations } from './content-client'

/** The en-US page texts, one chunk (loaded by bundled-texts.ts). */
export default import.meta.glob<Translations>('@texts/en-US/*.json', { eager: true, import: 'default' })
