import { createFileRoute } from '@tanstack/react-router'
import { MaintenancePage } from '@/features/maintenance/components/maintenance-page'

/** Search of /maintenance: `area` names the product area that is not live yet (absent: futures). */
export interface MaintenanceSearch {
  area?: string
}

export const Route = createFileRoute('/maintenance')({
  validateSearch: (search: Record<string, unknown>): MaintenanceSearch =>
    typeof search.area === 'string' && search.area ? { area: search.area } : {},
  component: MaintenancePage,
})
