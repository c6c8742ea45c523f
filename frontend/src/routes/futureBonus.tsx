import { createFileRoute } from '@tanstack/react-router'
import { CompetitionPage } from '@/features/competition/components/competition-page'
import { getLanguage } from '@/lib/cookies'

/**
 * /futureBonus (optionally ?id=): the futures trading competition, the
 * futures menu's competition link. Open to visitors and served whether or
 * not futures trading is live (spec §2: the competition link is the one
 * futures link not sent to /maintenance). Its page and its texts are lazy
 * chunks; the loader waits for the texts.
 */
export const Route = createFileRoute('/futureBonus')({
  loader: () => import('@/features/competition/lib/texts').then((m) => m.competitionTexts.loadFor(getLanguage())),
  component: CompetitionPage,
})
