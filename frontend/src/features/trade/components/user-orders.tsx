import { Box, Button, HStack, NativeSelect, Stack, Tabs, Text, useBreakpointValue } from '@chakra-ui/react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LuArrowUpRight } from 'react-icons/lu'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { HISTORY_PRESETS, HISTORY_WINDOW_DAYS, presetRange, rangeMillis } from '@/components/data/history-range'
import { Pager, pageCount, type PagerLabels } from '@/components/data/pager'
import { AppLink } from '@/components/layout/app-link'
import { toSpotPair } from '@/features/orders/api/orders-api'
import { CancelAllDialog } from '@/features/orders/components/cancel-all-dialog'
// The orders pages' own display rules, so an order reads the same here and there.
import { roleColumn, statusColumns } from '@/features/orders/components/order-columns'
import { orderAmount, orderAvgPrice, quoteAmount } from '@/features/orders/lib/order-format'
// Loading and error states as the orders page shows them: a list that could not be read says so, with a retry,
// instead of "no open orders".
import { tableState } from '@/features/orders/components/order-hooks'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import {
  cancelAllOrders,
  cancelOrder,
  openOrdersQuery,
  orderHistoryQuery,
  tickerQuery,
  tradeHistoryQuery,
  type ListWindow,
  type OrderView,
  type TradePair,
  type TradeView,
} from '../api/trade-api'
import { fixed, parseDec, placesOf } from '@/lib/decimal'
import { useFocusRescue } from '../lib/use-focus-rescue'
import { AmendButton, AmendDialog, type AmendTarget } from './amend-dialog'
import { formatFee, formatTime } from './format'
import { StopLine, type StopLineTexts } from './stop-line'

const REFRESH_MS = 4000
/** How the panel's lists show: see {@link usePanelLayout}. */
type PanelLayout = DataLayout

/**
 * Cards on a phone, a table at tablet width (the panel spans the page); on
 * a desktop from 1024 px the panel shares its row with the book and the
 * order form, and below 1280 px (under 400 px wide) a table would show two
 * or three of its columns and scroll the rest out of sight: cards there.
 * Settled here rather than by the list, since the columns differ a little
 * between the two (the reason an order ended goes under its status in a
 * table and on its own line of a card).
 */
export function usePanelLayout(): PanelLayout {
  return useBreakpointValue<PanelLayout>({ base: 'cards', md: 'table', lg: 'cards', xl: 'table' }, { ssr: false }) ?? 'cards'
}

/** Rows per page of each list of the panel. */
export const PANEL_PAGE_SIZE = 10

function Empty({ text, testId }: { text: string; testId: string }) {
  return (
    <Text py="8" textAlign="center" color="fg.muted" fontSize="sm" data-testid={testId}>
      {text}
    </Text>
  )
}

function SideText({ side }: { side: string }) {
  const { t } = useTexts('trade')
  return (
    <Text as="span" color={side === 'BUY' ? 'up' : 'down'} fontWeight="medium">
      {t(side === 'BUY' ? 'form.buy' : 'form.sell')}
    </Text>
  )
}

/**
 * A page that no longer exists (orders were cancelled or aged out of the
 * window since it was chosen) falls back to the last one that does.
 */
function useClampPage(page: number, count: number | undefined, setPage: (p: number) => void) {
  useEffect(() => {
    if (count !== undefined && count > 0 && page > pageCount(count, PANEL_PAGE_SIZE)) setPage(pageCount(count, PANEL_PAGE_SIZE))
  }, [page, count, setPage])
}

function pagerLabels(t: TranslateFn, nav: string): PagerLabels {
  return {
    nav,
    prev: t('pager.prev'),
    next: t('pager.next'),
    page: (page) => t('pager.page', { page }),
    status: (page, pages) => t('pager.status', { page, pages }),
  }
}

/** The status text key: a cancelled order that had filled in part says so (its fills are real trades). */
export function statusKey(o: Pick<OrderView, 'status' | 'deal_volume'>): string {
  return o.status === 4 && (parseDec(o.deal_volume)?.units ?? 0n) > 0n ? 'partCancelled' : String(o.status)
}

function stopTexts(t: TranslateFn): StopLineTexts {
  return {
    trigger: (op, price) => t('orders.stop', { op, price }),
    waiting: t('orders.stopWaiting'),
    triggered: t('orders.stopTriggered'),
  }
}

/**
 * A time in a table cell as two short lines (the date over the clock), so
 * that the panel's columns fit beside the chart; on a card on one line.
 */
