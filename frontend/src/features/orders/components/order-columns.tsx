import { Badge, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import type { DataColumn, DataLayout } from '@/components/data/data-table'
import type { TranslateFn } from '@/lib/i18n'
import { AmendButton, type AmendTarget } from '@/features/trade/components/amend-dialog'
import { StopLine, type StopLineTexts } from '@/features/trade/components/stop-line'
import type { SpotOrder, SpotPair, SpotTrade } from '../api/orders-api'
import {
  endReasonKey,
  fixed,
  formatDateTime,
  formatFee,
  orderAmount,
  orderAvgPrice,
  orderPrice,
  orderTotal,
  pairOf,
  quoteAmount,
  statusKey,
  statusPalette,
} from '../lib/order-format'

/** Buy in the up colour, sell in the down colour, in words (not colour alone). */
export function SideLabel({ t, side }: { t: TranslateFn; side: string }) {
  return (
    <Text as="span" color={side === 'BUY' ? 'up' : 'down'} fontWeight="medium" data-testid="order-side" data-side={side}>
      {t(`side.${side}`)}
    </Text>
  )
}

/**
 * An order's status as a coloured badge with its words. A long status
 * (mn_MN "Хэсэгчлэн биелээд цуцлагдсан") wraps inside its cell instead of
 * widening the table under the pinned actions column.
 */
export function StatusBadge({ t, order }: { t: TranslateFn; order: Pick<SpotOrder, 'status' | 'deal_volume'> }) {
  const key = statusKey(order)
  return (
    <Badge
      colorPalette={statusPalette(order)}
      variant="subtle"
      whiteSpace="normal"
      overflowWrap="break-word"
      h="auto"
      minH="5"
      py="0.5"
      lineHeight="short"
      maxW="9rem"
      data-testid="order-status"
      data-status={order.status}
    >
      {t(`status.${key}`)}
    </Badge>
  )
}

/**
 * Why the exchange ended an order (a post-only that would have taken, a
 * fill-or-kill that could not fill ...) as a muted line, or nothing. `t`
 * is the orders texts. `labelled` prefixes "Reason:" (on a card, where the
 * line has no column header).
 */
export function EndReason({ t, order, labelled = false }: { t: TranslateFn; order: Pick<SpotOrder, 'status' | 'end_reason' | 'deal_volume'>; labelled?: boolean }) {
  const key = endReasonKey(order)
  if (!key) return null
  const text = t(`reasons.${key}`)
  return (
    <Text as="span" display="block" fontSize="xs" color="fg.muted" whiteSpace="normal" maxW={labelled ? undefined : '10rem'} ms={labelled ? undefined : 'auto'} mt={labelled ? undefined : '1'} data-testid="order-reason" data-reason={order.end_reason}>
      {labelled ? `${t('cols.reason')}: ${text}` : text}
    </Text>
  )
}

/**
 * The columns that tell a finished order's status and, when the exchange
 * ended it, why: in a table the reason goes under the status; on a card the
 * status sits beside the heading and the reason gets its own line (only on
 * cards that have one). `t` is the orders texts; `statusCell` draws the
 * status itself.
 */
export function statusColumns<T extends Pick<SpotOrder, 'status' | 'end_reason' | 'deal_volume'>>(
  t: TranslateFn,
  layout: DataLayout,
  statusCell: (o: T, layout: DataLayout) => ReactNode,
  header: string = t('cols.status'),
): DataColumn<T>[] {
  if (layout === 'cards') {
    return [
      { id: 'status', header, card: 'aside', cell: statusCell },
      { id: 'reason', header: t('cols.reason'), card: 'line', cell: (o) => (endReasonKey(o) ? <EndReason t={t} order={o} labelled /> : null) },
    ]
  }
  return [
    {
      id: 'status',
      header,
      cell: (o) => (
        <>
          {statusCell(o, 'table')}
          <EndReason t={t} order={o} />
        </>
      ),
    },
  ]
}

/** Texts of the stop line under a stop-limit order's price. */
export function stopTexts(t: TranslateFn): StopLineTexts {
  return {
    trigger: (op, price) => t('stop.trigger', { op, price }),
    waiting: t('stop.waiting'),
    triggered: t('stop.triggered'),
  }
}

/**
 * The columns of an order list. `finished` adds the average price and the
 * executed total, which only mean something once an order has traded, and
 * why the exchange ended an order (under the status, or on its own line of
 * a card: `layout` says which the list shows).
 * `lastPrices` (by symbol) tells open stop-limit orders whether their stop
 * has been reached.
 */
export function orderColumns(
  t: TranslateFn,
  pairs: SpotPair[] | undefined,
  finished: boolean,
  lastPrices?: Record<string, string | undefined>,
  /** Open orders: the pencil beside the amount reduces it. */
  onAmend?: (o: AmendTarget) => void,
  layout: DataLayout = 'table',
): DataColumn<SpotOrder>[] {
  const p = (o: SpotOrder) => pairOf(pairs, o.symbol)
  const stop = stopTexts(t)
  const cols: DataColumn<SpotOrder>[] = [
    { id: 'pair', header: t('cols.pair'), card: 'title', nowrap: true, cell: (o) => <Text as="span" fontWeight="semibold">{p(o).showName}</Text> },
    { id: 'side', header: t('cols.side'), card: 'title', cell: (o) => <SideLabel t={t} side={o.side} /> },
    { id: 'time', header: t('cols.time'), nowrap: true, cell: (o) => formatDateTime(o.created_at) },
    {
      id: 'type',
      header: t('cols.type'),
      // The table scroll area keeps cells on one line; a long type (mn_MN "Шууд эсвэл цуцлах") may wrap instead.
      cell: (o) => (
        <Text as="span" whiteSpace="normal">
          {t(`types.${o.type}`) || o.type}
        </Text>
      ),
    },
    {
      id: 'price',
      header: t('cols.price'),
      numeric: true,
      cell: (o) => (
        <>
          {orderPrice(o, p(o)) ?? t('market')}
          <StopLine order={o} places={p(o).pricePrecision} lastPrice={lastPrices?.[o.symbol]} texts={stop} />
        </>
      ),
    },
    {
      id: 'amount',
      header: t('cols.amount'),
      numeric: true,
      cell: (o) => (
        <>
          {orderAmount(o, p(o))}
          {onAmend && <AmendButton order={o} onAmend={onAmend} />}
        </>
      ),
    },
    { id: 'filled', header: t('cols.filled'), numeric: true, cell: (o) => fixed(o.deal_volume, p(o).volumePlaces) },
  ]
  const status = (o: SpotOrder) => <StatusBadge t={t} order={o} />
  if (!finished) return [...cols, { id: 'status', header: t('cols.status'), card: 'aside', cell: status }]
  cols.push(
    { id: 'avg', header: t('cols.avgPrice'), numeric: true, cell: (o) => orderAvgPrice(o, p(o)) },
    // What traded is worth in the quote coin, at that coin's places (MNT 2, although BTC/MNT prices have none).
    { id: 'total', header: t('cols.total'), numeric: true, cell: (o) => orderTotal(o, p(o)) },
  )
  return [...cols, ...statusColumns(t, layout, status)]
}

/** A fill's Maker/Taker column (t: the orders texts). */
export function roleColumn<T extends { role: string }>(t: TranslateFn): DataColumn<T> {
  return { id: 'role', header: t('cols.role'), card: 'aside', cell: (tr) => <Badge variant="outline">{t(`roles.${tr.role}`) || tr.role}</Badge> }
}

/** The columns of the trade history. */
export function tradeColumns(t: TranslateFn, pairs: SpotPair[] | undefined): DataColumn<SpotTrade>[] {
  const p = (tr: SpotTrade) => pairOf(pairs, tr.symbol)
  return [
    { id: 'pair', header: t('cols.pair'), card: 'title', nowrap: true, cell: (tr) => <Text as="span" fontWeight="semibold">{p(tr).showName}</Text> },
    { id: 'side', header: t('cols.side'), card: 'title', cell: (tr) => <SideLabel t={t} side={tr.side} /> },
    { id: 'time', header: t('cols.time'), nowrap: true, cell: (tr) => formatDateTime(tr.created_at) },
    roleColumn(t),
    { id: 'price', header: t('cols.price'), numeric: true, cell: (tr) => fixed(tr.price, p(tr).pricePrecision) },
    { id: 'amount', header: t('cols.amount'), numeric: true, cell: (tr) => fixed(tr.volume, p(tr).volumePlaces) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (tr) => quoteAmount(tr.deal_money, p(tr)) },
    { id: 'fee', header: t('cols.fee'), numeric: true, cell: (tr) => formatFee(tr.fee, tr.fee_coin) },
  ]
}
