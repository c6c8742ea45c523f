import { createFileRoute } from '@tanstack/react-router'
import { CorporateApplyPage } from '@/features/corporate/components/apply-page'
import { parseStepParam, type StepView } from '@/features/corporate/lib/search'
import { requireAuth } from '@/lib/auth-guard'

/**
 * /profile/corporate/apply?step=1…5|review: the steps' forms and the
 * review (signed-in only); without a step, the first incomplete one.
 */
export const Route = createFileRoute('/profile/corporate/apply')({
  beforeLoad: requireAuth,
  validateSearch: (raw: Record<string, unknown>): { step?: StepView } => {
    const step = parseStepParam(raw.step)
    return step === undefined ? {} : { step }
  },
  component: ApplyRoute,
})

function ApplyRoute() {
  const { step } = Route.useSearch()
  return <CorporateApplyPage view={step} />
}
