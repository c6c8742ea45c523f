import { Box, Button, HStack, Skeleton, Stack, Table, Tabs, Text } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import {
  cancelAllOrders,
  cancelOrder,
  openOrdersQuery,
  orderHistoryQuery,
  tradeHistoryQuery,
  type OrderView,
  type TradePair,
} from '../api/trade-api'
import { fixed, placesOf } from '../lib/decimal'
import { formatTime } from './format'

const REFRESH_MS = 4000

function Empty({ text, testId }: { text: string; testId: string }) {
  return (
    <Text py="8" textAlign="center" color="fg.muted" fontSize="sm" data-testid={testId}>
      {text}
    </Text>
  )
}

function Loading() {
  return (
    <Stack gap="2" py="2">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} h="6" />
      ))}
    </Stack>
  )
}

function SideText({ side }: { side: string }) {
  const { t } = useTexts('trade')
  return <Text color={side === 'BUY' ? 'up' : 'down'}>{t(side === 'BUY' ? 'form.buy' : 'form.sell')}</Text>
}

function OrdersTable({ orders, pair, onCancel, testId }: { orders: OrderView[]; pair: TradePair; onCancel?: (o: OrderView) => void; testId: string }) {
  const { t } = useTexts('trade')
  const volPlaces = placesOf(pair.lotSize)
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" data-testid={testId}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('orders.time')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('orders.side')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('orders.type')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.price')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.amount')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.filled')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('orders.status')}</Table.ColumnHeader>
            {onCancel && <Table.ColumnHeader />}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {orders.map((o) => (
            <Table.Row key={o.order_id} data-testid="order-row">
              <Table.Cell whiteSpace="nowrap">{formatTime(o.created_at)}</Table.Cell>
              <Table.Cell>
                <SideText side={o.side} />
              </Table.Cell>
              <Table.Cell>{t(`form.types.${o.type}`)}</Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {Number(o.price) > 0 ? fixed(o.price, pair.pricePrecision) : t('orders.market')}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {Number(o.volume) > 0 ? fixed(o.volume, volPlaces) : `${fixed(o.quote_volume, pair.pricePrecision)} ${pair.quote}`}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {fixed(o.deal_volume, volPlaces)}
              </Table.Cell>
              <Table.Cell>{t(`orders.statuses.${o.status}`)}</Table.Cell>
              {onCancel && (
                <Table.Cell textAlign="end">
                  <Button size="2xs" variant="outline" data-testid="cancel-order" onClick={() => onCancel(o)}>
                    {t('orders.cancel')}
                  </Button>
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}

function OpenOrders({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const { data, isLoading } = useQuery({ ...openOrdersQuery(pair.symbol), refetchInterval: REFRESH_MS })
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] })
    void queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] })
  }
  const cancel = useMutation({
    mutationFn: (o: OrderView) => cancelOrder(pair.symbol, o.order_id),
    onSuccess: () => {
      notifySuccess(t('orders.cancelled'))
      refresh()
    },
  })
  const cancelAll = useMutation({
    mutationFn: () => cancelAllOrders(pair.symbol),
    onSuccess: () => {
      notifySuccess(t('orders.cancelledAll'))
      refresh()
    },
  })
  if (isLoading) return <Loading />
  const orders = data?.orderList ?? []
  return (
    <Stack gap="2">
      {orders.length > 0 && (
        <HStack justify="end">
          <Button size="xs" variant="outline" colorPalette="red" loading={cancelAll.isPending} data-testid="cancel-all" onClick={() => cancelAll.mutate()}>
            {t('orders.cancelAll')}
          </Button>
        </HStack>
      )}
      {orders.length === 0 ? (
        <Empty text={t('orders.emptyOpen')} testId="open-orders-empty" />
      ) : (
        <OrdersTable orders={orders} pair={pair} onCancel={(o) => cancel.mutate(o)} testId="open-orders-table" />
      )}
    </Stack>
  )
}

function OrderHistory({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const { data, isLoading } = useQuery({ ...orderHistoryQuery(pair.symbol), refetchInterval: REFRESH_MS })
  if (isLoading) return <Loading />
  const orders = data?.orderList ?? []
  return orders.length === 0 ? <Empty text={t('orders.emptyHistory')} testId="order-history-empty" /> : <OrdersTable orders={orders} pair={pair} testId="order-history-table" />
}

function TradeHistory({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const { data, isLoading } = useQuery({ ...tradeHistoryQuery(pair.symbol), refetchInterval: REFRESH_MS })
  if (isLoading) return <Loading />
  const trades = data?.tradeList ?? []
  if (trades.length === 0) return <Empty text={t('orders.emptyTrades')} testId="trade-history-empty" />
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" data-testid="trade-history-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('orders.time')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('orders.side')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.price')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.amount')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.total')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('orders.fee')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {trades.map((tr) => (
            <Table.Row key={tr.trade_id} data-testid="trade-row">
              <Table.Cell whiteSpace="nowrap">{formatTime(tr.created_at)}</Table.Cell>
              <Table.Cell>
                <SideText side={tr.side} />
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {fixed(tr.price, pair.pricePrecision)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {fixed(tr.volume, placesOf(pair.lotSize))}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {fixed(tr.deal_money, pair.pricePrecision)}
              </Table.Cell>
              <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                {tr.fee} {tr.fee_coin}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  )
}

/** Open orders (cancel, cancel all), order history and trade history of the signed-in user. */
export function UserOrders({ pair }: { pair: TradePair }) {
  const { t } = useTexts('trade')
  const { isSignedIn } = useUserInfo()
  const [tab, setTab] = useState('open')
  return (
    <Box borderWidth="1px" rounded="lg" bg="bg.panel" data-testid="user-orders">
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" lazyMount unmountOnExit>
        <Tabs.List px="2">
          <Tabs.Trigger value="open" data-testid="tab-open-orders">
            {t('orders.open')}
          </Tabs.Trigger>
          <Tabs.Trigger value="history" data-testid="tab-order-history">
            {t('orders.history')}
          </Tabs.Trigger>
          <Tabs.Trigger value="trades" data-testid="tab-trade-history">
            {t('orders.trades')}
          </Tabs.Trigger>
        </Tabs.List>
        <Box px="3" pb="3">
          {!isSignedIn ? (
            <Empty text={t('orders.signIn')} testId="orders-signin" />
          ) : (
            <>
              <Tabs.Content value="open">
                <OpenOrders pair={pair} />
              </Tabs.Content>
              <Tabs.Content value="history">
                <OrderHistory pair={pair} />
              </Tabs.Content>
              <Tabs.Content value="trades">
                <TradeHistory pair={pair} />
              </Tabs.Content>
            </>
          )}
        </Box>
      </Tabs.Root>
    </Box>
  )
}
