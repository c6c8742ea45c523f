import {
  Badge,
  Box,
  Button,
  EmptyState,
  Flex,
  Heading,
  HStack,
  IconButton,
  Image,
  Input,
  InputGroup,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  VStack,
} from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LuCloudOff, LuInbox, LuSearch, LuStar } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useMarketSocketOpen, useResyncAfterReconnect } from '@/features/trade/api/use-market-connection'
import { isLive } from '@/lib/capabilities'
import { fixed } from '@/lib/decimal'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { ReconnectingNotice } from '@/features/trade/components/reconnecting-notice'
import { useTexts } from '@/lib/i18n'
import { changeColor, formatRose } from '@/lib/change'
import { getMarketSocket, type MarketSocket } from '@/lib/market-socket'
import { marketOverviewQuery, type MarketPair } from '../api/get-market-overview'
import {
  applyPushedTicker,
  marketTickersQuery,
  tickerChannel,
  TICKERS_POLL_MS,
  TICKERS_SLOW_POLL_MS,
  type PairTicker,
} from '../api/get-market-tickers'
import { FAVOURITES_TAB, getMarketTab, openingTab, setMarketTab } from '../lib/market-tab'
import { matchesSearch } from '../lib/market-search'
import { useFavourites } from '../lib/use-favourites'
import { Sparkline } from './sparkline'

/** A last price at the pair's places (as sent without them), grouped in thousands. */
function formatPrice(close: string | undefined, places: number | undefined): string {
  if (close === undefined) return '—'
  if (places !== undefined) return fixed(close, places)
  const dot = close.indexOf('.')
  return fixed(close, dot < 0 ? 0 : close.length - dot - 1)
}

/**
 * Keeps the shown pairs' prices live: subscribes their market_{symbol}_ticker
 * channels and writes each push into the tickers query. The tickers poll
 * every 15 s only while the socket is down (and slowly otherwise, for the
 * hourly sparklines).
 */
function useLiveTickers(symbols: string[], socket: MarketSocket) {
  const queryClient = useQueryClient()
  const key = symbols.join(',')
  useEffect(() => {
    if (!key) return
    const offs = key.split(',').map((symbol) =>
      socket.subscribe(tickerChannel(symbol), (m) =>
        queryClient.setQueryData(marketTickersQuery.queryKey, (old: Record<string, PairTicker> | undefined) => applyPushedTicker(old, symbol, m.tick)),
      ),
    )
    return () => offs.forEach((off) => off())
  }, [key, socket, queryClient])
}

function CoinIcon({ pair }: { pair: MarketPair }) {
  if (pair.icon) {
    return <Image src={pair.icon} alt="" boxSize="6" rounded="full" loading="lazy" />
  }
  return (
    <Flex
      boxSize="6"
      rounded="full"
      bg="brand.muted"
      color="brand.fg"
      align="center"
      justify="center"
      fontSize="2xs"
      fontWeight="bold"
      aria-hidden="true"
    >
      {pair.base.slice(0, 3)}
    </Flex>
  )
}