function TimeCell({ ms, layout }: { ms: number; layout: DataLayout }) {
  const [date, time] = formatTime(ms).split(' ')
  if (layout === 'cards') return <>{formatTime(ms)}</>
  return (
    <Stack as="span" gap="0" lineHeight="short">
      <Text as="span" fontSize="xs" color="fg.muted">
        {date}
      </Text>
      <Text as="span">{time}</Text>
    </Stack>
  )
}

/**
 * An order's side over its type, as one cell of a table (the type wraps
 * when it must: mn_MN "Бүгдийг эсвэл цуцлах"), so that the panel's
 * columns fit beside the chart at 1280 px.
 */
function SideTypeCell({ order, t }: { order: Pick<OrderView, 'side' | 'type'>; t: TranslateFn }) {
  return (
    <Stack as="span" gap="0" lineHeight="short">
      <SideText side={order.side} />
      <Text as="span" fontSize="xs" color="fg.muted" whiteSpace="normal" data-testid="order-type-line">
        {t(`form.types.${order.type}`)}
      </Text>
    </Stack>
  )
}

/**
 * The columns of an order list; `lastPrice` tells open stop-limit orders
 * whether their stop is reached. The open orders have no status column:
 * each is open, and Filled says how much of it has traded. The history adds
 * the average price of what traded and, with the status, why the exchange
 * ended an order (`ot`: the orders texts), as the orders page does.
 *
 * In a table (616 px at 1280) the time leads, the type goes under the side
 * and the average price under the price, so that time, side, price, amount,
 * filled and the status or Cancel all show without scrolling sideways, in
 * both languages; a card keeps a row for each.
 */
function orderColumns(
  t: TranslateFn,
  pair: TradePair,
  lastPrice?: string,
  open = false,
  onAmend?: (o: AmendTarget) => void,
  ot: TranslateFn = t,
  layout: DataLayout = 'table',
): DataColumn<OrderView>[] {
  const volPlaces = placesOf(pair.lotSize)
  const spot = toSpotPair(pair)
  const stop = stopTexts(t)
  const table = layout === 'table'
  // The average price under the price: a finished order's, in a table.
  const avgBelow = table && !open
  const time: DataColumn<OrderView> = { id: 'time', header: t('orders.time'), nowrap: true, cell: (o, layout) => <TimeCell ms={o.created_at} layout={layout} /> }
  const price: DataColumn<OrderView> = {
    id: 'price',
    header: avgBelow ? t('orders.priceAvg') : t('orders.price'),
    numeric: true,
    cell: (o) => (
      <>
        {Number(o.price) > 0 ? fixed(o.price, pair.pricePrecision) : t('orders.market')}
        {/* The stop ("Стоп ≥ 146,420.43") may take two lines rather than widen the column. */}
        <Box as="span" display="block" whiteSpace="normal">
          <StopLine order={o} places={pair.pricePrecision} lastPrice={lastPrice} texts={stop} />
        </Box>
        {avgBelow && (
          <Text as="span" display="block" fontSize="xs" color="fg.muted" data-testid="order-avg-price">
            {orderAvgPrice(o, spot)}
          </Text>
        )}
      </>
    ),
  }
  const rest: DataColumn<OrderView>[] = [
    {
      id: 'amount',
      header: t('orders.amount'),
      numeric: true,
      cell: (o) => (
        <>
          {/* A market buy's budget ("50.000000 USDT") may put its coin on a second line. */}
          <Text as="span" whiteSpace="normal">
            {orderAmount(o, spot)}
          </Text>
          {/* An open order's amount can be reduced (its price and place in the book stay). */}
          {onAmend && <AmendButton order={o} onAmend={onAmend} />}
        </>
      ),
    },
    { id: 'filled', header: t('orders.filled'), numeric: true, cell: (o) => fixed(o.deal_volume, volPlaces) },
  ]
  const cols: DataColumn<OrderView>[] = table
    ? [time, { id: 'side', header: t('orders.sideType'), cell: (o) => <SideTypeCell order={o} t={t} /> }, price, ...rest]
    : [
        { id: 'side', header: t('orders.side'), card: 'title', cell: (o) => <SideText side={o.side} /> },
        { id: 'type', header: t('orders.type'), card: 'title', nowrap: true, cell: (o) => t(`form.types.${o.type}`) },
        time,
        price,
        ...rest,
      ]
  if (open) return cols
  // In a table a long status (mn_MN "Хэсэгчлэн биелээд цуцлагдсан") takes two lines rather than the panel's width.
  const status = (o: OrderView, at: DataLayout) => (
    <Text as="span" display={at === 'table' ? 'block' : undefined} whiteSpace={at === 'table' ? 'normal' : 'nowrap'} ms={at === 'table' ? 'auto' : undefined}>
      {t(`orders.statuses.${statusKey(o)}`)}
    </Text>
  )
  return [
    ...cols,
    ...(avgBelow ? [] : [{ id: 'avg', header: ot('cols.avgPrice'), numeric: true, cell: (o: OrderView) => orderAvgPrice(o, spot) }]),
    ...statusColumns<OrderView>(ot, layout, status, t('orders.status')),
  ]
}

