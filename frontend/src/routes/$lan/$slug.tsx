import { createFileRoute, notFound } from '@tanstack/react-router'
import { InfoPage } from '@/features/info/components/info-page'
import { isInfoSlug } from '@/features/info/lib/info-slugs'
import { LANGUAGES } from '@/lib/cookies'

/**
 * /{lan}/{slug}: the language-prefixed information pages the footer links to
 * (spec §2) and the Open API documentation (/{lan}/api). Any other
 * two-segment path without its own route is a 404.
 */
export const Route = createFileRoute('/$lan/$slug')({
  // Matching gate: other two-segment paths (/trade/BTC_USDT, /p2p/trading)
  // do not match this route at all, so the router's own matching (used by
  // the menus to spot links without a page) reports them as not found.
  params: {
    parse: (params) =>
      (LANGUAGES as readonly string[]).includes(params.lan) && isInfoSlug(params.slug) ? params : false,
  },
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
