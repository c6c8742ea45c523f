import { Box, Button, Container, Flex, Heading, HStack, Stack, Tabs, Text, useBreakpointValue } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LuChartCandlestick, LuListX } from 'react-icons/lu'
import { DataTable, type DataLayout } from '@/components/data/data-table'
import { HISTORY_WINDOW_DAYS } from '@/components/data/history-range'
import { Pager, pageCount, type PagerLabels } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { marketTickersQuery } from '@/features/markets/api/get-market-tickers'
import { AmendDialog, type AmendTarget } from '@/features/trade/components/amend-dialog'
import { useFocusRescue } from '@/features/trade/lib/use-focus-rescue'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import {
  HISTORY_REFRESH_MS,
  OPEN_REFRESH_MS,
  openOrdersQuery,
  orderHistoryQuery,
  spotPairsQuery,
  tradeHistoryQuery,
  type SpotOrder,
  type SpotPair,
} from '../api/orders-api'
import { emptyKey, filterOpenOrders, historyFilter, nextSearch, ORDER_TABS, PAGE_SIZE, pageSlice, type OrdersSearch, type OrderTab } from '../lib/order-filters'
import { pairOf } from '../lib/order-format'
import { CancelAllDialog } from './cancel-all-dialog'
import { orderColumns, tradeColumns } from './order-columns'
import { OrderDetail } from './order-detail'
import { OrderFilters } from './order-filters'
import { tableState, useCancel, useErrorToast, type Cancel } from './order-hooks'

/** Pager texts of the orders texts. */
export function pagerLabels(t: TranslateFn, nav: string): PagerLabels {
  return {
    nav,
    prev: t('pager.prev'),
    next: t('pager.next'),
    page: (page) => t('pager.page', { page }),
    status: (page, pages) => t('pager.status', { page, pages }),
  }
}

/**
 * A page that no longer exists (orders were cancelled, filled or aged out
 * of the window since the link was made) falls back to the last one.
 */
function useClampPage(page: number, count: number | undefined, search: OrdersSearch, onSearch: (next: OrdersSearch) => void) {
  useEffect(() => {
    if (count !== undefined && count > 0 && page > pageCount(count, PAGE_SIZE)) onSearch(nextSearch(search, { page: pageCount(count, PAGE_SIZE) }))
  }, [page, count, search, onSearch])
}

function OpenOrdersTab({
  search,
  onSearch,
  pairs,
  onDetail,
  cancels,
}: {
  search: OrdersSearch
  onSearch: (next: OrdersSearch) => void
  pairs: SpotPair[] | undefined
  onDetail: (o: SpotOrder) => void
  cancels: Cancel
}) {
  const { t } = useTexts('orders')
  const [confirming, setConfirming] = useState(false)
  const query = useQuery({ ...openOrdersQuery(search.symbol ?? ''), refetchInterval: OPEN_REFRESH_MS })
  useErrorToast(query.isError, t('error'))
  const all = query.data ?? []
  const matching = filterOpenOrders(all, search.side)
  const { rows, page } = pageSlice(matching, search.page ?? 1)
  useClampPage(search.page ?? 1, query.data ? matching.length : undefined, search, onSearch)
  // Open stop-limit orders say whether the last price has reached their stop.
  const hasStops = all.some((o) => o.type === 'STOP_LIMIT')
  const tickers = useQuery({ ...marketTickersQuery, enabled: hasStops }).data
  const lastPrices = useMemo(() => (tickers ? Object.fromEntries(Object.entries(tickers).map(([k, v]) => [k, v.close])) : undefined), [tickers])
  const [amending, setAmending] = useState<AmendTarget | null>(null)
  const columns = useMemo(() => orderColumns(t, pairs, false, lastPrices, setAmending), [t, pairs, lastPrices])
  const { cancel, cancelAll, pending } = cancels
  const pair = search.symbol ? pairOf(pairs, search.symbol) : undefined
  return (
    <Stack gap="3">
      <HStack justify="space-between" flexWrap="wrap" gap="2">
        <Text fontSize="sm" color="fg.muted" data-testid="open-count">
          {t('count', { n: matching.length })}
        </Text>
        {all.length > 0 && (
          <Button size="sm" variant="outline" colorPalette="red" onClick={() => setConfirming(true)} data-testid="orders-cancel-all">
            <LuListX aria-hidden="true" />
            {pair ? t('actions.cancelAllPair', { pair: pair.showName }) : t('actions.cancelAll')}
          </Button>
        )}
      </HStack>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(o) => o.order_id}
        label={t('tabs.open')}
        testId="open-orders"
        rowTestId="open-order"
        {...tableState(t, query)}
        emptyText={t(`empty.${emptyKey(search, 'open')}`)}
        emptyTestId="open-orders-empty"
        actionsLabel={t('cols.actions')}
        stickyActions
        actions={(o) => (
          <>
            <Button size="xs" variant="ghost" aria-label={t('actions.detailsOf', { id: o.order_id })} onClick={() => onDetail(o)} data-testid="order-details">
              {t('actions.details')}
            </Button>
            <Button
              size="xs"
              variant="outline"
              aria-label={t('actions.cancelOf', { id: o.order_id })}
              loading={pending.has(o.order_id)}
              onClick={() => cancel.mutate(o)}
              data-testid="order-cancel"
            >
              {t('actions.cancel')}
            </Button>
          </>
        )}
      />
      <Pager
        page={page}
        pageSize={PAGE_SIZE}
        count={matching.length}
        onPageChange={(p) => onSearch(nextSearch(search, { page: p }))}
        labels={pagerLabels(t, t('tabs.open'))}
        testId="open-pager"
      />
      <AmendDialog order={amending} onClose={() => setAmending(null)} />
      <CancelAllDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => cancelAll.mutate({ symbol: search.symbol ?? '', pair: pair?.showName }, { onSettled: () => setConfirming(false) })}
        pair={pair?.showName}
        count={all.length}
        busy={cancelAll.isPending}
      />
    </Stack>
  )
}

