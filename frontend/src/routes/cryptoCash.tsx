import { createFileRoute } from '@tanstack/react-router'
import { lazy } from 'react'
import { getLanguage } from '@/lib/cookies'

/** The page and its texts, loaded together, out of the first load (as the savings route). */
const CryptoCashPage = lazy(() =>
  Promise.all([
    import('@/features/crypto-cash/components/crypto-cash-page'),
    import('@/features/crypto-cash/lib/texts').then((m) => m.cryptoCashTexts.loadFor(getLanguage())),
  ]).then(([page]) => ({ default: page.CryptoCashPage })),
)

function CryptoCashRoute() {
  return <CryptoCashPage />
}

/**
 * /cryptoCash: crypto-backed loans (spec §2 crypto cash page), open to
 * visitors (the borrow form quotes); a signed-in user borrows and sees their
 * loans and records.
 */
export const Route = createFileRoute('/cryptoCash')({
  component: CryptoCashRoute,
})
