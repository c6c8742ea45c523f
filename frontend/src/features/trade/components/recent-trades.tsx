import { Box, Button, Grid, Skeleton, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTexts } from '@/lib/i18n'
import { SPOT_MARKET, tradesQuery, type MarketApi, type MarketTrade, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { fixed } from '@/lib/decimal'
import { padRows, ROW_HEIGHT, rowsThatFit } from '../lib/book'
import { formatTime } from './format'
import { useFillHeight } from './order-book'

const KEEP = 50
/** Rows shown when the list is not given a height to fill. */
const DEFAULT_ROWS = 20
const COLUMNS = 'minmax(0, 1fr) minmax(0, 1fr) minmax(0, 0.8fr)'
const ROW = `${ROW_HEIGHT}px`

/** Merges pushed trades (newest first) ahead of the list, dropping duplicates. */
export function mergeTrades(pushed: MarketTrade[], old: MarketTrade[] | undefined): MarketTrade[] {
  const fresh = [...pushed].sort((a, b) => b.ts - a.ts)
  const seen = new Set(fresh.map((t) => t.id))
  return [...fresh, ...(old ?? []).filter((t) => !seen.has(t.id))].slice(0, KEEP)
}

/**
 * Live list of the pair's latest public trades: price, amount and time in
 * rows of one height, in a window of a fixed number of rows (`rows`, or as
 * many as fit the parent's height with `fill`) that never changes its height
 * as trades arrive; the older of the kept trades scroll in it.
 */
export function RecentTrades({
  pair,
  rows = DEFAULT_ROWS,
  fill = false,
  market = SPOT_MARKET,
}: {
  pair: TradePair
  /** The service of the market's data: spot by default, the futures service for a contract. */
  market?: MarketApi
  /** Rows in the window; with `fill`, the count until the height is measured. */
  rows?: number
  /** Take the parent's full height and show as many rows as fit it. */
  fill?: boolean
}) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const q = tradesQuery(pair.symbol, market)
  const { data, isLoading, isError, isFetching, refetch } = useQuery(q)
  useMarketChannel(`market_${pair.symbol}_trade_ticker`, (m) => {
    const list = Array.isArray(m.data) ? m.data : Array.isArray(m.tick) ? m.tick : undefined
    if (list) queryClient.setQueryData(q.queryKey, (old: MarketTrade[] | undefined) => mergeTrades(list as MarketTrade[], old))
  })
  const [areaRef, height] = useFillHeight(fill)
  const count = rowsThatFit(fill ? height : undefined, rows, KEEP)
  const trades = (data ?? []).slice(0, KEEP)
  return (
    <Stack gap="0" data-testid="recent-trades" h={fill ? 'full' : undefined} minH="0" fontVariantNumeric="tabular-nums">
      <Text px="2" pt="2" pb="1" fontWeight="semibold" fontSize="sm">
        {t('trades.title')}
      </Text>
      <Grid templateColumns={COLUMNS} columnGap="1" px="2" py="1" fontSize="2xs" lineHeight="short" color="fg.muted" alignItems="end">
        <Text>{t('book.price', { coin: pair.quote })}</Text>
        <Text textAlign="end">{t('book.amount', { coin: pair.base })}</Text>
        <Text textAlign="end">{t('trades.time')}</Text>
      </Grid>
      {/* The rows' window: the same height whatever the list holds (its parent's rest with `fill`). */}
      <Box ref={areaRef} flex={fill ? '1' : undefined} h={fill ? undefined : `${count * ROW_HEIGHT}px`} minH="0" overflow="hidden">
        {isLoading ? (
          <Stack gap="0" px="2" data-testid="trades-loading">
            {Array.from({ length: count }, (_, i) => (
              <Box key={i} h={ROW} py="1">
                <Skeleton h="full" />
              </Box>
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
        ) : !trades.length ? (
          <Text px="2" py="6" textAlign="center" color="fg.muted" fontSize="sm" data-testid="trades-empty">
            {t('trades.empty')}
          </Text>
        ) : (
          // A scrolling list the keyboard can scroll (so a Tab stop), named for screen readers; each trade says its side
          // in words too, not by colour alone. Fewer trades than rows leave empty rows, so the window keeps its height.
          <Stack
            gap="0"
            h={fill ? 'full' : `${count * ROW_HEIGHT}px`}
            // The rows' screen-reader words are absolutely placed: positioned here, they scroll and clip with the rows.
            position="relative"
            overflowY="auto"
            role="region"
            aria-label={t('trades.title')}
            tabIndex={0}
            focusVisibleRing="inside"
            data-testid="trades-list"
          >
            {padRows(trades, Math.max(count, trades.length)).map((tr, i) =>
              tr ? (
                <Grid
                  key={tr.id}
                  templateColumns={COLUMNS}
                  columnGap="1"
                  alignItems="center"
                  h={ROW}
                  flexShrink={0}
                  px="2"
                  fontSize="xs"
                  lineHeight={ROW}
                  whiteSpace="nowrap"
                  data-row=""
                  data-testid="market-trade"
                >
                  <Text color={tr.side === 'BUY' ? 'up' : 'down'} truncate>
                    <VisuallyHidden>{t(tr.side === 'BUY' ? 'form.buy' : 'form.sell')} </VisuallyHidden>
                    {fixed(tr.price, pair.pricePrecision)}
                  </Text>
                  <Text textAlign="end" truncate>
                    {fixed(tr.vol, pair.volumePrecision)}
                  </Text>
                  <Text textAlign="end" color="fg.muted" truncate>
                    {formatTime(tr.ts, true)}
                  </Text>
                </Grid>
              ) : (
                <Box key={`empty${i}`} aria-hidden h={ROW} flexShrink={0} data-row="" />
              ),
            )}
          </Stack>
        )}
      </Box>
    </Stack>
  )
}