function OrderHistoryTab({
  search,
  onSearch,
  pairs,
  onDetail,
}: {
  search: OrdersSearch
  onSearch: (next: OrdersSearch) => void
  pairs: SpotPair[] | undefined
  onDetail: (o: SpotOrder) => void
}) {
  const { t } = useTexts('orders')
  // The window is fixed when the filters change, not on every render, so the query key stays put.
  const filter = useMemo(() => historyFilter(search, 'history'), [search])
  const query = useQuery({ ...orderHistoryQuery(filter), placeholderData: keepPreviousData, refetchInterval: HISTORY_REFRESH_MS })
  useClampPage(filter.page, query.data?.count, search, onSearch)
  useErrorToast(query.isError, t('error'))
  // Cards on phones, a table from md (the list's own rule, settled here: the reason an order ended goes under its status
  // in a table and on its own line of a card).
  const layout = useBreakpointValue<DataLayout>({ base: 'cards', md: 'table' }, { ssr: false }) ?? 'table'
  const columns = useMemo(() => orderColumns(t, pairs, true, undefined, undefined, layout), [t, pairs, layout])
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted" data-testid="history-count">
        {t('count', { n: query.data?.count ?? 0 })}
      </Text>
      <DataTable
        columns={columns}
        rows={query.data?.list ?? []}
        rowKey={(o) => o.order_id}
        layout={layout}
        label={t('tabs.history')}
        testId="order-history"
        rowTestId="history-order"
        {...tableState(t, query)}
        emptyText={t(`empty.${emptyKey(search, 'history')}`)}
        emptyTestId="order-history-empty"
        actionsLabel={t('cols.actions')}
        stickyActions
        actions={(o) => (
          <Button size="xs" variant="ghost" aria-label={t('actions.detailsOf', { id: o.order_id })} onClick={() => onDetail(o)} data-testid="order-details">
            {t('actions.details')}
          </Button>
        )}
      />
      <Pager
        page={filter.page}
        pageSize={PAGE_SIZE}
        count={query.data?.count ?? 0}
        onPageChange={(p) => onSearch(nextSearch(search, { page: p }))}
        labels={pagerLabels(t, t('tabs.history'))}
        testId="history-pager"
      />
    </Stack>
  )
}

function TradeHistoryTab({
  search,
  onSearch,
  pairs,
}: {
  search: OrdersSearch
  onSearch: (next: OrdersSearch) => void
  pairs: SpotPair[] | undefined
}) {
  const { t } = useTexts('orders')
  const filter = useMemo(() => historyFilter(search, 'trades'), [search])
  const query = useQuery({ ...tradeHistoryQuery(filter), placeholderData: keepPreviousData, refetchInterval: HISTORY_REFRESH_MS })
  useClampPage(filter.page, query.data?.count, search, onSearch)
  useErrorToast(query.isError, t('error'))
  const columns = useMemo(() => tradeColumns(t, pairs), [t, pairs])
  return (
    <Stack gap="3">
      <Text fontSize="sm" color="fg.muted" data-testid="trades-count">
        {t('count', { n: query.data?.count ?? 0 })}
      </Text>
      <DataTable
        columns={columns}
        rows={query.data?.list ?? []}
        rowKey={(tr) => tr.trade_id + tr.order_id}
        label={t('tabs.trades')}
        testId="trade-history"
        rowTestId="history-trade"
        {...tableState(t, query)}
        emptyText={t(`empty.${emptyKey(search, 'trades')}`)}
        emptyTestId="trade-history-empty"
      />
      <Pager
        page={filter.page}
        pageSize={PAGE_SIZE}
        count={query.data?.count ?? 0}
        onPageChange={(p) => onSearch(nextSearch(search, { page: p }))}
        labels={pagerLabels(t, t('tabs.trades'))}
        testId="trades-pager"
      />
    </Stack>
  )
}

