import { Button, CloseButton, Drawer, HStack, Portal, Stack } from '@chakra-ui/react'
import { useState } from 'react'
import { LuMaximize2, LuPencil } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { AmendDialog } from '@/features/trade/components/amend-dialog'
import { canAmend } from '@/features/trade/lib/amend'
import { useTexts } from '@/lib/i18n'
import type { SpotOrder, SpotPair } from '../api/orders-api'
import type { OrdersSearch } from '../lib/order-filters'
import { isOpenOrder, pairOf } from '../lib/order-format'
import { orderPageHref } from '../lib/order-links'
import { OrderFields, OrderFills, OrderHeadline } from './order-fields'

/**
 * One order in a side panel (a bottom sheet on phones): what was asked,
 * what executed, and every fill of it from /trade/list_by_order. An open
 * order can be cancelled from here, an open resting one (limit, post-only,
 * stop-limit) reduced as from the lists, and the panel links to the order's
 * own page (which keeps the list's search for its way back).
 */
export function OrderDetail({
  order,
  pairs,
  search,
  onClose,
  onCancel,
  cancelling,
}: {
  order: SpotOrder | null
  pairs: SpotPair[] | undefined
  /** The list's search, carried to the order's page for its back link. */
  search: OrdersSearch
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
            {order && (
              <DetailBody order={order} pair={pairOf(pairs, order.symbol)} search={search} onCancel={onCancel} cancelling={cancelling} onClose={onClose} />
            )}
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
  search,
  onCancel,
  cancelling,
  onClose,
}: {
  order: SpotOrder
  pair: SpotPair
  search: OrdersSearch
  onCancel: (o: SpotOrder) => void
  cancelling: boolean
  onClose: () => void
}) {
  const { t } = useTexts('orders')
  const trade = useTexts('trade')
  const [amending, setAmending] = useState(false)
  return (
    <>
      <Drawer.Header pe="12">
        <Stack gap="1">
          <Drawer.Title>{t('detail.title')}</Drawer.Title>
          <OrderHeadline order={order} pair={pair} />
        </Stack>
      </Drawer.Header>
      <Drawer.Body>
        <Stack gap="6">
          <OrderFields order={order} pair={pair} />
          <OrderFills order={order} pair={pair} />
        </Stack>
      </Drawer.Body>
      <Drawer.Footer>
        <HStack justify="space-between" w="full" gap="2" flexWrap="wrap">
          <Button asChild variant="ghost" size="sm" colorPalette="brand">
            <AppLink href={orderPageHref(order.order_id, search)} data-testid="order-detail-page-link">
              <LuMaximize2 aria-hidden="true" />
              {t('detail.openPage')}
            </AppLink>
          </Button>
          {isOpenOrder(order) && (
            <HStack gap="2" ms="auto">
              {canAmend(order) && (
                <Button
                  variant="outline"
                  onClick={() => setAmending(true)}
                  data-testid="order-detail-amend"
                >
                  <LuPencil aria-hidden="true" />
                  {trade.t('amend.action')}
                </Button>
              )}
              <Button
                variant="outline"
                colorPalette="red"
                loading={cancelling}
                onClick={() => onCancel(order)}
                data-testid="order-detail-cancel"
              >
                {t('actions.cancel')}
              </Button>
            </HStack>
          )}
        </HStack>
      </Drawer.Footer>
      {/* The panel shows the order as it was opened: once the new amount is taken it closes, as after a cancel, and the
          refreshed list shows the order as it now is. */}
      <AmendDialog order={amending ? order : null} onClose={() => setAmending(false)} onAmended={onClose} />
    </>
  )
}