function tradeColumns(t: TranslateFn, pair: TradePair, ot: TranslateFn): DataColumn<TradeView>[] {
  return [
    { id: 'side', header: t('orders.side'), card: 'title', cell: (tr) => <SideText side={tr.side} /> },
    { id: 'time', header: t('orders.time'), card: 'aside', nowrap: true, cell: (tr, layout) => <TimeCell ms={tr.created_at} layout={layout} /> },
    roleColumn<TradeView>(ot),
    { id: 'price', header: t('orders.price'), numeric: true, cell: (tr) => fixed(tr.price, pair.pricePrecision) },
    { id: 'amount', header: t('orders.amount'), numeric: true, cell: (tr) => fixed(tr.volume, placesOf(pair.lotSize)) },
    // A fill's value is in the quote coin: at that coin's places (MNT 2), not the price's (0 on BTC/MNT).
    { id: 'total', header: t('orders.total'), numeric: true, cell: (tr) => quoteAmount(tr.deal_money, toSpotPair(pair)) },
    { id: 'fee', header: t('orders.fee'), numeric: true, cell: (tr) => formatFee(tr.fee, tr.fee_coin) },
  ]
}

function OpenOrders({ pair, layout }: { pair: TradePair; layout: PanelLayout }) {
  const { t } = useTexts('trade')
  const o = useTexts('orders')
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const query = useQuery({
    ...openOrdersQuery(pair.symbol, page, PANEL_PAGE_SIZE),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  })
  const { data } = query
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] })
    void queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] })
  }
  // A refused cancel has had its toast from the request client; a transport failure has not.
  const transportError = (error: unknown) => {
    if (!(error instanceof ApiError)) notifyError(t('orders.unreachable'))
    refresh()
  }
  // Orders whose cancel is on its way: their button waits (a second click
  // would cancel twice, or be told the order is already finished) until the
  // refreshed list no longer has them, or shows them still open.
  // (The ref answers at once, even for clicks of the same moment; the state draws the buttons.)
  const pendingCancels = useRef(new Set<string>())
  const [cancelling, setCancelling] = useState<ReadonlySet<string>>(new Set())
  const settle = (orderId: string) => {
    pendingCancels.current.delete(orderId)
    setCancelling(new Set(pendingCancels.current))
  }
  const cancel = useMutation({
    mutationFn: (order: OrderView) => cancelOrder(pair.symbol, order.order_id),
    onMutate: () => setCancelling(new Set(pendingCancels.current)),
    onSuccess: async (_data, order) => {
      notifySuccess(t('orders.cancelled'))
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] }),
        queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] }),
      ])
      settle(order.order_id)
    },
    onError: (error, order) => {
      transportError(error)
      settle(order.order_id)
    },
  })
  const [confirming, setConfirming] = useState(false)
  const cancelAll = useMutation({
    mutationFn: () => cancelAllOrders(pair.symbol),
    onSuccess: () => {
      notifySuccess(t('orders.cancelledAll', { pair: pair.showName }))
      refresh()
    },
    onError: transportError,
    onSettled: () => setConfirming(false),
  })
  // The header keeps the ticker fresh (socket and first load); it tells waiting stops from reached ones.
  const lastPrice = useQuery({ ...tickerQuery(pair.symbol), enabled: false }).data?.close
  useClampPage(page, data?.count, setPage)
  const [amending, setAmending] = useState<AmendTarget | null>(null)
  const columns = useMemo(() => orderColumns(t, pair, lastPrice, true, setAmending, o.t, layout), [t, pair, lastPrice, o.t, layout])
  const orders = data?.orderList ?? []
  const count = data?.count ?? 0
  return (
    <Stack gap="2">
      {count > 0 && (
        <HStack justify="end">
          <Button size="xs" variant="outline" colorPalette="red" data-testid="cancel-all" onClick={() => setConfirming(true)}>
            {t('orders.cancelAll')}
          </Button>
        </HStack>
      )}
      <DataTable
        layout={layout}
        columns={columns}
        rows={orders}
        rowKey={(order) => order.order_id}
        label={t('orders.open')}
        testId="open-orders-table"
        rowTestId="order-row"
        {...tableState(o.t, query)}
        emptyText={t('orders.emptyOpen')}
        emptyTestId="open-orders-empty"
        actionsLabel={o.t('cols.actions')}
        stickyActions
        actions={(order) => (
          <Button
            size="2xs"
            variant="outline"
            aria-label={o.t('actions.cancelOf', { id: order.order_id })}
            data-testid="cancel-order"
            loading={cancelling.has(order.order_id)}
            onClick={() => {
              if (pendingCancels.current.has(order.order_id)) return
              pendingCancels.current.add(order.order_id)
              cancel.mutate(order)
            }}
          >
            {t('orders.cancel')}
          </Button>
        )}
      />
      <Pager page={page} pageSize={PANEL_PAGE_SIZE} count={count} onPageChange={setPage} labels={pagerLabels(o.t, t('orders.open'))} testId="open-orders-pager" />
      <AmendDialog order={amending} onClose={() => setAmending(null)} />
      <CancelAllDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => cancelAll.mutate()}
        pair={pair.showName}
        count={count}
        busy={cancelAll.isPending}
      />
    </Stack>
  )
}

