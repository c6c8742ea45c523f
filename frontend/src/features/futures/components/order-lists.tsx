import { Badge, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { DataColumn, DataLayout } from '@/components/data/data-table'
import { formatTime } from '@/features/trade/components/format'
import { fixed, placesOf } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import {
  cancelOrder,
  futuresKeys,
  openOrdersQuery,
  orderHistoryQuery,
  tradeHistoryQuery,
  type ContractInfo,
  type FuturesOrder,
  type FuturesTrade,
} from '../api/futures-api'
import { money, pnlColor, signedMoney } from '../lib/format'
import { futuresTexts } from '../lib/texts'
import { CancelButton, PagedList, useCancelRows } from './paged-list'
import { SideText } from './shared'

/** Contracts by symbol: a row shows its prices at its own contract's places. */
export type ContractMap = ReadonlyMap<string, ContractInfo>

/** The price places of a contract (2 while it is not known). */
export function placesFor(contracts: ContractMap, symbol: string): number {
  const c = contracts.get(symbol)
  return c ? Math.max(c.pricePrecision, placesOf(c.priceTick)) : 2
}

/** The status text of an order: a cancelled order that had filled in part says so. */
export function statusKey(o: Pick<FuturesOrder, 'status' | 'dealVolume'>): string {
  if (o.status === 'CANCELED' && o.dealVolume > 0) return 'status.partCanceled'
  return `status.${o.status}`
}

/** Why an order ended, as a text key, when the exchange ended it (not filled, not cancelled by its owner). */
export function reasonKey(o: Pick<FuturesOrder, 'status' | 'reason'>): string | undefined {
  if (o.status === 'FILLED' || !o.reason || o.reason === 'canceled') return undefined
  return `reasons.${['post_only', 'no_liquidity', 'fok', 'self_trade', 'liquidation'].includes(o.reason) ? o.reason : 'other'}`
}

/** A time: the date over the time in a table, on one line on a card. */
export function TimeCell({ ms, layout }: { ms: number; layout: DataLayout }) {
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

/** The order's side with what it does beyond opening: reduce-only, closes the position, a liquidation. */
export function SideCell({ o, t }: { o: Pick<FuturesOrder, 'side' | 'reduceOnly' | 'closePosition' | 'liquidation' | 'positionSide'>; t: TranslateFn }) {
  return (
    <Stack as="span" gap="0.5" align="flex-start">
      <SideText side={o.side} positionSide={o.positionSide} t={t} />
      {o.liquidation ? (
        <Badge size="xs" colorPalette="red" variant="subtle">
          {t('orders.liquidation')}
        </Badge>
      ) : o.closePosition ? (
        <Badge size="xs" variant="subtle">
          {t('orders.closePosition')}
        </Badge>
      ) : o.reduceOnly ? (
        <Badge size="xs" variant="subtle">
          {t('form.reduceOnly')}
        </Badge>
      ) : null}
    </Stack>
  )
}

/** The columns of an order list (open orders have no status; the history adds it, with the fee and the realized PnL). */
export function orderColumns(t: TranslateFn, contracts: ContractMap, open: boolean, coin: (symbol: string) => string): DataColumn<FuturesOrder>[] {
  const cols: DataColumn<FuturesOrder>[] = [
    { id: 'symbol', header: t('orders.cols.symbol'), card: 'title', nowrap: true, cell: (o) => <Text as="span" fontWeight="semibold">{o.symbol}</Text> },
    { id: 'side', header: t('orders.cols.side'), card: 'title', cell: (o) => <SideCell o={o} t={t} /> },
    { id: 'time', header: t('orders.cols.time'), nowrap: true, cell: (o, layout) => <TimeCell ms={o.ctime} layout={layout} /> },
    {
      id: 'type',
      header: t('orders.cols.type'),
      cell: (o) => (o.type === 'LIMIT' ? `${t('form.types.LIMIT')} · ${t(`form.tif.${o.timeInForce}`)}` : t('form.types.MARKET')),
    },
    { id: 'price', header: t('orders.cols.price'), numeric: true, cell: (o) => (o.type === 'MARKET' || !o.price ? t('orders.market') : fixed(o.price, placesFor(contracts, o.symbol))) },
    { id: 'avg', header: t('orders.cols.avgPrice'), numeric: true, cell: (o) => (o.dealVolume > 0 ? fixed(o.avgPrice, placesFor(contracts, o.symbol)) : '—') },
    {
      id: 'filled',
      header: t('orders.cols.filled'),
      numeric: true,
      testId: 'order-filled',
      cell: (o) => `${fixed(o.dealVolume, 0)} / ${fixed(o.volume, 0)} ${t('form.cont')}`,
    },
  ]
  if (open) return cols
  return [
    ...cols,
    { id: 'fee', header: t('orders.cols.fee'), numeric: true, cell: (o) => (o.dealVolume > 0 ? `${money(o.fee)} ${coin(o.symbol)}` : '—') },
    {
      id: 'pnl',
      header: t('orders.cols.realizedPnl'),
      numeric: true,
      cell: (o) => (
        <Text as="span" color={pnlColor(o.realizedPnl)}>
          {o.dealVolume > 0 ? signedMoney(o.realizedPnl) : '—'}
        </Text>
      ),
    },
    {
      id: 'status',
      header: t('orders.cols.status'),
      card: 'aside',
      cell: (o) => {
        const why = reasonKey(o)
        return (
          <Stack as="span" gap="0" align={{ base: 'flex-end', md: 'flex-start' }}>
            <Text as="span" data-testid="order-status">
              {t(statusKey(o))}
            </Text>
            {why && (
              <Text as="span" fontSize="xs" color="fg.muted" data-testid="order-reason">
                {t(why)}
              </Text>
            )}
          </Stack>
        )
      },
    },
  ]
}

/** The columns of a trade list. */
export function tradeColumns(t: TranslateFn, contracts: ContractMap, coin: (symbol: string) => string): DataColumn<FuturesTrade>[] {
  return [
    { id: 'symbol', header: t('orders.cols.symbol'), card: 'title', nowrap: true, cell: (tr) => <Text as="span" fontWeight="semibold">{tr.symbol}</Text> },
    { id: 'side', header: t('orders.cols.side'), card: 'title', cell: (tr) => <SideCell o={{ ...tr, reduceOnly: false, closePosition: false }} t={t} /> },
    { id: 'time', header: t('orders.cols.time'), nowrap: true, cell: (tr, layout) => <TimeCell ms={tr.ctime} layout={layout} /> },
    { id: 'price', header: t('orders.cols.price'), numeric: true, cell: (tr) => fixed(tr.price, placesFor(contracts, tr.symbol)) },
    { id: 'volume', header: t('orders.cols.volume'), numeric: true, cell: (tr) => `${fixed(tr.volume, 0)} ${t('form.cont')}` },
    { id: 'fee', header: t('orders.cols.fee'), numeric: true, cell: (tr) => `${money(tr.fee)} ${coin(tr.symbol)}` },
    {
      id: 'pnl',
      header: t('orders.cols.realizedPnl'),
      numeric: true,
      cell: (tr) => (
        <Text as="span" color={pnlColor(tr.realizedPnl)}>
          {signedMoney(tr.realizedPnl)}
        </Text>
      ),
    },
    { id: 'role', header: t('orders.cols.role'), cell: (tr) => t(`orders.roles.${tr.role}`) },
  ]
}

export interface ListProps {
  /** Only this contract's (all contracts without one). */
  symbol?: string
  contracts: ContractMap
  layout?: DataLayout | 'auto'
  pageSize?: number
  paging?: { page: number; onPage: (p: number) => void }
}

/** The margin coin of a contract (USDT while it is not known). */
export function useCoin(contracts: ContractMap) {
  return useCallback((symbol: string) => contracts.get(symbol)?.marginCoin ?? 'USDT', [contracts])
}

/** The user's open orders, each with Cancel; read every 2 s while the page is visible (10 s while user_futures tells of each change). */
export function OpenOrdersList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const cancel = useCancelRows<FuturesOrder>({
    id: (o) => o.orderId,
    cancel: (o) => cancelOrder(o.symbol, o.orderId),
    done: t('orders.cancelled'),
    refresh: () => Promise.all([queryClient.invalidateQueries({ queryKey: futuresKeys.orders }), queryClient.invalidateQueries({ queryKey: futuresKeys.assets })]),
  })
  const coin = useCoin(contracts)
  const columns = useMemo(() => orderColumns(t, contracts, true, coin), [t, contracts, coin])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      query={openOrdersQuery}
      rows={(d) => d.orderList}
      rowKey={(o) => o.orderId}
      label={t('orders.open')}
      testId="futures-open-orders"
      rowTestId="futures-order-row"
      loadingLabel={t('orders.loading')}
      errorText={t('orders.error')}
      emptyText={t('orders.emptyOpen')}
      actions={(o) => (
        <CancelButton label={t('orders.cancelOf', { symbol: o.symbol, id: o.orderId })} busy={cancel.isBusy(o)} onClick={() => cancel.start(o)} testId="futures-cancel-order" />
      )}
    />
  )
}

