import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { DataTableError } from '@/components/data/data-table'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import { cancelAllSpotOrders, cancelSpotOrder, ordersKeys, type SpotOrder } from '../api/orders-api'

/** A query's loading and error state as the orders pages' tables take it (with a retry). */
export function tableState(
  t: TranslateFn,
  query: { isLoading: boolean; isError: boolean; refetch: () => unknown },
  errorText = t('error'),
): { isLoading: boolean; loadingLabel: string; error?: DataTableError } {
  return {
    isLoading: query.isLoading,
    loadingLabel: t('loading'),
    error: query.isError ? { text: errorText, retryText: t('retry'), onRetry: () => void query.refetch() } : undefined,
  }
}

/** Shows one error toast when a query stops loading (not one per failed poll). */
export function useErrorToast(isError: boolean, message: string) {
  const shown = useRef(false)
  useEffect(() => {
    if (isError && !shown.current) notifyError(message)
    shown.current = isError
  }, [isError, message])
}

/**
 * Mutations toast refused requests through the request client; a transport
 * failure (offline, server down) rejects with a plain Error and no toast yet.
 */
function toastTransportError(error: unknown, fallback: string) {
  if (!(error instanceof ApiError)) notifyError(fallback)
}

/**
 * Cancels orders and remembers which ones are on their way out. Used by
 * the orders list and by an order's own page.
 */
export function useCancel() {
  const { t } = useTexts('orders')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set())
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ordersKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] }),
    ])
  const settle = (orderId: string) =>
    setPending((s) => {
      const next = new Set(s)
      next.delete(orderId)
      return next
    })
  const cancel = useMutation({
    mutationFn: (o: SpotOrder) => cancelSpotOrder(o),
    onMutate: (o) => setPending((s) => new Set(s).add(o.order_id)),
    // The engine cancels asynchronously: the row keeps its spinner until
    // the refreshed list no longer has it (or shows it still open).
    onSuccess: async (_data, o) => {
      notifySuccess(t('toasts.cancelled'))
      await refresh()
      settle(o.order_id)
    },
    onError: (error, o) => {
      toastTransportError(error, common.t('error'))
      settle(o.order_id)
    },
  })
  // `pair` (its display name) when only one pair's orders are cancelled: the toast names it.
  const cancelAll = useMutation({
    mutationFn: ({ symbol }: { symbol: string; pair?: string }) => cancelAllSpotOrders(symbol),
    onSuccess: (_data, { pair }) => {
      notifySuccess(pair ? t('toasts.cancelledAllPair', { pair }) : t('toasts.cancelledAll'))
      void refresh()
    },
    onError: (error) => toastTransportError(error, common.t('error')),
  })
  return { cancel, cancelAll, pending }
}

/** What {@link useCancel} returns. */
export type Cancel = ReturnType<typeof useCancel>
