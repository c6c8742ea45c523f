import { Box, Button, CloseButton, Container, Drawer, Grid, Heading, HStack, Portal, Skeleton, Stack, Tabs, Text, useBreakpointValue } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useMemo, useState } from 'react'
import { AppLink } from '@/components/layout/app-link'
import { SIDE_COLORS } from '@/components/form/side-colors'
import type { TradePair } from '@/features/trade/api/trade-api'
import { useResyncAfterReconnect } from '@/features/trade/api/use-market-connection'
import type { ChartPriceLine } from '@/features/trade/components/chart/chart-view'
import { OrderBook } from '@/features/trade/components/order-book'
import type { PickedPrice } from '@/features/trade/components/order-form'
import { RecentTrades } from '@/features/trade/components/recent-trades'
import { useTexts } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { FUTURES_API, futuresKeys, marketInfoQuery, publicInfoQuery, type ContractInfo, type OrderSide } from '../api/futures-api'
import { useFuturesLiveUpdates } from '../api/live'
import { useBestPrices } from '../api/use-futures'
import { contractPair, DEFAULT_CONTRACT } from '../lib/contract'
import { futuresTexts } from '../lib/texts'
import { AccountSummary } from './account-summary'
import { FuturesHeader } from './futures-header'
import { FuturesOrderForm } from './order-form'
import type { ContractMap } from './order-lists'
import { PositionsPanel } from './positions-panel'

/** The chart (lightweight-charts and its tools, shared with the spot page) loads in its own chunk. */
const KlineChart = lazy(() => import('@/features/trade/components/kline-chart').then((m) => ({ default: m.KlineChart })))

/** The wallet's transfer modal, with the futures account chosen (loaded when first opened). */
const TransferModal = lazy(() => import('@/features/wallet/components/transfer-modal').then((m) => ({ default: m.TransferModal })))

function ChartSlot({ pair, height, fill, mark }: { pair: TradePair; height?: number; fill?: boolean; mark?: ChartPriceLine }) {
  return (
    <Suspense fallback={<Skeleton h={fill ? 'full' : `${height ?? 380}px`} rounded="0" data-testid="futures-chart-loading" />}>
      <KlineChart pair={pair} height={height} fill={fill} market={FUTURES_API} priceLine={mark} />
    </Suspense>
  )
}

function Panel({ children, testId, ...rest }: { children: React.ReactNode; testId?: string } & React.ComponentProps<typeof Box>) {
  return (
    <Box position="relative" minH="0" minW="0" borderWidth="1px" rounded="lg" bg="bg.panel" overflow="hidden" data-testid={testId} {...rest}>
      {children}
    </Box>
  )
}

/** The mark price as the chart's labelled line. */
function useMarkLine(symbol: string): ChartPriceLine | undefined {
  const { t } = futuresTexts.useTexts()
  const { data } = useQuery(marketInfoQuery(symbol))
  const price = data?.markPrice
  const title = t('chart.mark')
  return useMemo(() => (price ? { price, title } : undefined), [price, title])
}

interface LayoutProps {
  contract: ContractInfo
  contracts: ContractMap
  pair: TradePair
  best?: { bid?: string; ask?: string }
  picked?: PickedPrice
  onPick: (price: string) => void
  onTransfer: () => void
}

/** Height of the desktop's market row (chart, book and trades, the form beside them). */
export const MARKET_ROW_HEIGHT = 560

/**
 * The desktop page: the header; the chart, the book over the recent trades
 * and the order form (with the account under it) in one row; the positions
 * and orders under the chart and book.
 */
