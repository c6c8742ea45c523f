import { Badge } from '@chakra-ui/react'
import type { TranslateFn } from '@/lib/i18n'

/** The caller's merchant state as a badge. */
export function LabelBadgeMerchant({ state, t }: { state: 'none' | 'pending' | 'approved'; t: TranslateFn }) {
  const palette = state === 'approved' ? 'green' : state === 'pending' ? 'orange' : 'gray'
  return (
    <Badge colorPalette={palette} variant="subtle" data-testid="merchant-badge">
      {t(`merchant.state.${state}`)}
    </Badge>
  )
}
