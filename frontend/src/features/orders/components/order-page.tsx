import { Box, Button, Container, Flex, Heading, Icon, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuArrowLeft, LuChartCandlestick, LuPencil, LuSearchX } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { AmendDialog } from '@/features/trade/components/amend-dialog'
import { canAmend } from '@/features/trade/lib/amend'
import { useTexts } from '@/lib/i18n'
import { spotPairsQuery, type SpotOrder, type SpotPair } from '../api/orders-api'
import { useOrderDetail } from '../api/use-order-detail'
import type { OrdersSearch } from '../lib/order-filters'
import { isOpenOrder, pairOf } from '../lib/order-format'
import { ordersListHref } from '../lib/order-links'
import { OrderFields, OrderFills, OrderHeadline } from './order-fields'
import { useCancel, useErrorToast } from './order-hooks'

/**
 * /order/spot/<id>: one of the user's spot orders on its own page, so it
 * can be bookmarked, shared with support or opened from a notification.
 * It shows what the side panel of the list shows (fields, fills, cancel
 * and amend while open) and links back to the list as it was filtered.
 */
export function OrderPage({ orderId, search }: { orderId: string; search: OrdersSearch }) {
  const { t } = useTexts('orders')
  const state = useOrderDetail(orderId)
  const pairs = useQuery(spotPairsQuery).data
  const listHref = ordersListHref(search)
  // One toast when the order cannot be read; "not found" is an answer, not a fault, and gets none.
  useErrorToast(state.status === 'error', t('page.error'))

  return (
    <Container maxW="5xl" py={{ base: '4', md: '8' }} px={{ base: '3', md: '6' }} data-testid="order-page" data-state={state.status}>
      <Button asChild size="sm" variant="ghost" ms="-2" mb="3">
        <AppLink href={listHref} data-testid="order-back">
          <LuArrowLeft aria-hidden="true" />
          {t('page.back')}
        </AppLink>
      </Button>
      {state.status === 'loading' && <LoadingState />}
      {state.status === 'notFound' && <NotFoundState orderId={orderId} listHref={listHref} />}
      {state.status === 'error' && (
        <>
          <Heading as="h1" size="xl" mb="4">
            {t('detail.title')}
          </Heading>
          <Stack align="center" py="12" gap="3" role="alert" data-testid="order-page-error">
            <Text color="fg.error">{t('page.error')}</Text>
            <Button size="sm" variant="outline" onClick={state.retry}>
              {t('retry')}
            </Button>
          </Stack>
        </>
      )}
      {state.status === 'ready' && <OrderView order={state.order} pair={pairOf(pairs, state.order.symbol)} />}
    </Container>
  )
}

function LoadingState() {
  const { t } = useTexts('orders')
  return (
    <>
      <Heading as="h1" size="xl" mb="4">
        {t('detail.title')}
      </Heading>
      <Stack gap="3" role="status" aria-label={t('page.loading')} data-testid="order-page-loading">
        <Skeleton h="6" w="48" />
        <Skeleton h="48" rounded="md" />
        <Skeleton h="24" rounded="md" />
      </Stack>
    </>
  )
}

function NotFoundState({ orderId, listHref }: { orderId: string; listHref: string }) {
  const { t } = useTexts('orders')
  return (
    <Stack align="center" textAlign="center" py={{ base: '10', md: '16' }} gap="3" maxW="md" mx="auto" data-testid="order-not-found">
      <Icon as={LuSearchX} boxSize="10" color="fg.muted" aria-hidden="true" />
      <Heading as="h1" size="xl">
        {t('page.notFoundTitle')}
      </Heading>
      <Text color="fg.muted" overflowWrap="anywhere">
        {t('page.notFoundBody', { id: orderId })}
      </Text>
      <Button asChild colorPalette="brand" mt="2">
        <AppLink href={listHref} data-testid="order-not-found-back">
          {t('page.backToList')}
        </AppLink>
      </Button>
    </Stack>
  )
}

function OrderView({ order, pair }: { order: SpotOrder; pair: SpotPair }) {
  const { t } = useTexts('orders')
  const trade = useTexts('trade')
  const { cancel, pending } = useCancel()
  const [amending, setAmending] = useState(false)
  return (
    <Stack gap="6">
      <Flex justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="3" direction={{ base: 'column', sm: 'row' }}>
        <Stack gap="1" minW="0">
          <Heading as="h1" size="xl">
            {t('detail.title')}
          </Heading>
          <OrderHeadline order={order} pair={pair} />
        </Stack>
        <Flex gap="2" flexWrap="wrap">
          {/* The pair list gives the trade page's address; without it there is no link to guess. */}
          {pair.quote && (
            <Button asChild size="sm" variant="subtle" colorPalette="brand">
              <AppLink href={`/trade/${pair.routeSymbol}`} data-testid="order-trade-link">
                <LuChartCandlestick aria-hidden="true" />
                {t('page.trade', { pair: pair.showName })}
              </AppLink>
            </Button>
          )}
          {/* The page reads the order again once the new amount is taken (the amend refreshes every order query). */}
          {canAmend(order) && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => setAmending(true)}
              data-testid="order-page-amend"
            >
              <LuPencil aria-hidden="true" />
              {trade.t('amend.action')}
            </Button>
          )}
          {isOpenOrder(order) && (
            <Button
              size="sm"
              variant="outline"
              colorPalette="red"
              loading={pending.has(order.order_id)}
              onClick={() => cancel.mutate(order)}
              data-testid="order-page-cancel"
            >
              {t('page.cancel')}
            </Button>
          )}
        </Flex>
      </Flex>
      <Box as="section" aria-label={t('page.summary')} borderWidth="1px" rounded="md" bg="bg.panel" p={{ base: '3', md: '5' }}>
        <OrderFields
          order={order}
          pair={pair}
          display="grid"
          gridTemplateColumns={{ base: '1fr', md: '1fr 1fr' }}
          columnGap="10"
          rowGap="3"
        />
      </Box>
      <OrderFills order={order} pair={pair} layout="auto" headingLevel="h2" />
      <AmendDialog order={amending ? order : null} onClose={() => setAmending(false)} />
    </Stack>
  )
}
