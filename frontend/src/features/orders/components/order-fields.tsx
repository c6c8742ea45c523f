import { DataList, Heading, HStack, Stack, Text, type DataListRootProps } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { OPEN_REFRESH_MS, orderFillsQuery, type SpotOrder, type SpotPair, type SpotTrade } from '../api/orders-api'
import { endReasonKey, fixed, formatDateTime, formatFee, isOpenOrder, isPositive, orderAmount, orderAvgPrice, orderPrice, orderTotal, quoteAmount } from '../lib/order-format'
import { SideLabel, StatusBadge } from './order-columns'
import { tableState } from './order-hooks'

/**
 * The parts of one order that the side panel of the list and the order's
 * own page share: the pair with side and status, the fields, and the fills.
 */

/** Pair, side and status on one line. */
export function OrderHeadline({ order, pair }: { order: SpotOrder; pair: SpotPair }) {
  const { t } = useTexts('orders')
  return (
    <HStack gap="2" flexWrap="wrap" data-testid="order-detail-heading">
      <Text fontWeight="semibold">{pair.showName}</Text>
      <SideLabel t={t} side={order.side} />
      <StatusBadge t={t} order={order} />
    </HStack>
  )
}

/** Label, value and test id of each field an order shows. */
export function orderFieldRows(t: TranslateFn, order: SpotOrder, pair: SpotPair): [string, ReactNode, string][] {
  const rows: [string, ReactNode, string][] = [
    [
      t('cols.orderId'),
      <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere">
        {order.order_id}
      </Text>,
      'order-id',
    ],
    [t('cols.type'), t(`types.${order.type}`) || order.type, 'type'],
    [t('cols.price'), orderPrice(order, pair) ?? t('market'), 'price'],
  ]
  if (order.stop_price) rows.push([t('cols.stopPrice'), fixed(order.stop_price, pair.pricePrecision), 'stop'])
  rows.push(
    [t('cols.amount'), orderAmount(order, pair), 'amount'],
    [t('cols.filled'), fixed(order.deal_volume, pair.volumePlaces), 'filled'],
    [t('cols.avgPrice'), orderAvgPrice(order, pair), 'avg'],
    [t('cols.total'), isPositive(order.deal_money) ? `${orderTotal(order, pair)} ${pair.quote}`.trim() : '—', 'total'],
    [t('cols.fee'), isPositive(order.fee) ? formatFee(order.fee, order.fee_coin) : '—', 'fee'],
    [t('detail.created'), formatDateTime(order.created_at), 'created'],
    [t('detail.updated'), formatDateTime(order.updated_at), 'updated'],
  )
  // Why the exchange ended it (a post-only that would have taken, a fill-or-kill that could not fill ...).
  const reason = endReasonKey(order)
  if (reason) rows.splice(rows.findIndex(([, , id]) => id === 'fee') + 1, 0, [t('cols.reason'), t(`reasons.${reason}`), 'reason'])
  if (order.client_order_id) rows.push([t('detail.clientOrderId'), order.client_order_id, 'client-id'])
  return rows
}

/** The fields of an order as a label/value list. */
export function OrderFields({ order, pair, ...rest }: { order: SpotOrder; pair: SpotPair } & Omit<DataListRootProps, 'children'>) {
  const { t } = useTexts('orders')
  return (
    <DataList.Root orientation="horizontal" size="sm" data-testid="order-detail-fields" {...rest}>
      {orderFieldRows(t, order, pair).map(([label, value, id]) => (
        <DataList.Item key={id} data-testid={`order-detail-${id}`} minW="0">
          <DataList.ItemLabel minW="32">{label}</DataList.ItemLabel>
          <DataList.ItemValue justifyContent="flex-end" textAlign="end" fontVariantNumeric="tabular-nums" minW="0">
            {value}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  )
}

/**
 * The fills of an order from /trade/list_by_order, refreshed while the
 * order is open (it may still trade). `layout` is 'cards' in the narrow
 * side panel and 'auto' (a table on wide screens) on the order's page.
 */
export function OrderFills({
  order,
  pair,
  layout = 'cards',
  headingLevel = 'h3',
}: {
  order: SpotOrder
  pair: SpotPair
  layout?: 'auto' | 'cards'
  headingLevel?: 'h2' | 'h3'
}) {
  const { t } = useTexts('orders')
  const fills = useQuery({ ...orderFillsQuery(order.order_id), refetchInterval: isOpenOrder(order) ? OPEN_REFRESH_MS : false })
  const columns: DataColumn<SpotTrade>[] = [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'title', cell: (f) => formatDateTime(f.created_at) },
    { id: 'role', header: t('cols.role'), card: 'aside', cell: (f) => t(`roles.${f.role}`) || f.role },
    { id: 'price', header: t('cols.price'), numeric: true, cell: (f) => fixed(f.price, pair.pricePrecision) },
    { id: 'amount', header: t('cols.amount'), numeric: true, cell: (f) => fixed(f.volume, pair.volumePlaces) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (f) => quoteAmount(f.deal_money, pair) },
    { id: 'fee', header: t('cols.fee'), numeric: true, cell: (f) => formatFee(f.fee, f.fee_coin) },
  ]
  return (
    <Stack gap="2">
      <Heading as={headingLevel} size={headingLevel === 'h2' ? 'md' : 'sm'}>
        {t('detail.fills')}
        {fills.data && fills.data.length > 0 && (
          <Text as="span" color="fg.muted" fontWeight="normal" ms="2" data-testid="order-fills-count">
            {fills.data.length}
          </Text>
        )}
      </Heading>
      <DataTable
        columns={columns}
        rows={fills.data ?? []}
        rowKey={(f) => f.trade_id}
        label={t('detail.fills')}
        layout={layout}
        testId="order-fills"
        rowTestId="order-fill"
        {...tableState(t, fills, t('detail.fillsError'))}
        emptyText={t('detail.noFills')}
        emptyTestId="order-fills-empty"
      />
    </Stack>
  )
}