/** The user's finished orders, newest first. */
export function OrderHistoryList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const coin = useCoin(contracts)
  const columns = useMemo(() => orderColumns(t, contracts, false, coin), [t, contracts, coin])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      history
      query={orderHistoryQuery}
      rows={(d) => d.orderList}
      rowKey={(o) => o.orderId}
      label={t('orders.history')}
      testId="futures-order-history"
      rowTestId="futures-order-row"
      loadingLabel={t('orders.loading')}
      errorText={t('orders.error')}
      emptyText={t('orders.emptyHistory')}
    />
  )
}

/** The user's fills, newest first. */
export function TradeHistoryList({ symbol, contracts, layout = 'auto', pageSize = 10, paging }: ListProps) {
  const { t } = futuresTexts.useTexts()
  const coin = useCoin(contracts)
  const columns = useMemo(() => tradeColumns(t, contracts, coin), [t, contracts, coin])
  return (
    <PagedList
      {...{ symbol, layout, pageSize, paging, columns }}
      history
      query={tradeHistoryQuery}
      rows={(d) => d.tradeList}
      rowKey={(tr) => `${tr.tradeId}:${tr.orderId}`}
      label={t('orders.trades')}
      testId="futures-trade-history"
      rowTestId="futures-trade-row"
      loadingLabel={t('orders.loading')}
      errorText={t('orders.error')}
      emptyText={t('orders.emptyTrades')}
    />
  )
}
