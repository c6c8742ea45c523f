import { Steps } from '@chakra-ui/react'
import { LuCheck, LuListChecks } from 'react-icons/lu'
import type { TranslateFn } from '@/lib/i18n'
import { STEP_NUMBERS, type CorporateApplication } from '../api/types'
import { stepComplete, viewIndex, viewOfIndex, type StepView } from '../lib/steps'
import { useCorporateTexts } from '../lib/texts'

// Chakra's stepper fills every indicator before the current one; here a
// step looks done only when it is complete, wherever it is.
const DONE_STYLE = { bg: 'colorPalette.solid', color: 'colorPalette.contrast', borderColor: 'colorPalette.solid' }
const DONE = { ...DONE_STYLE, _complete: DONE_STYLE, _incomplete: DONE_STYLE }
const NOT_DONE = { _complete: { bg: 'bg', color: 'fg.muted', borderColor: 'border.emphasized', borderWidth: '1px' } }

/**
 * The stepper over the forms: the five steps and the review, each a button
 * to its page; a complete step shows a check (complete as the server
 * counts it, not by position). Titles show from 768 px; below, only the
 * numbers (each form's heading names its step).
 */
export function StepNav({ app, view, t, onView }: { app: CorporateApplication; view: StepView; t: TranslateFn; onView: (view: StepView) => void }) {
  const titles = [useCorporateTexts(1).t('short'), useCorporateTexts(2).t('short'), useCorporateTexts(3).t('short'), useCorporateTexts(4).t('short'), useCorporateTexts(5).t('short'), t('review.short')]
  const current = viewIndex(view)
  return (
    <nav aria-label={t('stepsLabel')}>
      <Steps.Root step={current} count={6} size="sm" colorPalette="brand" onStepChange={(d) => onView(viewOfIndex(d.step))} data-testid="corporate-steps">
        <Steps.List>
          {titles.map((title, index) => {
            const step = STEP_NUMBERS[index]
            const complete = step ? stepComplete(app, step) : app.canSubmit
            const state = step ? (complete ? t('stepState.complete') : t('stepState.incomplete')) : ''
            return (
              <Steps.Item key={index} index={index} data-complete-step={complete ? '' : undefined}>
                <Steps.Trigger
                  aria-label={[step ? t('stepNumber', { n: step }) : '', title, state].filter(Boolean).join(', ')}
                  aria-current={index === current ? 'step' : undefined}
                  data-testid={`corporate-step-trigger-${step ?? 'review'}`}
                >
                  <Steps.Indicator {...(complete ? DONE : index < current ? NOT_DONE : {})}>
                    {step && complete ? <LuCheck aria-hidden="true" /> : step ? <span aria-hidden="true">{step}</span> : <LuListChecks aria-hidden="true" />}
                  </Steps.Indicator>
                  <Steps.Title hideBelow="md">{title}</Steps.Title>
                </Steps.Trigger>
                <Steps.Separator />
              </Steps.Item>
            )
          })}
        </Steps.List>
      </Steps.Root>
    </nav>
  )
}
