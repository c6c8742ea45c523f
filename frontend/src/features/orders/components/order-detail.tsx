import { Button, CloseButton, DataList, Drawer, Heading, HStack, Portal, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { useTexts } from '@/lib/i18n'
import { orderFillsQuery, type SpotOrder, type SpotPair, type SpotTrade } from '../api/orders-api'
import { fixed, formatDateTime, isOpenOrder, isPositive, orderAmount, orderPrice, pairOf } from '../lib/order-format'
import { SideLabel, StatusBadge } from './order-columns'

/**
 * One order in a side panel (a bottom sheet on phones): what was asked,
 * what executed, and every fill of it from /trade/list_by_order. An open
 * order can be cancelled from here.
 */
export function OrderDetail({
  order,
  pairs,
  onClose,
  onCancel,
  cancelling,
}: {
  order: SpotOrder | null
  pairs: SpotPair[] | undefined
  onClose: () => void
  onCancel: (o: SpotOrder) => void
  cancelling: boolean
}) {
  const { t } = useTexts('orders')
  return (
    <Drawer.Root
      open={order !== null}
      onOpenChange={(d) => {
        if (!d.open) onClose()
      }}
      placement={{ base: 'bottom', md: 'end' }}
      size={{ base: 'full', md: 'md' }}
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="order-detail" maxH={{ base: '90dvh', md: 'none' }} roundedTop={{ base: 'l3', md: '0' }}>
            {order && <DetailBody order={order} pair={pairOf(pairs, order.symbol)} onCancel={onCancel} cancelling={cancelling} />}
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('detail.close')} data-testid="order-detail-close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}

function DetailBody({
  order,
  pair,
  onCancel,
  cancelling,
}: {
  order: SpotOrder
  pair: SpotPair
  onCancel: (o: SpotOrder) => void
  cancelling: boolean
}) {
  const { t } = useTexts('orders')
  const fills = useQuery(orderFillsQuery(order.order_id))
  const rows: [string, ReactNode, string][] = [
    [t('cols.orderId'), <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere">{order.order_id}</Text>, 'order-id'],
    [t('cols.type'), t(`types.${order.type}`) || order.type, 'type'],
    [t('cols.price'), orderPrice(order, pair) ?? t('market'), 'price'],
  ]
  if (order.stop_price) rows.push([t('cols.stopPrice'), fixed(order.stop_price, pair.pricePrecision), 'stop'])
  rows.push(
    [t('cols.amount'), orderAmount(order, pair), 'amount'],
    [t('cols.filled'), fixed(order.deal_volume, pair.volumePlaces), 'filled'],
    [t('cols.avgPrice'), isPositive(order.deal_volume) ? fixed(order.avg_price, pair.pricePrecision) : '—', 'avg'],
    [t('cols.total'), isPositive(order.deal_money) ? `${fixed(order.deal_money, pair.pricePrecision)} ${pair.quote}`.trim() : '—', 'total'],
    [t('cols.fee'), isPositive(order.fee) ? `${order.fee} ${order.fee_coin ?? ''}`.trim() : '—', 'fee'],
    [t('detail.created'), formatDateTime(order.created_at), 'created'],
    [t('detail.updated'), formatDateTime(order.updated_at), 'updated'],
  )
  if (order.client_order_id) rows.push([t('detail.clientOrderId'), order.client_order_id, 'client-id'])

  const fillColumns: DataColumn<SpotTrade>[] = [
    { id: 'time', header: t('cols.time'), nowrap: true, card: 'title', cell: (f) => formatDateTime(f.created_at) },
    { id: 'role', header: t('cols.role'), card: 'aside', cell: (f) => t(`roles.${f.role}`) || f.role },
    { id: 'price', header: t('cols.price'), numeric: true, cell: (f) => fixed(f.price, pair.pricePrecision) },
    { id: 'amount', header: t('cols.amount'), numeric: true, cell: (f) => fixed(f.volume, pair.volumePlaces) },
    { id: 'total', header: t('cols.total'), numeric: true, cell: (f) => fixed(f.deal_money, pair.pricePrecision) },
    { id: 'fee', header: t('cols.fee'), numeric: true, cell: (f) => `${f.fee} ${f.fee_coin}` },
  ]

  return (
    <>
      <Drawer.Header pe="12">
        <Stack gap="1">
          <Drawer.Title>{t('detail.title')}</Drawer.Title>
          <HStack gap="2" flexWrap="wrap" data-testid="order-detail-heading">
            <Text fontWeight="semibold">{pair.showName}</Text>
            <SideLabel t={t} side={order.side} />
            <StatusBadge t={t} order={order} />
          </HStack>
        </Stack>
      </Drawer.Header>
      <Drawer.Body>
        <Stack gap="6">
          <DataList.Root orientation="horizontal" size="sm" data-testid="order-detail-fields">
            {rows.map(([label, value, id]) => (
              <DataList.Item key={id} data-testid={`order-detail-${id}`}>
                <DataList.ItemLabel minW="32">{label}</DataList.ItemLabel>
                <DataList.ItemValue justifyContent="flex-end" textAlign="end" fontVariantNumeric="tabular-nums">
                  {value}
                </DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
          <Stack gap="2">
            <Heading as="h3" size="sm">
              {t('detail.fills')}
            </Heading>
            <DataTable
              columns={fillColumns}
              rows={fills.data ?? []}
              rowKey={(f) => f.trade_id}
              label={t('detail.fills')}
              layout="cards"
              testId="order-fills"
              rowTestId="order-fill"
              isLoading={fills.isLoading}
              loadingLabel={t('loading')}
              emptyText={t('detail.noFills')}
              emptyTestId="order-fills-empty"
              error={fills.isError ? { text: t('detail.fillsError'), retryText: t('retry'), onRetry: () => void fills.refetch() } : undefined}
            />
          </Stack>
        </Stack>
      </Drawer.Body>
      {isOpenOrder(order) && (
        <Drawer.Footer>
          <Button
            variant="outline"
            colorPalette="red"
            loading={cancelling}
            onClick={() => onCancel(order)}
            data-testid="order-detail-cancel"
          >
            {t('actions.cancel')}
          </Button>
        </Drawer.Footer>
      )}
    </>
  )
}
