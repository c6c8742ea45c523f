import { Box, Button, Container, Grid, GridItem, Heading, Skeleton, Stack, Tabs, Text, useBreakpointValue } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { apiSymbol, pairsQuery, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { useResyncAfterReconnect } from '../api/use-market-connection'
import type { BestPrices } from '../lib/order-form'
import { KlineChart } from './kline-chart'
import { OrderBook } from './order-book'
import { OrderForm, type PickedPrice } from './order-form'
import { RecentTrades } from './recent-trades'
import { TradeHeader } from './trade-header'
import { UserOrders } from './user-orders'

function Panel({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <Box borderWidth="1px" rounded="lg" bg="bg.panel" overflow="hidden" data-testid={testId}>
      {children}
    </Box>
  )
}

/** What the page's layouts draw: the pair, the pair list, the price picked in the book and the book's best prices. */
interface LayoutProps {
  pair: TradePair
  pairs: TradePair[]
  onPick: (p: string) => void
  picked?: PickedPrice
  best?: BestPrices
}

/**
 * The best bid and ask of a pair's order book (its unmerged step 0, kept
 * live by its depth channel; the order book shares both while it shows that
 * step). The order form values a market order by amount at them. Read here
 * rather than from the book itself, which on phones is only mounted while
 * its tab is open.
 */
function useBestPrices(pair: TradePair | undefined): BestPrices | undefined {
  const { data } = useLiveDepth(pair?.symbol, 0)
  const bid = data?.buys?.[0]?.[0]
  const ask = data?.asks?.[0]?.[0]
  return useMemo(() => (bid === undefined && ask === undefined ? undefined : { bid, ask }), [bid, ask])
}

function Desktop({ pair, pairs, onPick, picked, best }: LayoutProps) {
  return (
    <Stack gap="3">
      <TradeHeader pair={pair} pairs={pairs} />
      <Grid templateColumns="minmax(0,1fr) 280px 300px" gap="3" alignItems="start">
        <GridItem minW="0">
          <Stack gap="3">
            <Panel>
              <KlineChart pair={pair} />
            </Panel>
            <UserOrders pair={pair} />
          </Stack>
        </GridItem>
        <GridItem>
          <Stack gap="3">
            <Panel>
              <OrderBook pair={pair} onPick={onPick} />
            </Panel>
            <Panel>
              <RecentTrades pair={pair} />
            </Panel>
          </Stack>
        </GridItem>
        <GridItem>
          <Panel>
            <OrderForm pair={pair} picked={picked} best={best} />
          </Panel>
        </GridItem>
      </Grid>
    </Stack>
  )
}

/**
 * The phone tabs share the row by the length of their names (not in equal
 * thirds) and keep each name on one line: "Захиалгын дэвтэр" needs more
 * room than a third of a 390 px screen, "График" much less.
 */
export const FIT_TAB = { flex: '1 1 auto', minW: '0', px: '2', whiteSpace: 'nowrap', justifyContent: 'center' } as const

function Mobile({ pair, pairs, onPick, picked, best }: LayoutProps) {
  const { t } = useTexts('trade')
  const [tab, setTab] = useState('chart')
  return (
    <Stack gap="3">
      <TradeHeader pair={pair} pairs={pairs} />
      <Panel>
        <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" fitted lazyMount unmountOnExit>
          <Tabs.List data-testid="mobile-tabs">
            <Tabs.Trigger value="chart" data-testid="mobile-tab-chart" {...FIT_TAB}>
              {t('tabs.chart')}
            </Tabs.Trigger>
            <Tabs.Trigger value="book" data-testid="mobile-tab-book" {...FIT_TAB}>
              {t('tabs.book')}
            </Tabs.Trigger>
            <Tabs.Trigger value="trades" data-testid="mobile-tab-trades" {...FIT_TAB}>
              {t('tabs.trades')}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="chart" p="0">
            <KlineChart pair={pair} height={300} />
          </Tabs.Content>
          <Tabs.Content value="book" p="0">
            <OrderBook
              pair={pair}
              onPick={(p) => {
                onPick(p)
              }}
            />
          </Tabs.Content>
          <Tabs.Content value="trades" p="0">
            <RecentTrades pair={pair} />
          </Tabs.Content>
        </Tabs.Root>
      </Panel>
      <Panel>
        <OrderForm pair={pair} picked={picked} best={best} />
      </Panel>
      <UserOrders pair={pair} />
    </Stack>
  )
}

/** Spot trade page: header, chart, book, trades, order form and the user's orders. */
export function TradePage({ symbol }: { symbol: string }) {
  const { t } = useTexts('trade')
  const { data: pairs, isLoading, isError, isFetching, refetch } = useQuery(pairsQuery)
  const [picked, setPicked] = useState<PickedPrice>()
  const mobile = useBreakpointValue({ base: true, lg: false }, { ssr: false }) ?? false
  const pair = pairs?.find((p) => p.symbol === apiSymbol(symbol))
  const onPick = (price: string) => setPicked((old) => ({ price, n: (old?.n ?? 0) + 1 }))
  const best = useBestPrices(pair)
  // After a dropped market socket, what was pushed meanwhile is read again.
  useResyncAfterReconnect()

  let body: React.ReactNode
  if (isLoading) {
    body = (
      <Stack gap="3" data-testid="trade-loading">
        <Skeleton h="16" rounded="lg" />
        <Skeleton h="96" rounded="lg" />
      </Stack>
    )
  } else if (isError && !pairs) {
    // The pairs could not be read (the exchange is down or the network dropped): a way to read them again.
    body = (
      <Stack py="16" align="center" gap="3" role="alert" data-testid="trade-error">
        <Heading size="md">{t('page.error')}</Heading>
        <Button size="sm" variant="outline" loading={isFetching} onClick={() => void refetch()} data-testid="trade-retry">
          {t('page.retry')}
        </Button>
        <AppLink href="/market" color="brand.fg">
          {t('page.toMarkets')}
        </AppLink>
      </Stack>
    )
  } else if (!pair) {
    body = (
      <Stack py="16" align="center" gap="3" data-testid="trade-not-found">
        <Heading size="md">{t('page.notFound')}</Heading>
        <Text color="fg.muted">{symbol}</Text>
        <AppLink href="/market" color="brand.fg">
          {t('page.toMarkets')}
        </AppLink>
      </Stack>
    )
  } else {
    const props = { pair, pairs: pairs ?? [], onPick, picked, best }
    body = mobile ? <Mobile {...props} /> : <Desktop {...props} />
  }
  return (
    <Container maxW="8xl" px={{ base: '2', md: '4' }} py="3" data-testid="trade-page">
      <Heading as="h1" srOnly>
        {pair ? t('page.title', { pair: pair.showName }) : t('page.heading')}
      </Heading>
      {body}
    </Container>
  )
}
