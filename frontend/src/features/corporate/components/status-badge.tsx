import { Badge } from '@chakra-ui/react'
import type { TranslateFn } from '@/lib/i18n'
import type { CorporateStatus } from '../api/types'

const PALETTE: Record<CorporateStatus, string> = {
  none: 'gray',
  draft: 'blue',
  pending: 'orange',
  approved: 'green',
  rejected: 'red',
}

/** The application's state as a badge. */
export function StatusBadge({ status, t, size = 'md' }: { status: CorporateStatus; t: TranslateFn; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge colorPalette={PALETTE[status]} variant="subtle" size={size} data-testid="corporate-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  )
}
