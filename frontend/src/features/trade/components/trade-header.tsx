import { Box, Flex, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { toSpotPair } from '@/features/orders/api/orders-api'
// The quote coin's places, as the order totals of the page (and the orders pages) show them.
import { quoteAmount } from '@/features/orders/lib/order-format'
import { useTexts } from '@/lib/i18n'
import { tickerQuery, type Ticker, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { fixed } from '@/lib/decimal'
import { changeColor, formatRose } from './format'
import { ReconnectingNotice } from './reconnecting-notice'

function Stat({ label, value, color, testId }: { label: string; value: string; color?: string; testId?: string }) {
  return (
    <Stack gap="0" minW="0">
      <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
        {label}
      </Text>
      <Text fontSize="sm" fontVariantNumeric="tabular-nums" color={color} data-testid={testId} whiteSpace="nowrap">
        {value}
      </Text>
    </Stack>
  )
}

/** Pair selector and the live 24 h ticker. */
export function TradeHeader({ pair, pairs }: { pair: TradePair; pairs: TradePair[] }) {
  const { t } = useTexts('trade')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const q = tickerQuery(pair.symbol)
  const { data: ticker } = useQuery(q)
  useMarketChannel(`market_${pair.symbol}_ticker`, (m) => {
    if (m.tick && typeof m.tick === 'object') queryClient.setQueryData(q.queryKey, (old: Ticker | undefined) => ({ ...old, ...(m.tick as Ticker) }))
  })
  const p = pair.pricePrecision
  return (
    <Flex
      data-testid="trade-header"
      borderWidth="1px"
      rounded="lg"
      px="4"
      py="3"
      gap={{ base: '3', md: '6' }}
      align="center"
      wrap="wrap"
      bg="bg.panel"
    >
      <Box>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            aria-label={t('header.pair')}
            data-testid="pair-select"
            value={pair.routeSymbol}
            fontWeight="bold"
            onChange={(e) => navigate({ to: '/trade/$symbol', params: { symbol: e.target.value } })}
          >
            {pairs.map((x) => (
              <option key={x.routeSymbol} value={x.routeSymbol}>
                {x.showName}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Box>
      <Stack gap="0">
        <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" color={changeColor(ticker?.rose)} data-testid="last-price">
          {fixed(ticker?.close ?? pair.close, p)}
        </Text>
      </Stack>
      <HStack gap={{ base: '3', md: '6' }} wrap="wrap">
        <Stat label={t('header.change')} value={formatRose(ticker?.rose)} color={changeColor(ticker?.rose)} testId="ticker-change" />
        <Stat label={t('header.high')} value={fixed(ticker?.high, p)} />
        <Stat label={t('header.low')} value={fixed(ticker?.low, p)} />
        <Stat label={t('header.volume', { coin: pair.base })} value={fixed(ticker?.vol, pair.volumePrecision)} />
        {/* A turnover is an amount of the quote coin: at its places (MNT 2, USDT 6), as the panel's totals. */}
        <Stat label={t('header.amount', { coin: pair.quote })} value={quoteAmount(ticker?.amount, toSpotPair(pair))} testId="ticker-turnover" />
      </HStack>
      <Box ms="auto">
        <ReconnectingNotice />
      </Box>
    </Flex>
  )
}
