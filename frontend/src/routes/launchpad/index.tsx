import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { getLanguage } from '@/lib/cookies'

/** The page and its texts, loaded together, out of the first load (as the savings route). */
const LaunchpadPage = lazy(() =>
  Promise.all([
    import('@/features/launchpad/components/launchpad-page'),
    import('@/features/launchpad/lib/texts').then((m) => m.launchpadTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.LaunchpadPage })),
)

function LaunchpadRoute() {
  return <LaunchpadPage />
}

/** /launchpad: the new coin sales (spec §2 launchpad page), open to visitors. */
export const Route = createFileRoute('/launchpad/')({
  component: LaunchpadRoute,
})
