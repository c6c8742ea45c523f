import { Button, Flex, Skeleton, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTexts } from '@/lib/i18n'
import { tradesQuery, type MarketTrade, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { fixed } from '@/lib/decimal'
import { formatTime } from './format'

const KEEP = 50

/** Merges pushed trades (newest first) ahead of the list, dropping duplicates. */
export function mergeTrades(pushed: MarketTrade[], old: MarketTrade[] | undefined): MarketTrade[] {
  const fresh = [...pushed].sort((a, b) => b.ts - a.ts)
  const seen = new Set(fresh.map((t) => t.id))
  return [...fresh, ...(old ?? []).filter((t) => !seen.has(t.id))].slice(0, KEEP)
}

/** Live list of the pair's latest public trades. */
export function RecentTrades({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const q = tradesQuery(pair.symbol)
  const { data, isLoading, isError, isFetching, refetch } = useQuery(q)
  useMarketChannel(`market_${pair.symbol}_trade_ticker`, (m) => {
    const list = Array.isArray(m.data) ? m.data : Array.isArray(m.tick) ? m.tick : undefined
    if (list) queryClient.setQueryData(q.queryKey, (old: MarketTrade[] | undefined) => mergeTrades(list as MarketTrade[], old))
  })
  return (
    <Stack gap="1" data-testid="recent-trades">
      <Text px="2" pt="2" fontWeight="semibold" fontSize="sm">
        {t('trades.title')}
      </Text>
      <Flex px="2" justify="space-between" fontSize="2xs" color="fg.muted">
        <Text flex="1">{t('book.price', { coin: pair.quote })}</Text>
        <Text flex="1" textAlign="end">
          {t('book.amount', { coin: pair.base })}
        </Text>
        <Text flex="1" textAlign="end">
          {t('trades.time')}
        </Text>
      </Flex>
      {isLoading ? (
        <Stack px="2" gap="1">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} h="4" />
          ))}
        </Stack>
      ) : isError && !data ? (
        // Trades that could not be read are not "no trades yet".
        <Stack px="2" py="6" align="center" gap="3" role="alert" data-testid="trades-error">
          <Text color="fg.error" fontSize="sm" textAlign="center">
            {t('trades.error')}
          </Text>
          <Button size="xs" variant="outline" loading={isFetching} onClick={() => void refetch()} data-testid="trades-retry">
            {t('trades.retry')}
          </Button>
        </Stack>
      ) : !data?.length ? (
        <Text px="2" py="6" textAlign="center" color="fg.muted" fontSize="sm" data-testid="trades-empty">
          {t('trades.empty')}
        </Text>
      ) : (
        // A scrolling list the keyboard can scroll (so a Tab stop), named for screen readers; each trade says its side
        // in words too, not by colour alone.
        <Stack gap="0" maxH="96" overflowY="auto" role="region" aria-label={t('trades.title')} tabIndex={0} data-testid="trades-list">
          {data.slice(0, 30).map((tr) => (
            <Flex key={tr.id} px="2" py="0.5" fontSize="xs" fontVariantNumeric="tabular-nums" data-testid="market-trade">
              <Text flex="1" color={tr.side === 'BUY' ? 'up' : 'down'}>
                <VisuallyHidden>{t(tr.side === 'BUY' ? 'form.buy' : 'form.sell')} </VisuallyHidden>
                {fixed(tr.price, pair.pricePrecision)}
              </Text>
              <Text flex="1" textAlign="end">
                {fixed(tr.vol, pair.volumePrecision)}
              </Text>
              <Text flex="1" textAlign="end" color="fg.muted">
                {formatTime(tr.ts, true)}
              </Text>
            </Flex>
          ))}
        </Stack>
      )}
    </Stack>
  )
}
