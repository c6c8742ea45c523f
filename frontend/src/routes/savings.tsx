import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { getLanguage } from '@/lib/cookies'

/**
 * The page and its texts, loaded together (the texts as the competition
 * route's loader would load them). This function, with the component below,
 * is split out of the first load into the route's own small chunk
 * (autoCodeSplitting), so the page's chunk and the list of shared chunks it
 * preloads are named there rather than in the entry: the route adds only
 * its entry in the route tree to the first load.
 */
const SavingsPage = lazy(() =>
  Promise.all([
    import('@/features/savings/components/savings-page'),
    import('@/features/savings/lib/texts').then((m) => m.savingsTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.SavingsPage })),
)

function SavingsRoute() {
  return <SavingsPage />
}

/**
 * /savings: flexible savings (spec §2 savings page), open to visitors (the
 * products); a signed-in user also sees their savings and records.
 */
export const Route = createFileRoute('/savings')({
  component: SavingsRoute,
})
