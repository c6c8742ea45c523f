import { createFileRoute, notFound } from '@tanstack/react-router'
import { InfoPage, isInfoSlug } from '@/features/info/components/info-page'
import { LANGUAGES } from '@/lib/cookies'

/**
 * /{lan}/{slug}: the language-prefixed information pages the footer links to
 * (spec §2). Any other two-segment path without its own route is a 404.
 */
export const Route = createFileRoute('/$lan/$slug')({
  beforeLoad: ({ params }) => {
    if (!(LANGUAGES as readonly string[]).includes(params.lan) || !isInfoSlug(params.slug)) {
      throw notFound()
    }
  },
  component: InfoRoute,
})

function InfoRoute() {
  const { slug } = Route.useParams()
  return isInfoSlug(slug) ? <InfoPage slug={slug} /> : null
}
