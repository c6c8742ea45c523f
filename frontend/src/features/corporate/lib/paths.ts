/** The general page of corporate verification. */
export const CORPORATE_PATH = '/profile/corporate'
/** The steps' forms and the review (?step=1…5 or review). */
export const APPLY_PATH = '/profile/corporate/apply'
