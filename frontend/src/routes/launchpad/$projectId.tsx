import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { getLanguage } from '@/lib/cookies'

/** The page and its texts, loaded together, out of the first load (as the savings route). */
const LaunchDetailPage = lazy(() =>
  Promise.all([
    import('@/features/launchpad/components/launch-detail-page'),
    import('@/features/launchpad/lib/texts').then((m) => m.launchpadTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.LaunchDetailPage })),
)

function LaunchDetailRoute() {
  const { projectId } = Route.useParams()
  return <LaunchDetailPage key={projectId} projectId={projectId} />
}

/**
 * /launchpad/<id>: one sale, its phases and figures, Commit during the
 * subscription and, signed in, the allocation report. Open to visitors.
 */
export const Route = createFileRoute('/launchpad/$projectId')({
  component: LaunchDetailRoute,
})
