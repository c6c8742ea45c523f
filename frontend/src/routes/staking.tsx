import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { getLanguage } from '@/lib/cookies'

/**
 * The page and its texts, loaded together, out of the first load (as the
 * savings route does: the component is split into the route's own chunk).
 */
const StakingPage = lazy(() =>
  Promise.all([
    import('@/features/staking/components/staking-page'),
    import('@/features/staking/lib/texts').then((m) => m.stakingTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.StakingPage })),
)

function StakingRoute() {
  return <StakingPage />
}

/**
 * /staking: locked staking (spec §2 staking page), open to visitors (the
 * products); a signed-in user also stakes and sees their stakes.
 */
export const Route = createFileRoute('/staking')({
  component: StakingRoute,
})
