import { Badge, Box, Spinner } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'
import type { MarketSocket } from '@/lib/market-socket'
import { useMarketReconnecting } from '../api/use-market-connection'

/**
 * A small "Reconnecting…" badge while the live market connection is down,
 * so a book that stops moving is not taken for a quiet market. The live
 * region is always there (empty while connected) so the change is read out.
 */
export function ReconnectingNotice({ socket }: { socket?: MarketSocket }) {
  const { t } = useTexts('trade')
  const down = useMarketReconnecting(socket)
  return (
    <Box role="status" aria-live="polite">
      {down && (
        <Badge colorPalette="orange" variant="subtle" gap="1.5" px="2" py="1" title={t('live.reconnectingHint')} data-testid="market-reconnecting">
          <Spinner size="xs" borderWidth="1.5px" aria-hidden="true" />
          {t('live.reconnecting')}
        </Badge>
      )}
    </Box>
  )
}