function Desktop({ contract, contracts, pair, best, picked, onPick, onTransfer }: LayoutProps) {
  const mark = useMarkLine(contract.symbol)
  return (
    <Stack gap="3" pb="3" data-testid="futures-desktop">
      <FuturesHeader contract={contract} pair={pair} />
      <Grid
        gap="3"
        templateColumns={{ base: 'minmax(0,1fr) 260px 300px', xl: 'minmax(0,1fr) 280px 320px' }}
        templateRows={`${MARKET_ROW_HEIGHT}px auto`}
        templateAreas={'"chart book form" "panel panel form"'}
      >
        <Panel gridArea="chart">
          <ChartSlot pair={pair} fill mark={mark} />
        </Panel>
        <Stack gridArea="book" gap="3" minH="0">
          <Panel flex="3">
            <OrderBook pair={pair} onPick={onPick} fill market={FUTURES_API} />
          </Panel>
          <Panel flex="2">
            <RecentTrades pair={pair} fill market={FUTURES_API} />
          </Panel>
        </Stack>
        <Box gridArea="form" alignSelf="start" borderWidth="1px" rounded="lg" bg="bg.panel" data-testid="futures-form-panel">
          <FuturesOrderForm contract={contract} best={best} picked={picked} onTransfer={onTransfer} />
          <AccountSummary contract={contract} onTransfer={onTransfer} />
        </Box>
        <Box gridArea="panel" minW="0">
          <PositionsPanel contract={contract} contracts={contracts} />
        </Box>
      </Grid>
    </Stack>
  )
}

/** Phone tabs share the row by the length of their names, each on one line. */
const FIT_TAB = { flex: '1 1 auto', minW: '0', px: '2', whiteSpace: 'nowrap', justifyContent: 'center' } as const

/**
 * The phone page stacks the header, the chart, book and trades as tabs, and
 * the positions; a Buy/Long and Sell/Short bar stays at the bottom and opens
 * the order form in a sheet (it closes when the order is placed).
 */
function Mobile({ contract, contracts, pair, best, picked, onPick, onTransfer }: LayoutProps) {
  const { t } = futuresTexts.useTexts()
  const trade = useTexts('trade')
  const [tab, setTab] = useState('chart')
  const [sheet, setSheet] = useState<OrderSide>()
  const mark = useMarkLine(contract.symbol)
  const pick = (p: string) => {
    onPick(p)
    setSheet((s) => s ?? 'BUY')
  }
  return (
    <Stack gap="3" pb="20" data-testid="futures-mobile">
      <FuturesHeader contract={contract} pair={pair} />
      <Panel>
        <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" fitted lazyMount unmountOnExit>
          <Tabs.List>
            <Tabs.Trigger value="chart" data-testid="futures-mobile-tab-chart" {...FIT_TAB}>
              {trade.t('tabs.chart')}
            </Tabs.Trigger>
            <Tabs.Trigger value="book" data-testid="futures-mobile-tab-book" {...FIT_TAB}>
              {trade.t('tabs.book')}
            </Tabs.Trigger>
            <Tabs.Trigger value="trades" data-testid="futures-mobile-tab-trades" {...FIT_TAB}>
              {trade.t('tabs.trades')}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="chart" p="0">
            <ChartSlot pair={pair} height={300} mark={mark} />
          </Tabs.Content>
          <Tabs.Content value="book" p="0">
            <OrderBook pair={pair} onPick={pick} market={FUTURES_API} />
          </Tabs.Content>
          <Tabs.Content value="trades" p="0">
            <RecentTrades pair={pair} market={FUTURES_API} />
          </Tabs.Content>
        </Tabs.Root>
      </Panel>
      <PositionsPanel contract={contract} contracts={contracts} />
      <HStack
        position="fixed"
        insetX="0"
        bottom="0"
        zIndex="sticky"
        gap="2"
        px="3"
        pt="2"
        pb="calc(var(--chakra-spacing-2) + env(safe-area-inset-bottom))"
        bg="bg.panel"
        borderTopWidth="1px"
        data-testid="futures-mobile-bar"
      >
        {(['BUY', 'SELL'] as const).map((s) => (
          <Button key={s} flex="1" size="lg" {...SIDE_COLORS[s]} _hover={{ opacity: 0.9 }} onClick={() => setSheet(s)} data-testid={`futures-mobile-${s.toLowerCase()}`}>
            {t(s === 'BUY' ? 'form.buyLong' : 'form.sellShort')}
          </Button>
        ))}
      </HStack>
      <Drawer.Root open={sheet !== undefined} onOpenChange={(e) => !e.open && setSheet(undefined)} placement="bottom">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content roundedTop="xl" maxH="90dvh" data-testid="futures-order-sheet">
              <Drawer.Header py="2" px="4">
                <Drawer.Title fontSize="md">{t('page.sheetTitle', { symbol: contract.symbol })}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body p="0" overflowY="auto">
                <FuturesOrderForm contract={contract} best={best} picked={picked} side={sheet} onPlaced={() => setSheet(undefined)} onTransfer={onTransfer} />
                <AccountSummary contract={contract} onTransfer={onTransfer} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('page.closeSheet')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </Stack>
  )
}

