import { Badge, Text } from '@chakra-ui/react'
import type { DataColumn } from '@/components/data/data-table'
import type { TranslateFn } from '@/lib/i18n'
import type { SpotOrder, SpotPair, SpotTrade } from '../api/orders-api'
import { fixed, formatDateTime, formatFee, isPositive, orderAmount, orderPrice, pairOf, statusKey, statusPalette } from '../lib/order-format'

/** Buy in the up colour, sell in the down colour, in words (not colour alone). */
export function SideLabel({ t, side }: { t: TranslateFn; side: string }) {
  return (
    <Text as="span" color={side === 'BUY' ? 'up' : 'down'} fontWeight="medium" data-testid="order-side" data-side={side}>
      {t(`side.${side}`)}
    </Text>
  )
}

/** An order's status as a coloured badge with its words. */
export function StatusBadge({ t, order }: { t: TranslateFn; order: Pick<SpotOrder, 'status' | 'deal_volume'> }) {
  const key = statusKey(order)
  return (
    <Badge colorPalette={statusPalette(order)} variant="subtle" data-testid="order-status" data-status={order.status}>
      {t(`status.${key}`)}
    </Badge>
  )
}

/**
 * The columns of an order list. `finished` adds the average price and the
 * executed total, which only mean something once an order has traded.
 */
export function orderColumns(t: TranslateFn, pairs: SpotPair[] | undefined, finished: boolean): DataColumn<SpotOrder>[] {
  const p = (o: SpotOrder) => pairOf(pairs, o.symbol)
  const cols: DataColumn<SpotOrder>[] = [
    { id: 'pair', header: t('cols.pair'), card: 'title', nowrap: true, cell: (o) => <Text as="span" fontWeight="semibold">{p(o).showName}</Text> },
    { id: 'side', header: t('cols.side'), card: 'title', cell: (o) => <SideLabel t={t} side={o.side} /> },
    { id: 'time', header: t('cols.time'), nowrap: true, cell: (o) => formatDateTime(o.created_at) },
    { id: 'type', header: t('cols.type'), nowrap: true, cell: (o) => t(`types.${o.type}`) || o.type },
    { id: 'price', header: t('cols.price'), numeric: true, cell: (o) => orderPrice(o, p(o)) ?? t('market') },
    { id: 'amount', header: t('cols.amount'), numeric: true, cell: (o) => orderAmount(o, p(o)) },
    { id: 'filled', header: t('cols.filled'), numeric: true, cell: (o) => fixed(o.deal_volume, p(o).volumePlaces) },
  ]
  if (finished) {
    cols.push(
      {
        id: 'avg',
        header: t('cols.avgPrice'),
        numeric: true,
        cell: (o) => (isPositive(o.deal_volume) ? fixed(o.avg_price, p(o).pricePrecision) : '—'),
      },
      { id: 'total', header: t('cols.total'), numeric: true, cell: (o) => (isPositive(o.deal_money) ? fixed(o.deal_money, p(o).pricePrecision) : '—') },
    )
  }
  cols.push({ id: 'status', header: t('cols.status'), card: 'aside', cell: (o) => <StatusBadge t={t} order={o} /> })
  return cols
}

/** The columns of the trade history. */
export function tradeColumns(t: TranslateFn, pairs: SpotPair[] | undefined): DataColumn<SpotTrade>[] {
  const p = (tr: SpotTrade) => pairOf(pairs, tr.symbol)
  return [
    { id: 'pair', header: t('cols.pair'), card: 'title', nowrap: true, cell: (tr) => <Text as="span" fontWeight="semibold">{p(tr).showName}</Text> },
    { id: 'side', header: t('cols.side'), card: 'title', cell: (tr) => <SideLabel t={t} side={tr.side} /> },
    { id: 'time', header: t('cols.time'), nowrap: true, cell: (tr) => formatDateTime(tr.created_at) },
    { id: 'role', header: t('cols.role'), card: 'aside', cell: (tr) => <Badge variant="outline">{t(`roles.${tr.role}`) || tr.role}</Badge> },
    { id: 'price', header: t('cols.price'), numeric: true, cell: (tr) => fixed(tr.price, p(tr).pricePrecision) },
    { id: 'amount', header: t('cols.amount'), numeric: true, cell: (tr) => fixed(tr.volume, p(tr).volumePlaces) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (tr) => fixed(tr.deal_money, p(tr).pricePrecision) },
    { id: 'fee', header: t('cols.fee'), numeric: true, cell: (tr) => formatFee(tr.fee, tr.fee_coin) },
  ]
}
