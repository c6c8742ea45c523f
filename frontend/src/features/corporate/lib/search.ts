/**
 * The apply page's search (?step=1…5 or review), apart from the steps'
 * logic so the route, which parses it before the page's code arrives,
 * brings nothing else into the first load.
 */

/** What the apply page shows: a step, or the review before submitting. */
export type StepView = 1 | 2 | 3 | 4 | 5 | 'review'

/** The step of a ?step= value (1–5 or review), or undefined. */
export function parseStepParam(raw: unknown): StepView | undefined {
  if (raw === 'review') return 'review'
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-5]$/.test(raw) ? Number(raw) : NaN
  return n === 1 || n === 2 || n === 3 || n === 4 || n === 5 ? n : undefined
}
