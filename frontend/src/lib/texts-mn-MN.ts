import type { Translations } from './content-client'

/**
 * The mn-MN page texts, one chunk (loaded by bundled-texts.ts). Pages whose
 * texts are long and shown on one lazily loaded page only are left out of
 * the first load: openApi (the Open API documentation) comes with its page
 * (features/info/lib/open-api-texts.ts).
 */
export default import.meta.glob<Translations>(['@texts/mn-MN/*.json', '!@texts/mn-MN/openApi.json'], {
  eager: true,
  import: 'default',
})
