import { Box, Button, CloseButton, Container, Drawer, Grid, Heading, HStack, Portal, Skeleton, Stack, Tabs, Text, useBreakpointValue, useMediaQuery } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { apiSymbol, pairsQuery, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { useResyncAfterReconnect } from '../api/use-market-connection'
import type { BestPrices, OrderSide } from '../lib/order-form'
import { OrderBook } from './order-book'
import { MarketList } from './market-list'
import { OrderForm, SIDE_COLORS, type PickedPrice } from './order-form'
import { RecentTrades } from './recent-trades'
import { TradeHeader } from './trade-header'
import { UserOrders } from './user-orders'

/**
 * The chart (lightweight-charts, its indicators and tools: about half of the
 * page's script) loads in its own chunk, so the book and the order form are
 * usable before it arrives.
 */
const KlineChart = lazy(() => import('./kline-chart').then((m) => ({ default: m.KlineChart })))

/** The chart's place while its chunk loads. */
function ChartSlot(props: { pair: TradePair; height?: number; fill?: boolean }) {
  return (
    <Suspense fallback={<Skeleton h={props.fill ? 'full' : `${props.height ?? 380}px`} rounded="0" data-testid="chart-chunk-loading" />}>
      <KlineChart {...props} />
    </Suspense>
  )
}

function Panel({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <Box borderWidth="1px" rounded="lg" bg="bg.panel" overflow="hidden" data-testid={testId}>
      {children}
    </Box>
  )
}

/** What the page's layouts draw: the pair, the price picked in the book and the book's best prices. */
interface LayoutProps {
  pair: TradePair
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

/** Where the desktop page is wide enough for the market list beside the chart (1440 px screens are). */
const WIDE_QUERY = '(min-width: 1400px)'

/** The least height the desktop panels are given: below it the page scrolls rather than squash the book and form. */
export const MIN_DESKTOP_HEIGHT = 640

/**
 * Keeps an element as high as the rest of the window below its top (at
 * least min), as the window resizes and as what sits above it changes (the
 * announcement bar going away makes the body shorter). The height is set on
 * the element itself, not through state: a change re-renders none of the
 * panels inside.
 */
function useRestOfWindow(min: number) {
  const ref = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current
      if (!el) return
      const top = el.getBoundingClientRect().top + window.scrollY
      el.style.height = `${Math.max(min, Math.floor(window.innerHeight - top))}px`
    }
    measure()
    window.addEventListener('resize', measure)
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure)
    ro?.observe(document.body)
    return () => {
      window.removeEventListener('resize', measure)
      ro?.disconnect()
    }
  }, [min])
  return ref
}

/**
 * Children that wait for the page's first paint: the panels a trader does
 * not need to place an order (market list, recent trades, the user's
 * orders) render after the book and the form, so those are usable sooner.
 */
function AfterFirstPaint({ children, fallback }: { children: React.ReactNode; fallback?: React.ReactNode }) {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setReady(true), 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      if (timer) clearTimeout(timer)
    }
  }, [])
  return ready ? children : (fallback ?? null)
}

/** A panel that takes its grid area's whole height and keeps what does not fit inside it. */
function FillPanel({ children, area, testId, scroll }: { children: React.ReactNode; area: string; testId?: string; scroll?: boolean }) {
  return (
    // Positioned, so that what is absolutely placed inside (screen-reader text of the rows, sr-only spans) is clipped
    // with the rest rather than lengthening the page below the window.
    <Box gridArea={area} position="relative" minH="0" minW="0" borderWidth="1px" rounded="lg" bg="bg.panel" overflowX="hidden" overflowY={scroll ? 'auto' : 'hidden'} data-testid={testId}>
      {children}
    </Box>
  )
}

/**
 * The desktop page fits the window: the ticker on top, then the chart with
 * the user's orders under it, the book with the recent trades under it, and
 * the order form at the right, all of fixed size (the panels scroll inside,
 * nothing jumps as the book changes). Where it is wide enough (1400 px and
 * up) the market list sits left of the chart.
 */
