import { useQuery } from '@tanstack/react-query'
import { isOpenOrder } from '../lib/order-format'
import { isOrderId, isOrderNotFound, OPEN_REFRESH_MS, orderDetailQuery, type SpotOrder } from './orders-api'

/** What an order's page can show. */
export type OrderDetailState =
  | { status: 'loading' }
  /** The id names no order of this user (or cannot name an order at all): said once, never retried. */
  | { status: 'notFound' }
  /** The order could not be read (offline, server trouble): the page offers a retry. */
  | { status: 'error'; retry: () => void }
  | { status: 'ready'; order: SpotOrder; isRefreshing: boolean }

/**
 * One of the user's orders by id, for its own page (/order/detail). An open
 * order is polled so that fills and its end show up; a finished one is
 * read once (the live updates refresh it too). An id that cannot be an
 * order id is not sent at all.
 */
export function useOrderDetail(orderId: string): OrderDetailState {
  const valid = isOrderId(orderId)
  const query = useQuery({
    ...orderDetailQuery(orderId),
    enabled: valid,
    refetchInterval: (q) => (q.state.data && isOpenOrder(q.state.data) && !isOrderNotFound(q.state.error) ? OPEN_REFRESH_MS : false),
  })
  if (!valid) return { status: 'notFound' }
  // An order already shown stays shown when a later refresh fails: the
  // page keeps the last known state rather than blanking out.
  if (query.data) return { status: 'ready', order: query.data, isRefreshing: query.isFetching }
  if (query.isError) {
    if (isOrderNotFound(query.error)) return { status: 'notFound' }
    return { status: 'error', retry: () => void query.refetch() }
  }
  return { status: 'loading' }
}
