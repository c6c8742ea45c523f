import type { CorporateApplication, StepNumber } from '../api/types'
import { STEP_NUMBERS } from '../api/types'
import type { StepView } from './search'
import { displayStep } from './server-errors'

/**
 * Navigation between the steps: which are complete, where a visit starts
 * (the first incomplete step), and the step of the address.
 */

export { parseStepParam, type StepView } from './search'

/** True when nothing a submit needs is missing from the step (as the forms show it). */
export function stepComplete(app: Pick<CorporateApplication, 'missing'>, step: StepNumber): boolean {
  return !app.missing.some((m) => displayStep(m) === step)
}

/** True when the step has been saved at least once. */
export function stepSaved(app: Pick<CorporateApplication, 'steps'>, step: StepNumber): boolean {
  return app.steps.some((s) => s.step === step && s.saved)
}

/** The first step a submit still needs something of; the review when none. */
export function firstIncompleteStep(app: Pick<CorporateApplication, 'missing'>): StepView {
  return STEP_NUMBERS.find((s) => !stepComplete(app, s)) ?? 'review'
}

/** How many steps are complete. */
export function completeCount(app: Pick<CorporateApplication, 'missing'>): number {
  return STEP_NUMBERS.filter((s) => stepComplete(app, s)).length
}

/** The view after a step ("Save and continue"): the next step, the review after step 5. */
export function nextView(view: StepView): StepView {
  if (view === 'review' || view === 5) return 'review'
  return (view + 1) as StepNumber
}

/** The view before: the previous step, step 5 before the review, none before step 1. */
export function previousView(view: StepView): StepView | undefined {
  if (view === 'review') return 5
  return view === 1 ? undefined : ((view - 1) as StepNumber)
}

/** The stepper's index of a view (0–4 the steps, 5 the review). */
export function viewIndex(view: StepView): number {
  return view === 'review' ? 5 : view - 1
}

/** The view of a stepper index. */
export function viewOfIndex(index: number): StepView {
  return index >= 5 ? 'review' : ((Math.max(0, index) + 1) as StepNumber)
}
