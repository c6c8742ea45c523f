import { describe, expect, it } from 'vitest'
import type { Missing } from '../api/types'
import { completeCount, firstIncompleteStep, nextView, parseStepParam, previousView, stepComplete, viewIndex, viewOfIndex } from './steps'

const app = (missing: Missing[]) => ({ missing })
const m = (step: 1 | 2 | 3 | 4 | 5, field: string, rule = 'required'): Missing => ({ step, field, rule })

describe('step navigation', () => {
  it('reads ?step= as a step 1–5 or the review, anything else as none', () => {
    expect(parseStepParam('3')).toBe(3)
    expect(parseStepParam(5)).toBe(5)
    expect(parseStepParam('review')).toBe('review')
    for (const bad of ['0', '6', 'two', '', undefined, null, 2.5, '1.0']) expect(parseStepParam(bad), String(bad)).toBeUndefined()
  })

  it('resumes at the first step a submit still needs something of, the review when none', () => {
    expect(firstIncompleteStep(app([m(1, 'fullName'), m(3, 'people')]))).toBe(1)
    expect(firstIncompleteStep(app([m(4, 'files.proof_of_address', 'document_required'), m(5, 'pep')]))).toBe(4)
    expect(firstIncompleteStep(app([]))).toBe('review')
  })

  it('counts the business address with step 2, where it is asked, not step 1, where the API keeps it', () => {
    const a = app([m(1, 'businessAddress.city')])
    expect(stepComplete(a, 1)).toBe(true)
    expect(stepComplete(a, 2)).toBe(false)
    expect(firstIncompleteStep(a)).toBe(2)
    expect(completeCount(a)).toBe(4)
  })

  it('goes forward to the review and back to step 1', () => {
    expect(nextView(1)).toBe(2)
    expect(nextView(5)).toBe('review')
    expect(nextView('review')).toBe('review')
    expect(previousView('review')).toBe(5)
    expect(previousView(2)).toBe(1)
    expect(previousView(1)).toBeUndefined()
  })

  it('maps views to the stepper\'s indexes and back', () => {
    for (const v of [1, 2, 3, 4, 5, 'review'] as const) expect(viewOfIndex(viewIndex(v))).toBe(v)
    expect(viewIndex('review')).toBe(5)
  })
})
