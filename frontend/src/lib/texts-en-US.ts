import type { Translations } from './content-client'

/**
 * The en-US page texts, one chunk (loaded by bundled-texts.ts). Pages whose
 * texts are long and shown on one lazily loaded page only are left out of
 * the first load: openApi (the Open API documentation) comes with its page
 * (features/info/lib/open-api-texts.ts); corporateVerification* come with
 * theirs (features/corporate/lib/texts.ts); account and support come with
 * theirs (features/account/lib/texts.ts, features/support/lib/texts.ts);
 * identity and accountLimits come with
 * theirs (features/identity/lib/texts.ts); p2p comes with the P2P pages
 * (features/p2p/lib/texts.ts); futures with the futures pages
 * (features/futures/lib/texts.ts); competition with the competition page
 * (features/competition/lib/texts.ts); savings with the savings page and
 * dialogs (features/savings/lib/texts.ts).
 */
export default import.meta.glob<Translations>(['@texts/en-US/*.json', '!@texts/en-US/openApi.json', '!@texts/en-US/corporateVerification*.json', '!@texts/en-US/account.json', '!@texts/en-US/support.json', '!@texts/en-US/identity.json', '!@texts/en-US/accountLimits.json', '!@texts/en-US/p2p*.json', '!@texts/en-US/futures.json', '!@texts/en-US/competition.json', '!@texts/en-US/savings.json', '!@texts/en-US/staking.json', '!@texts/en-US/launchpad.json', '!@texts/en-US/cryptoCash.json', '!@texts/en-US/financeRecords.json'], {
  eager: true,
  import: 'default',
})
