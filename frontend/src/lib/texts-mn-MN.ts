import type { Translations } from './content-client'

/**
 * The mn-MN page texts, one chunk (loaded by bundled-texts.ts). Pages whose
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
export default import.meta.glob<Translations>(['@texts/mn-MN/*.json', '!@texts/mn-MN/openApi.json', '!@texts/mn-MN/corporateVerification*.json', '!@texts/mn-MN/account.json', '!@texts/mn-MN/support.json', '!@texts/mn-MN/identity.json', '!@texts/mn-MN/accountLimits.json', '!@texts/mn-MN/p2p*.json', '!@texts/mn-MN/futures.json', '!@texts/mn-MN/competition.json', '!@texts/mn-MN/savings.json', '!@texts/mn-MN/staking.json', '!@texts/mn-MN/launchpad.json', '!@texts/mn-MN/cryptoCash.json', '!@texts/mn-MN/financeRecords.json'], {
  eager: true,
  import: 'default',
})