function MarketTable({
  pairs,
  favourites,
  onToggle,
  showPrices,
  tickers,
}: {
  pairs: MarketPair[]
  favourites: string[]
  onToggle: (symbol: string) => void
  showPrices: boolean
  tickers?: Record<string, PairTicker>
}) {
  const { t } = useTexts('home')
  const trade = useTexts('trade')
  const router = useRouter()
  const showTrend = !!tickers && Object.keys(tickers).length > 0
  // A tap anywhere on a row opens its pair, as people tap rows on a phone;
  // the pair name stays the link for the keyboard and for a new tab, and
  // the row's own controls (favourite, links) keep their clicks.
  const openRow = (event: React.MouseEvent<HTMLElement>, symbol: string) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    if ((event.target as HTMLElement).closest('a, button, input, [role="button"]')) return
    if (window.getSelection()?.toString()) return // selecting a price to copy it
    router.history.push(`/trade/${symbol}`)
  }
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" interactive data-testid="market-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('markets.pair')}</Table.ColumnHeader>
            <Table.ColumnHeader hideBelow="sm">{t('markets.name')}</Table.ColumnHeader>
            {/* Long headers (mn_MN) wrap instead of pushing the change column off a phone screen. */}
            {showPrices && (
              <Table.ColumnHeader textAlign="end" whiteSpace="normal">
                {t('markets.lastPrice')}
              </Table.ColumnHeader>
            )}
            {showPrices && (
              <Table.ColumnHeader textAlign="end" whiteSpace="normal">
                {t('markets.change')}
              </Table.ColumnHeader>
            )}
            {showTrend && (
              <Table.ColumnHeader textAlign="end" hideBelow="md">
                {trade.t('markets.trend')}
              </Table.ColumnHeader>
            )}
            <Table.ColumnHeader textAlign="end" hideBelow="sm">
              {t('markets.action')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {pairs.map((pair) => {
            const favourite = favourites.includes(pair.symbol)
            const live = tickers?.[`${pair.base}${pair.quote}`.toLowerCase()]
            const close = live?.close ?? pair.close
            const rose = live?.rose ?? pair.rose
            const label = t(favourite ? 'markets.removeFavourite' : 'markets.addFavourite', { pair: pair.showName })
            return (
              <Table.Row key={pair.symbol} data-testid={`market-row-${pair.symbol}`} cursor="pointer" onClick={(e) => openRow(e, pair.symbol)}>
                <Table.Cell>
                  <HStack gap="2">
                    <IconButton
                      size="2xs"
                      variant="ghost"
                      aria-label={label}
                      aria-pressed={favourite}
                      title={label}
                      data-testid="favourite-toggle"
                      onClick={() => onToggle(pair.symbol)}
                      color={favourite ? 'yellow.500' : 'fg.subtle'}
                    >
                      <LuStar fill={favourite ? 'currentColor' : 'none'} />
                    </IconButton>
                    <CoinIcon pair={pair} />
                    {/* The pair opens its trade page: at phone width it is the only way in (no Trade column). */}
                    <AppLink href={`/trade/${pair.symbol}`} data-testid={`market-link-${pair.symbol}`} whiteSpace="nowrap">
                      <Text as="span" fontWeight="semibold">
                        {pair.base}
                        <Text as="span" color="fg.muted" fontWeight="normal">
                          /{pair.quote}
                        </Text>
                      </Text>
                    </AppLink>
                    {pair.isOpenCross && isLive('margin') && (
                      <Badge size="xs" colorPalette="brand" variant="subtle" hideBelow="sm">
                        {t('markets.margin')}
                      </Badge>
                    )}
                  </HStack>
                </Table.Cell>
                <Table.Cell hideBelow="sm" color="fg.muted">
                  {pair.longName ?? pair.base}
                </Table.Cell>
                {showPrices && (
                  <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                    {formatPrice(close, pair.pricePrecision)}
                  </Table.Cell>
                )}
                {showPrices && (
                  <Table.Cell
                    textAlign="end"
                    fontVariantNumeric="tabular-nums"
                    color={changeColor(rose, 'fg.muted')}
                  >
                    {formatRose(rose)}
                  </Table.Cell>
                )}
                {showTrend && (
                  <Table.Cell textAlign="end" hideBelow="md" py="1">
                    <Sparkline values={live?.sparkline ?? []} rose={rose} label={trade.t('markets.trendOf', { pair: pair.showName })} />
                  </Table.Cell>
                )}
                <Table.Cell textAlign="end" hideBelow="sm">
                  <Button asChild size="xs" variant="outline">
                    <AppLink href={`/trade/${pair.symbol}`} aria-label={`${t('markets.trade')} ${pair.showName}`}>
                      {t('markets.trade')}
                    </AppLink>
                  </Button>
                </Table.Cell>
              </Table.Row>
            )
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}

function Empty({ icon, title, body }: { icon: React.ReactNode; title: string; body: string }) {
  return (
    <EmptyState.Root borderWidth="1px" rounded="lg" data-testid="market-empty">
      <EmptyState.Content>
        <EmptyState.Indicator>{icon}</EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          <EmptyState.Description>{body}</EmptyState.Description>
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  )
}

/** Props of {@link MarketOverview}. */
export interface MarketOverviewProps {
  /** 'page' renders the title as the page's h1 (on /market), 'section' as an h2 (home). */
  as?: 'page' | 'section'
  initialTab?: 'favourites'
  /** The market socket (tests pass their own). */
  socket?: MarketSocket
}

/**
 * Market overview table with quote-currency tabs, search and favourites (a
 * signed-in user's follow the account, see useFavourites).
 */
export function MarketOverview({ as = 'section', initialTab, socket = getMarketSocket() }: MarketOverviewProps) {
  const { t } = useTexts('home')
  const common = useTexts('common')
  const query = useQuery(marketOverviewQuery)
  const live = useMarketSocketOpen(socket)
  // Ticker pushes missed while the socket was down are read again once it is back.
  useResyncAfterReconnect([marketTickersQuery.queryKey], socket)
  const tickers = useQuery({ ...marketTickersQuery, refetchInterval: live ? TICKERS_SLOW_POLL_MS : TICKERS_POLL_MS })
  const { favourites, toggle } = useFavourites(query.data)
  const [search, setSearch] = useState('')
  const groups = useMemo(() => query.data?.groups ?? [], [query.data])
  // The tab chosen here (or asked for by the address); until then the one
  // chosen last time, or Favourites for a user who has some.
  const [tab, setTab] = useState<string | null>(initialTab === 'favourites' ? FAVOURITES_TAB : null)
  const [remembered] = useState(getMarketTab)
  const activeTab = tab ?? openingTab(remembered, groups.map((g) => g.quote), favourites.length > 0)
  // Once the list has opened on Favourites it stays there (unstarring the
  // last pair shows the empty favourites, not another tab).
  useEffect(() => {
    if (tab === null && groups.length > 0 && activeTab === FAVOURITES_TAB) setTab(FAVOURITES_TAB)
  }, [tab, groups.length, activeTab])
  const showPrices =
    groups.some((g) => g.pairs.some((p) => p.close !== undefined)) || Object.values(tickers.data ?? {}).some((x) => x.close !== undefined)

  // A search looks through every quote group ("mnt" on the USDT tab finds
  // BTC/MNT); the Favourites tab searches the favourites only. It matches
  // symbols, and coin names only at the start of a word (see matchesSearch).
  const visible = useMemo(() => {
    const all = groups.flatMap((g) => g.pairs)
    const q = search.trim().toUpperCase()
    const base =
      activeTab === FAVOURITES_TAB ? all.filter((p) => favourites.includes(p.symbol)) : q ? all : (groups.find((g) => g.quote === activeTab)?.pairs ?? [])
    return q ? base.filter((p) => matchesSearch(p, q)) : base
  }, [groups, activeTab, favourites, search])
  useLiveTickers(
    visible.map((p) => p.symbol),
    socket,
  )

  let body: React.ReactNode
  if (query.isLoading) {
    body = (
      <Stack gap="2" aria-busy="true" aria-label={t('markets.loading')} data-testid="market-loading">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h="10" rounded="md" />
        ))}
      </Stack>
    )
  } else if (query.isError) {
    body = (
      <Stack align="center" gap="3">
        <Empty icon={<LuCloudOff />} title={t('markets.errorTitle')} body={t('markets.errorBody')} />
        <Button size="sm" variant="outline" onClick={() => void query.refetch()}>
          {common.t('retry')}
        </Button>
      </Stack>
    )
  } else if (groups.length === 0) {
    body = <Empty icon={<LuInbox />} title={t('markets.emptyTitle')} body={t('markets.emptyBody')} />
  } else if (visible.length === 0) {
    body =
      search.trim() !== '' ? (
        <Empty icon={<LuSearch />} title={t('markets.noMatch', { query: search.trim() })} body="" />
      ) : (
        <Empty icon={<LuStar />} title={t('markets.noFavouritesTitle')} body={t('markets.noFavouritesBody')} />
      )
  } else {
    body = (
      <MarketTable
        pairs={visible}
        favourites={favourites}
        onToggle={toggle}
        showPrices={showPrices}
        tickers={tickers.data}
      />
    )
  }

  // Unstarring a pair on the Favourites tab takes its row away under the keyboard: focus moves to the next
  // pair's star, or to the tab once none is left.
  const section = useRef<HTMLElement>(null)
  const toTab = useCallback(() => section.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(section, toTab)
  return (
    <Box as="section" ref={section} aria-labelledby="markets-title" data-testid="market-overview">
      <Flex justify="space-between" align={{ base: 'start', md: 'end' }} gap="4" direction={{ base: 'column', md: 'row' }} mb="5">
        <Stack gap="1">
          <Heading as={as === 'page' ? 'h1' : 'h2'} id="markets-title" size={as === 'page' ? '3xl' : '2xl'}>
            {t('markets.title')}
          </Heading>
          <Text color="fg.muted">{t('markets.subtitle')}</Text>
          {/* Prices that stop moving while the live connection is down are not taken for a quiet market. */}
          <Box alignSelf="flex-start">
            <ReconnectingNotice socket={socket} />
          </Box>
        </Stack>
        <InputGroup startElement={<LuSearch />} maxW={{ md: '64' }} w="full">
          <Input
            size="sm"
            placeholder={t('markets.search')}
            aria-label={t('markets.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
        </InputGroup>
      </Flex>
      {groups.length > 0 && (
        <Tabs.Root
          value={activeTab}
          onValueChange={(e) => {
            setTab(e.value)
            setMarketTab(e.value)
          }}
          variant="line"
          size="sm"
          mb="3"
          aria-label={t('markets.tabsLabel')}
        >
          <Tabs.List>
            <Tabs.Trigger value={FAVOURITES_TAB} data-testid="market-tab-favourites">
              <LuStar aria-hidden="true" />
              {t('markets.favourites')}
            </Tabs.Trigger>
            {groups.map((g) => (
              <Tabs.Trigger key={g.quote} value={g.quote} data-testid={`market-tab-${g.quote}`}>
                {g.quote}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
      )}
      {body}
    </Box>
  )
}