/**
 * /order/spot: the signed-in user's spot orders. Tabs for open orders
 * (cancel, cancel all), finished orders and trades, with pair, side,
 * status and time range filters (last 7 to 180 days), pages, and an order's detail
 * with its fills in a side panel, which links to the order's own page.
 */
export function OrdersPage({ search, onSearch }: { search: OrdersSearch; onSearch: (next: OrdersSearch) => void }) {
  const { t } = useTexts('orders')
  const tab: OrderTab = search.tab ?? 'open'
  const pairs = useQuery(spotPairsQuery).data
  const cancels = useCancel()
  const [detail, setDetail] = useState<SpotOrder | null>(null)
  const phone = useBreakpointValue({ base: true, sm: false }, { ssr: false }) ?? false
  const tradePair = search.symbol ? pairOf(pairs, search.symbol).routeSymbol : 'BTC_USDT'
  // A cancelled order's row goes away under the keyboard: focus moves to the next order's button (or the tab).
  const pageRef = useRef<HTMLDivElement>(null)
  const toTab = useCallback(() => pageRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(pageRef, toTab)
  return (
    <Container ref={pageRef} maxW="7xl" py={{ base: '4', md: '8' }} px={{ base: '3', md: '6' }} data-testid="orders-page">
      <Flex justify="space-between" align={{ base: 'flex-start', md: 'center' }} gap="3" mb="5" direction={{ base: 'column', sm: 'row' }}>
        <Box>
          <Heading as="h1" size="xl">
            {t('title')}
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            {t('subtitle', { n: HISTORY_WINDOW_DAYS })}
          </Text>
        </Box>
        <Button asChild size="sm" colorPalette="brand" variant="subtle">
          <AppLink href={`/trade/${tradePair}`} data-testid="orders-trade-link">
            <LuChartCandlestick aria-hidden="true" />
            {t('tradeLink')}
          </AppLink>
        </Button>
      </Flex>
      <Tabs.Root value={tab} onValueChange={(d) => onSearch(nextSearch(search, { tab: d.value as OrderTab }))} size={{ base: 'sm', md: 'md' }} lazyMount unmountOnExit>
        <Tabs.List overflowX="auto" overflowY="hidden">
          {ORDER_TABS.map((k) => (
            <Tabs.Trigger
              key={k}
              value={k}
              data-testid={`orders-tab-${k}`}
              whiteSpace="nowrap"
              flexShrink={0}
              // On a phone the three share the row by the length of their names, a little smaller and with the open
              // orders tab's short name (mn_MN "Нээлттэй"), so that all three fit 390 px instead of scrolling out of sight.
              {...(phone ? { flex: '1 1 auto', justifyContent: 'center', px: '1.5', fontSize: '13px' } : {})}
            >
              {t(phone && k === 'open' ? 'tabs.openShort' : `tabs.${k}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Box pt="4" pb="3">
          <OrderFilters search={search} onSearch={onSearch} pairs={pairs} />
        </Box>
        <Tabs.Content value="open" pt="0">
          <OpenOrdersTab search={search} onSearch={onSearch} pairs={pairs} onDetail={setDetail} cancels={cancels} />
        </Tabs.Content>
        <Tabs.Content value="history" pt="0">
          <OrderHistoryTab search={search} onSearch={onSearch} pairs={pairs} onDetail={setDetail} />
        </Tabs.Content>
        <Tabs.Content value="trades" pt="0">
          <TradeHistoryTab search={search} onSearch={onSearch} pairs={pairs} />
        </Tabs.Content>
      </Tabs.Root>
      <OrderDetail
        order={detail}
        pairs={pairs}
        search={search}
        onClose={() => setDetail(null)}
        // The panel shows the order as it was opened: once the cancel is
        // accepted it closes and the refreshed lists tell the outcome.
        onCancel={(o) => cancels.cancel.mutate(o, { onSuccess: () => setDetail(null) })}
        cancelling={!!detail && cancels.pending.has(detail.order_id)}
      />
    </Container>
  )
}