function Desktop({ pair, onPick, picked, best }: LayoutProps) {
  const wide = useMediaQuery([WIDE_QUERY], { ssr: false })[0] ?? false
  const ref = useRestOfWindow(MIN_DESKTOP_HEIGHT)
  return (
    <Stack ref={ref} gap="3" pb="3" data-testid="trade-desktop" data-wide={wide ? '' : undefined}>
      <TradeHeader pair={pair} />
      <Grid
        flex="1"
        minH="0"
        gap="3"
        templateColumns={wide ? '240px minmax(0,1fr) 264px 300px' : 'minmax(0,1fr) 264px 300px'}
        templateRows="minmax(0,1fr) minmax(0,34%)"
        templateAreas={wide ? '"list chart book form" "orders orders trades form"' : '"chart book form" "orders trades form"'}
      >
        {wide && (
          <FillPanel area="list" testId="trade-market-list">
            <AfterFirstPaint>
              <MarketList pair={pair} fill />
            </AfterFirstPaint>
          </FillPanel>
        )}
        <FillPanel area="chart">
          <ChartSlot pair={pair} fill />
        </FillPanel>
        <Box gridArea="orders" position="relative" minH="0" minW="0" overflowY="auto" rounded="lg" css={{ '& > *': { minHeight: '100%' } }} data-testid="trade-user-orders">
          <AfterFirstPaint>
            <UserOrders pair={pair} />
          </AfterFirstPaint>
        </Box>
        <FillPanel area="book">
          <OrderBook pair={pair} onPick={onPick} fill />
        </FillPanel>
        <FillPanel area="trades">
          <AfterFirstPaint>
            <RecentTrades pair={pair} fill />
          </AfterFirstPaint>
        </FillPanel>
        <FillPanel area="form" scroll>
          <OrderForm pair={pair} picked={picked} best={best} />
        </FillPanel>
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

/**
 * On a phone the chart, book and trades are tabs above the user's orders;
 * a Buy / Sell bar stays at the bottom of the screen and opens the order
 * form in a sheet on that side (it closes when the order is placed).
 */
function Mobile({ pair, onPick, picked, best }: LayoutProps) {
  const { t } = useTexts('trade')
  const [tab, setTab] = useState('chart')
  const [sheet, setSheet] = useState<OrderSide>()
  const [side, setSide] = useState<OrderSide>('BUY')
  const open = (s: OrderSide) => {
    setSide(s)
    setSheet(s)
  }
  // A price picked in the book opens the form with it.
  const pick = (p: string) => {
    onPick(p)
    setSheet(side)
  }
  return (
    <Stack gap="3" pb="20">
      <TradeHeader pair={pair} />
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
            <ChartSlot pair={pair} height={300} />
          </Tabs.Content>
          <Tabs.Content value="book" p="0">
            <OrderBook pair={pair} onPick={pick} />
          </Tabs.Content>
          <Tabs.Content value="trades" p="0">
            <RecentTrades pair={pair} />
          </Tabs.Content>
        </Tabs.Root>
      </Panel>
      <UserOrders pair={pair} />
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
        data-testid="mobile-trade-bar"
      >
        {(['BUY', 'SELL'] as const).map((s) => (
          <Button key={s} flex="1" size="lg" {...SIDE_COLORS[s]} _hover={{ opacity: 0.9 }} onClick={() => open(s)} data-testid={`mobile-${s.toLowerCase()}`}>
            {t(s === 'BUY' ? 'form.buy' : 'form.sell')}
          </Button>
        ))}
      </HStack>
      <Drawer.Root open={sheet !== undefined} onOpenChange={(e) => !e.open && setSheet(undefined)} placement="bottom">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content roundedTop="xl" maxH="90dvh" data-testid="mobile-order-sheet">
              <Drawer.Header py="2" px="4">
                <Drawer.Title fontSize="md">{t('page.sheetTitle', { pair: pair.showName })}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body p="0" overflowY="auto">
                <OrderForm pair={pair} picked={picked} best={best} side={sheet ?? side} onPlaced={() => setSheet(undefined)} />
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
    const props = { pair, onPick, picked, best }
    body = mobile ? <Mobile {...props} /> : <Desktop {...props} />
  }
  return (
    <Container maxW={{ base: '8xl', lg: 'none' }} px={{ base: '2', md: '4' }} pt="3" pb={{ base: '3', lg: '0' }} data-testid="trade-page">
      <Heading as="h1" srOnly>
        {pair ? t('page.title', { pair: pair.showName }) : t('page.heading')}
      </Heading>
      {body}
    </Container>
  )
}