function OrderHistory({ pair, range, layout }: { pair: TradePair; range: Omit<ListWindow, 'page' | 'pageSize'>; layout: PanelLayout }) {
  const { t } = useTexts('trade')
  const o = useTexts('orders')
  const [page, setPage] = useState(1)
  const w = useMemo(() => ({ ...range, page, pageSize: PANEL_PAGE_SIZE }), [range, page])
  const query = useQuery({ ...orderHistoryQuery(pair.symbol, w), placeholderData: keepPreviousData, refetchInterval: REFRESH_MS })
  const { data } = query
  useClampPage(page, data?.count, setPage)
  const columns = useMemo(() => orderColumns(t, pair, undefined, false, undefined, o.t, layout), [t, pair, o.t, layout])
  // In the table (616 px at 1280) the status, with why the exchange ended an order, stays at its end (in view, should
  // a wider screen's table still scroll sideways); on a card it sits beside the heading.
  const status = layout === 'table' ? columns.find((c) => c.id === 'status') : undefined
  return (
    <Stack gap="2">
      <DataTable
        layout={layout}
        columns={status ? columns.filter((c) => c !== status) : columns}
        rows={data?.orderList ?? []}
        rowKey={(order) => order.order_id}
        label={t('orders.history')}
        testId="order-history-table"
        rowTestId="order-row"
        {...tableState(o.t, query)}
        emptyText={t('orders.emptyHistory')}
        emptyTestId="order-history-empty"
        {...(status && {
          actions: (order: OrderView) => (
            // Room for "Хэсэгчлэн биелээд" on a line, and no more: the status column is the table's widest.
            <Stack gap="0" align="flex-end" w="9rem">
              {status.cell(order, 'table')}
            </Stack>
          ),
          actionsLabel: status.header,
          showActionsLabel: true,
          stickyActions: true,
        })}
      />
      <Pager page={page} pageSize={PANEL_PAGE_SIZE} count={data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(o.t, t('orders.history'))} testId="order-history-pager" />
    </Stack>
  )
}

function TradeHistory({ pair, range, layout }: { pair: TradePair; range: Omit<ListWindow, 'page' | 'pageSize'>; layout: PanelLayout }) {
  const { t } = useTexts('trade')
  const o = useTexts('orders')
  const [page, setPage] = useState(1)
  const w = useMemo(() => ({ ...range, page, pageSize: PANEL_PAGE_SIZE }), [range, page])
  const query = useQuery({ ...tradeHistoryQuery(pair.symbol, w), placeholderData: keepPreviousData, refetchInterval: REFRESH_MS })
  const { data } = query
  useClampPage(page, data?.count, setPage)
  const columns = useMemo(() => tradeColumns(t, pair, o.t), [t, pair, o.t])
  return (
    <Stack gap="2">
      <DataTable
        layout={layout}
        columns={columns}
        rows={data?.tradeList ?? []}
        rowKey={(tr) => tr.trade_id + tr.order_id}
        label={t('orders.trades')}
        testId="trade-history-table"
        rowTestId="trade-row"
        {...tableState(o.t, query)}
        emptyText={t('orders.emptyTrades')}
        emptyTestId="trade-history-empty"
      />
      <Pager page={page} pageSize={PANEL_PAGE_SIZE} count={data?.count ?? 0} onPageChange={setPage} labels={pagerLabels(o.t, t('orders.trades'))} testId="trade-history-pager" />
    </Stack>
  )
}

