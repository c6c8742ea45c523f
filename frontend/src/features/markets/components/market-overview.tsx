import { Box, Button, EmptyState, Flex, Heading, Input, InputGroup, Skeleton, Stack, Tabs, Text, VStack } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LuCloudOff, LuInbox, LuSearch, LuStar } from 'react-icons/lu'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { ReconnectingNotice } from '@/features/trade/components/reconnecting-notice'
import { getCurrency } from '@/lib/cookies'
import { useTexts } from '@/lib/i18n'
import { getMarketSocket, type MarketSocket } from '@/lib/market-socket'
import { marketOverviewQuery } from '../api/get-market-overview'
import { ratesQuery } from '../api/get-rates'
import { useMarketTickers } from '../api/use-live-tickers'
import { shownCurrency } from '../lib/fiat'
import { FAVOURITES_TAB, getMarketTab, openingTab, setMarketTab } from '../lib/market-tab'
import { marketRows, nextSort, sortRows, type MarketSort, type SortKey } from '../lib/market-rows'
import { visiblePairs } from '../lib/market-search'
import { useFavourites } from '../lib/use-favourites'
import { MarketSortSelect, MarketTable } from './market-table'

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
 * signed-in user's follow the account, see useFavourites): each pair's last
 * price, its price in the user's currency, its 24 h change, high, low and
 * volume and its trend line, live over the market socket, sortable by every
 * figure (the headers; a phone's select).
 */
export function MarketOverview({ as = 'section', initialTab, socket = getMarketSocket() }: MarketOverviewProps) {
  const { t } = useTexts('home')
  const common = useTexts('common')
  const query = useQuery(marketOverviewQuery)
  const rates = useQuery(ratesQuery)
  // The currency is chosen in the header, which reloads the page (spec §4).
  const currency = getCurrency()
  // The order chosen by a column's header (or a phone's select); it stays across tabs and searches.
  const [sort, setSort] = useState<MarketSort | undefined>()
  const onSort = useCallback((key: SortKey) => setSort((current) => nextSort(current, key)), [])
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
  // A search looks through every quote group ("mnt" on the USDT tab finds
  // BTC/MNT); the Favourites tab searches the favourites only (see visiblePairs).
  const visible = useMemo(() => visiblePairs(groups, activeTab, favourites, search), [groups, activeTab, favourites, search])
  // The shown pairs' prices live over the market socket (polled while it is down).
  const tickers = useMarketTickers(
    visible.map((p) => p.symbol),
    socket,
  )
  const showPrices =
    groups.some((g) => g.pairs.some((p) => p.close !== undefined)) || Object.values(tickers.data ?? {}).some((x) => x.close !== undefined)
  const rows = useMemo(() => sortRows(marketRows(visible, tickers.data, rates.data, currency), sort), [visible, tickers.data, rates.data, currency, sort])

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
      <>
        {showPrices && <MarketSortSelect sort={sort} onChange={setSort} currency={shownCurrency(currency)} />}
        <MarketTable
          rows={rows}
          favourites={favourites}
          onToggle={toggle}
          showPrices={showPrices}
          showTrend={!!tickers.data && Object.keys(tickers.data).length > 0}
          sort={sort}
          onSort={onSort}
          currency={shownCurrency(currency)}
        />
      </>
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
