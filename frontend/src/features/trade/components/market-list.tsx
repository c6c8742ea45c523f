import { Box, Button, Flex, IconButton, Input, InputGroup, Skeleton, Stack, Table, Tabs, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { LuSearch, LuStar } from 'react-icons/lu'
import { marketOverviewQuery, type MarketGroup } from '@/features/markets/api/get-market-overview'
import { useMarketTickers } from '@/features/markets/api/use-live-tickers'
import { SortHeader } from '@/features/markets/components/market-table'
import { formatPrice } from '@/features/markets/lib/market-format'
import { marketRows, nextSort, sortRows, type MarketRow, type MarketSort } from '@/features/markets/lib/market-rows'
import { visiblePairs } from '@/features/markets/lib/market-search'
import { FAVOURITES_TAB, getMarketTab, setMarketTab } from '@/features/markets/lib/market-tab'
import { useFavourites } from '@/features/markets/lib/use-favourites'
import { changeColor, formatRose } from '@/lib/change'
import { useTexts } from '@/lib/i18n'
import { getMarketSocket, type MarketSocket } from '@/lib/market-socket'
import { pairSymbol } from '@/lib/pair-symbol'
import type { TradePair } from '../api/trade-api'
import { useFocusRescue } from '../lib/use-focus-rescue'

/** The list's sortable columns: the pair's name, and the figures of the markets page's sort. */
export type ListSortKey = 'pair' | 'price' | 'change'

/** The list's order; undefined is the market's own order. */
export type ListSort = { key: 'pair'; dir: 'asc' | 'desc' } | MarketSort

/**
 * The order after a click on a column's header: the pair's name A to Z, Z
 * to A, then the market's order; a figure as on the markets page (high to
 * low, low to high, the market's order).
 */
export function nextListSort(current: ListSort | undefined, key: ListSortKey): ListSort | undefined {
  if (key !== 'pair') return nextSort(current?.key === 'pair' ? undefined : current, key)
  if (current?.key !== 'pair') return { key, dir: 'asc' }
  return current.dir === 'asc' ? { key, dir: 'desc' } : undefined
}

/** The rows in the list's order (a figure's sort keeps rows without it last, as on the markets page). */
export function sortListRows(rows: MarketRow[], sort: ListSort | undefined): MarketRow[] {
  if (sort?.key !== 'pair') return sortRows(rows, sort)
  const sign = sort.dir === 'asc' ? 1 : -1
  return [...rows].sort((a, b) => sign * a.pair.name.localeCompare(b.pair.name))
}

/**
 * The tab the list opens on: Favourites when the user last chose it (here
 * or on the markets page) and the shown pair is one of them, else the shown
 * pair's quote coin (its row is then in view), else the first quote group.
 */
function openingListTab(groups: MarketGroup[], quote: string, current: string, favourites: string[]): string {
  if (getMarketTab() === FAVOURITES_TAB && favourites.some((s) => pairSymbol(s) === current)) return FAVOURITES_TAB
  if (groups.some((g) => g.quote === quote)) return quote
  return groups[0]?.quote ?? FAVOURITES_TAB
}

/** Height of one row (fixed: the list scrolls by whole rows and never jumps as prices change). */
const ROW_H = '10'

/**
 * A narrow list (the desktop page's side panel): smaller figures, and on a
 * quote coin's tab the pairs without their quote coin (the tab names it),
 * so that the pair, its price and its change fit side by side.
 */
const NARROW = '@container market-list (max-width: 20rem)'

/** Props of {@link MarketList}. */
export interface MarketListProps {
  /** The pair on screen: its row is marked, its quote coin's tab opens first. */
  pair: Pick<TradePair, 'routeSymbol' | 'quote'>
  /** Called after a row was chosen (a popover or sheet around the list closes). */
  onChosen?: (routeSymbol: string) => void
  /** Take the parent's height (the desktop page's panel); otherwise the list has its own. */
  fill?: boolean
  /** The market socket (tests pass their own). */
  socket?: MarketSocket
}

/**
 * The trade page's market list: a coin search (as the markets page's),
 * Favourites and quote-coin tabs, and per pair a favourite star (the markets
 * page's favourites, synced with a signed-in user's account), its last price
 * and 24 h change, live over the market socket and sortable by pair, price
 * and change. Choosing a row (click, Enter or Space) opens that pair's trade
 * page without a page load; the shown pair's row is marked. The rows have a
 * fixed height and scroll inside the list's own box.
 */
export function MarketList({ pair, onChosen, fill = false, socket = getMarketSocket() }: MarketListProps) {
  const { t } = useTexts('trade')
  const navigate = useNavigate()
  const query = useQuery(marketOverviewQuery)
  const { favourites, toggle } = useFavourites(query.data)
  const groups = useMemo(() => query.data?.groups ?? [], [query.data])
  const current = pairSymbol(pair.routeSymbol)
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<ListSort | undefined>()
  const onSort = useCallback((key: ListSortKey) => setSort((old) => nextListSort(old, key)), [])
  // The tab chosen here; until then the one the list opens on (kept once the market is known,
  // so that unstarring the shown pair on Favourites does not switch the tab under the user).
  const [tab, setTab] = useState<string | null>(null)
  const activeTab = tab ?? openingListTab(groups, pair.quote, current, favourites)
  useEffect(() => {
    if (tab === null && groups.length > 0) setTab(activeTab)
  }, [tab, groups.length, activeTab])

  const visible = useMemo(() => visiblePairs(groups, activeTab, favourites, search), [groups, activeTab, favourites, search])
  const tickers = useMarketTickers(
    visible.map((p) => p.symbol),
    socket,
  )
  const rows = useMemo(() => sortListRows(marketRows(visible, tickers.data, undefined, ''), sort), [visible, tickers.data, sort])

  const choose = (symbol: string) => {
    if (pairSymbol(symbol) !== current) void navigate({ to: '/trade/$symbol', params: { symbol } })
    onChosen?.(symbol)
  }

  // The shown pair's row in view once the rows first show (and on another tab), without scrolling the page.
  const scroller = useRef<HTMLDivElement>(null)
  const shownOn = useRef<string | null>(null)
  useLayoutEffect(() => {
    const box = scroller.current
    if (!box || rows.length === 0 || shownOn.current === activeTab) return
    shownOn.current = activeTab
    const row = box.querySelector<HTMLElement>('[aria-current="true"]')
    if (!row) return
    const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop
    if (top < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - (box.clientHeight - row.offsetHeight) / 2)
    }
  }, [rows.length, activeTab])

  // Unstarring a pair on Favourites takes its row away under the keyboard: focus moves to the next star, or the tab.
  const root = useRef<HTMLDivElement>(null)
  const toTab = useCallback(() => root.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(root, toTab)

  /** Up and down move between the rows; Enter or Space on a row chooses it. */
  const onRowKey = (e: React.KeyboardEvent<HTMLElement>, symbol: string) => {
    if (e.target !== e.currentTarget) return // the star's own keys
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      choose(symbol)
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const next = e.key === 'ArrowDown' ? e.currentTarget.nextElementSibling : e.currentTarget.previousElementSibling
      if (next instanceof HTMLElement) next.focus()
    }
  }

  let body: React.ReactNode
  if (query.isLoading) {
    body = (
      <Stack gap="1" p="2" aria-busy="true" aria-label={t('markets.loading')} data-testid="market-list-loading">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} h="8" rounded="sm" />
        ))}
      </Stack>
    )
  } else if (query.isError && !query.data) {
    body = (
      <Stack align="center" gap="3" py="8" px="4" role="alert" textAlign="center" data-testid="market-list-error">
        <Text fontSize="sm" color="fg.muted">
          {t('markets.error')}
        </Text>
        <Button size="xs" variant="outline" loading={query.isFetching} onClick={() => void query.refetch()} data-testid="market-list-retry">
          {t('markets.retry')}
        </Button>
      </Stack>
    )
  } else if (rows.length === 0) {
    const text =
      search.trim() !== ''
        ? t('markets.noMatch', { query: search.trim() })
        : activeTab === FAVOURITES_TAB && groups.length > 0
          ? t('markets.noFavourites')
          : t('markets.empty')
    body = (
      <Text fontSize="sm" color="fg.muted" textAlign="center" py="8" px="4" role="status" data-testid="market-list-empty">
        {text}
      </Text>
    )
  } else {
    const figure = { textAlign: 'end', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', px: '2' } as const
    // Searches and favourites mix quote coins: their pairs keep the quote coin however narrow the list.
    const quoteShown = activeTab === FAVOURITES_TAB || search.trim() !== ''
    body = (
      <Table.Root
        size="sm"
        stickyHeader
        aria-label={t('markets.listLabel')}
        css={{ [NARROW]: { '& td, & th': { fontSize: 'xs', paddingInline: '1' } } }}
      >
        <Table.Header>
          <Table.Row fontSize="xs" bg="bg.panel">
            <SortHeader column="pair" label={t('markets.pair')} sort={sort} onSort={onSort} align="start" testId="market-list-sort-pair" />
            <SortHeader column="price" label={t('markets.lastPrice')} sort={sort} onSort={onSort} testId="market-list-sort-price" />
            <SortHeader column="change" label={t('markets.change')} sort={sort} onSort={onSort} testId="market-list-sort-change" />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map(({ pair: p, close, rose }) => {
            const starred = favourites.includes(p.symbol)
            const here = pairSymbol(p.symbol) === current
            const label = t(starred ? 'markets.removeFavourite' : 'markets.addFavourite', { pair: p.showName })
            return (
              <Table.Row
                key={p.symbol}
                data-testid="market-list-row"
                data-symbol={p.symbol}
                aria-current={here ? 'true' : undefined}
                tabIndex={0}
                h={ROW_H}
                cursor="pointer"
                bg={here ? 'bg.emphasized' : undefined}
                _hover={{ bg: here ? 'bg.emphasized' : 'bg.muted' }}
                focusVisibleRing="inside"
                onClick={(e) => {
                  if (!(e.target as HTMLElement).closest('button')) choose(p.symbol)
                }}
                onKeyDown={(e) => onRowKey(e, p.symbol)}
              >
                {/* The pair takes the room the figures leave (max-width 0 in an auto table) and is cut short there: a price is never cut. */}
                <Table.Cell px="1" py="0" w="full" maxW="0">
                  <Flex align="center" gap="1" minW="0">
                    <IconButton
                      size="2xs"
                      variant="ghost"
                      aria-label={label}
                      aria-pressed={starred}
                      title={label}
                      data-testid="market-list-star"
                      color={starred ? 'yellow.500' : 'fg.subtle'}
                      flexShrink="0"
                      onClick={() => toggle(p.symbol)}
                    >
                      <LuStar fill={starred ? 'currentColor' : 'none'} />
                    </IconButton>
                    <Text as="span" fontWeight="semibold" truncate title={p.showName}>
                      {p.base}
                      <Text as="span" color="fg.muted" fontWeight="normal" css={quoteShown ? undefined : { [NARROW]: { display: 'none' } }}>
                        /{p.quote}
                      </Text>
                    </Text>
                  </Flex>
                </Table.Cell>
                <Table.Cell {...figure} py="0" data-testid="market-list-price">
                  {formatPrice(close, p.pricePrecision)}
                </Table.Cell>
                <Table.Cell {...figure} py="0" color={changeColor(rose, 'fg.muted')} data-testid="market-list-change">
                  {formatRose(rose)}
                </Table.Cell>
              </Table.Row>
            )
          })}
        </Table.Body>
      </Table.Root>
    )
  }

  return (
    <Flex
      ref={root}
      direction="column"
      h={fill ? 'full' : undefined}
      minH="0"
      css={{ containerType: 'inline-size', containerName: 'market-list' }}
      data-testid="market-list"
    >
      <Box px="2" pt="2" pb="1">
        <InputGroup startElement={<LuSearch />}>
          <Input
            size="sm"
            placeholder={t('markets.search')}
            aria-label={t('markets.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            data-testid="market-list-search"
          />
        </InputGroup>
      </Box>
      {groups.length > 0 && (
        <Tabs.Root
          value={activeTab}
          onValueChange={(e) => {
            setTab(e.value)
            setMarketTab(e.value)
          }}
          variant="line"
          size="sm"
          aria-label={t('markets.tabsLabel')}
        >
          <Tabs.List overflowX="auto" px="1">
            <Tabs.Trigger value={FAVOURITES_TAB} data-testid="market-list-tab-favourites" px="2">
              <LuStar aria-hidden="true" />
              {t('markets.favourites')}
            </Tabs.Trigger>
            {groups.map((g) => (
              <Tabs.Trigger key={g.quote} value={g.quote} data-testid={`market-list-tab-${g.quote}`} px="2">
                {g.quote}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
      )}
      <Box
        ref={scroller}
        flex={fill ? '1' : undefined}
        h={fill ? undefined : '22rem'}
        minH="0"
        overflowY="auto"
        overscrollBehavior="contain"
        data-testid="market-list-scroll"
      >
        {body}
      </Box>
    </Flex>
  )
}