/**
 * /futures/$symbol: the futures trading page of a contract (header, chart
 * with the mark price, book and trades, the order form with the account,
 * positions and orders), or what stands in its way: loading, the contracts
 * that could not be read (with a retry), a contract that does not exist.
 */
export function FuturesPage({ symbol }: { symbol: string }) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const { data: info, isLoading, isError, isFetching, refetch } = useQuery(publicInfoQuery)
  const mobile = useBreakpointValue({ base: true, lg: false }, { ssr: false }) ?? false
  const contract = info?.contractList?.find((c) => c.symbol === symbol)
  const contracts = useMemo<ContractMap>(() => new Map((info?.contractList ?? []).map((c) => [c.symbol, c])), [info])
  const pair = useMemo(() => (contract ? contractPair(contract) : undefined), [contract])
  const best = useBestPrices(pair?.symbol)
  const [picked, setPicked] = useState<PickedPrice>()
  const [transfer, setTransfer] = useState(false)
  const onPick = (price: string) => setPicked((old) => ({ price, n: (old?.n ?? 0) + 1 }))
  // After a dropped market socket, what was pushed meanwhile is read again (the spot page's keys cover the contract's).
  useResyncAfterReconnect()
  // The user's positions, orders and trigger orders are read again as soon as user_futures tells of a change.
  const { isSignedIn } = useUserInfo()
  useFuturesLiveUpdates(isSignedIn)

  let body: React.ReactNode
  if (isLoading) {
    body = (
      <Stack gap="3" data-testid="futures-loading">
        <Skeleton h="16" rounded="lg" />
        <Skeleton h="96" rounded="lg" />
      </Stack>
    )
  } else if (isError && !info) {
    body = (
      <Stack py="16" align="center" gap="3" role="alert" data-testid="futures-error">
        <Heading size="md">{t('page.error')}</Heading>
        <Button size="sm" variant="outline" loading={isFetching} onClick={() => void refetch()} data-testid="futures-retry">
          {t('common.retry')}
        </Button>
      </Stack>
    )
  } else if (!contract || !pair) {
    body = (
      <Stack py="16" align="center" gap="3" data-testid="futures-not-found">
        <Heading size="md">{t('page.notFound')}</Heading>
        <Text color="fg.muted">{symbol}</Text>
        {symbol !== DEFAULT_CONTRACT && contracts.has(DEFAULT_CONTRACT) && (
          <AppLink href={`/futures/${DEFAULT_CONTRACT}`} color="brand.fg">
            {t('page.toDefault', { symbol: DEFAULT_CONTRACT })}
          </AppLink>
        )}
      </Stack>
    )
  } else {
    const props: LayoutProps = { contract, contracts, pair, best, picked, onPick, onTransfer: () => setTransfer(true) }
    body = mobile ? <Mobile {...props} /> : <Desktop {...props} />
  }
  return (
    <Container maxW={{ base: '8xl', lg: 'none' }} px={{ base: '2', md: '4' }} pt="3" pb="3" data-testid="futures-page">
      <Heading as="h1" srOnly>
        {contract ? t('page.title', { symbol: contract.symbol }) : t('page.heading')}
      </Heading>
      {body}
      {transfer && (
        <Suspense fallback={null}>
          <TransferModal
            open
            account="futures"
            coin={contract?.marginCoin ?? 'USDT'}
            onClose={() => {
              setTransfer(false)
              void queryClient.invalidateQueries({ queryKey: futuresKeys.assets })
            }}
          />
        </Suspense>
      )}
    </Container>
  )
}
