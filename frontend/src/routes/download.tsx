import { createFileRoute } from '@tanstack/react-router'
import { DownloadPage, type Platform } from '@/features/download/components/download-page'

interface DownloadSearch {
  platform?: Platform
}

export const Route = createFileRoute('/download')({
  validateSearch: (search: Record<string, unknown>): DownloadSearch =>
    search.platform === 'ios' || search.platform === 'android' ? { platform: search.platform } : {},
  component: DownloadRoute,
})

function DownloadRoute() {
  const { platform } = Route.useSearch()
  return <DownloadPage platform={platform} />
}
