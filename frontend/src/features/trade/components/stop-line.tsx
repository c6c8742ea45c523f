import { Text } from '@chakra-ui/react'
import { fixed } from '@/lib/decimal'
import { hasStop, stopOperator, stopState, type StopOrderFields } from '../lib/stop-order'

/** Texts of {@link StopLine} (the trade page and the orders pages each pass their own). */
export interface StopLineTexts {
  trigger: (op: string, price: string) => string
  waiting: string
  triggered: string
}

/**
 * Under a stop-limit order's price: the stop that activates it ("Stop ≥
 * 98,000.00") and, while the order is open, whether it still waits for
 * that stop. Nothing for an order without a stop.
 */
export function StopLine({
  order,
  places,
  lastPrice,
  texts,
}: {
  order: StopOrderFields
  places: number | undefined
  lastPrice?: string
  texts: StopLineTexts
}) {
  if (!hasStop(order)) return null
  const state = stopState(order, lastPrice)
  const price = places === undefined ? (order.stop_price ?? '') : fixed(order.stop_price, places)
  return (
    <Text as="span" display="block" fontSize="xs" color="fg.muted" data-testid="order-stop">
      {texts.trigger(stopOperator(order.side), price)}
      {state && (
        <Text
          as="span"
          display="block"
          whiteSpace="normal"
          color={state === 'waiting' ? 'orange.fg' : undefined}
          data-testid="order-stop-state"
          data-state={state}
        >
          {state === 'waiting' ? texts.waiting : texts.triggered}
        </Text>
      )}
    </Text>
  )
}