/**
 * Open orders (cancel, cancel all), order history and trade history of the
 * signed-in user on this pair, a page at a time. The history tabs reach back
 * at most 180 days (spec §9); the range choice narrows that. The full
 * orders page (all pairs, filters, order details) is one link away.
 */
export function UserOrders({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const o = useTexts('orders')
  const { isSignedIn } = useUserInfo()
  const [tab, setTab] = useState('open')
  const [days, setDays] = useState<number>(HISTORY_WINDOW_DAYS)
  // Where the panel is narrow (a phone, and a desktop below 1280 px, where it shares its row with the book and the
  // form) the open orders tab takes its short name (mn_MN "Нээлттэй") so that the three fit one row.
  const compact = useBreakpointValue({ base: true, sm: false, lg: true, xl: false }, { ssr: false }) ?? false
  const layout = usePanelLayout()
  // Fixed when the range changes (not per render), so the query keys stay put.
  const range = useMemo(() => {
    const { startTime, endTime } = rangeMillis(presetRange(days))
    return { startTime, endTime }
  }, [days])
  const allHref = `/order/spot?${new URLSearchParams({ tab, symbol: pair.symbol })}`
  // A cancelled order's row goes away under the keyboard: focus moves to the next order's button (or the tab).
  const panel = useRef<HTMLDivElement>(null)
  const toTab = useCallback(() => panel.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'), [])
  useFocusRescue(panel, toTab)
  return (
    <Box
      ref={panel}
      borderWidth="1px"
      rounded="lg"
      bg="bg.panel"
      // A two-part heading (mn_MN "Чиглэл / Төрөл") takes two lines, as its cells do, rather than the width of
      // another column: with it the tables fit the panel's 616 px at 1280 px without scrolling sideways.
      css={{ '& [data-layout=table] th': { whiteSpace: 'normal' } }}
      data-testid="user-orders"
    >
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" lazyMount unmountOnExit>
        <HStack justify="space-between" borderBottomWidth="1px" pe="2" gap="2" flexWrap="wrap">
          {/*
            Where the panel is narrow the three tabs share the row by the length of their names, each on one line,
            a little smaller and with the open orders tab's short name: at 390 px in mn_MN, and in the 386 px
            panel of a 1024 px desktop, they fit without wrapping or the last one scrolling out of sight.
          */}
          <Tabs.List px="2" borderBottomWidth="0" overflowX="auto" overflowY="hidden" flex={compact ? '1 1 100%' : '0 1 auto'} data-testid="user-orders-tabs">
            {(
              [
                ['open', compact ? 'orders.openShort' : 'orders.open', 'tab-open-orders'],
                ['history', 'orders.history', 'tab-order-history'],
                ['trades', 'orders.trades', 'tab-trade-history'],
              ] as const
            ).map(([value, label, testId]) => (
              <Tabs.Trigger
                key={value}
                value={value}
                data-testid={testId}
                flex={compact ? '1 1 auto' : '0 0 auto'}
                minW="0"
                justifyContent="center"
                textAlign="center"
                whiteSpace="nowrap"
                fontSize={compact ? '13px' : 'sm'}
                h="auto"
                minH="9"
                py="1"
                px={compact ? '1.5' : '3'}
                lineHeight="short"
              >
                {t(label)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {isSignedIn && (
            <HStack gap="2" ps="2" pb={compact ? '2' : '0'}>
              {tab !== 'open' && (
                <NativeSelect.Root size="xs" width="auto">
                  <NativeSelect.Field
                    aria-label={o.t('panel.range')}
                    value={String(days)}
                    onChange={(e) => setDays(Number(e.target.value))}
                    data-testid="orders-range"
                  >
                    {HISTORY_PRESETS.map((d) => (
                      <option key={d} value={d}>
                        {o.t('filters.days', { n: d })}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              )}
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <AppLink href={allHref} data-testid="orders-view-all">
                  {o.t('panel.viewAll')}
                  <LuArrowUpRight aria-hidden="true" />
                </AppLink>
              </Button>
            </HStack>
          )}
        </HStack>
        <Box px="3" pb="3">
          {!isSignedIn ? (
            <Empty text={t('orders.signIn')} testId="orders-signin" />
          ) : (
            <>
              <Tabs.Content value="open">
                <OpenOrders pair={pair} layout={layout} />
              </Tabs.Content>
              <Tabs.Content value="history">
                <OrderHistory key={days} pair={pair} range={range} layout={layout} />
              </Tabs.Content>
              <Tabs.Content value="trades">
                <TradeHistory key={days} pair={pair} range={range} layout={layout} />
              </Tabs.Content>
            </>
          )}
        </Box>
      </Tabs.Root>
    </Box>
  )
}
