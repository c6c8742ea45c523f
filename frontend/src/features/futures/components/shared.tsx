import { Badge, Box, HStack, Text, VisuallyHidden } from '@chakra-ui/react'
import { notifyError } from '@/lib/notify'
import { ApiError } from '@/lib/request-client'
import type { TranslateFn } from '@/lib/i18n'
import type { MarginMode, OrderSide, PositionSide, PositionSideOf } from '../api/futures-api'
import { MARGIN_ISOLATED } from '../api/futures-api'
import { adlLights } from '../lib/format'
import { hedgeActionKey } from '../lib/hedge'

/**
 * A change the server refused has had its toast from the request client
 * (the server's message in the page's language); one that got no answer
 * (offline, server down) has not, and may even have been applied: it gets
 * the screen's own words.
 */
export function notifyTransport(error: unknown, text: string): void {
  if (!(error instanceof ApiError)) notifyError(text)
}

/**
 * An order's side in words and colour: Buy or Sell, or in hedge mode (a
 * positionSide LONG or SHORT) Open long, Close long, Open short or Close
 * short, in the colour of its side.
 */
export function SideText({ side, positionSide, t }: { side: OrderSide; positionSide?: PositionSideOf; t: TranslateFn }) {
  const hedge = hedgeActionKey({ side, positionSide })
  return (
    <Text as="span" color={side === 'BUY' ? 'up' : 'down'} fontWeight="medium" data-testid={hedge ? 'order-hedge-side' : undefined}>
      {t(hedge ?? `side.${side}`)}
    </Text>
  )
}

/** A position's side in words and colour (Long or Short). */
export function PositionSideText({ side, t }: { side: PositionSide; t: TranslateFn }) {
  return (
    <Text as="span" color={side === 'LONG' ? 'up' : 'down'} fontWeight="semibold">
      {t(`positions.side.${side}`)}
    </Text>
  )
}

/** The margin mode and leverage of a position as a small badge ("Cross 20×"). */
export function ModeBadge({ mode, leverage, t }: { mode: MarginMode; leverage: number; t: TranslateFn }) {
  return (
    <Badge size="sm" variant="subtle" colorPalette={mode === MARGIN_ISOLATED ? 'orange' : 'gray'} data-testid="position-mode">
      {t(mode === MARGIN_ISOLATED ? 'marginMode.isolated' : 'marginMode.cross')} {leverage}×
    </Badge>
  )
}

/**
 * The auto-deleveraging queue as five lights (the first `level` lit, the
 * queue's front at 5), with the level in words for screen readers and as a
 * tooltip.
 */
export function AdlLights({ level, t }: { level: number; t: TranslateFn }) {
  const label = t('positions.adlLevel', { level: Math.max(0, Math.min(5, level || 0)) })
  return (
    <HStack gap="0.5" title={label} data-testid="adl-lights" data-level={level}>
      <VisuallyHidden>{label}</VisuallyHidden>
      {adlLights(level).map((lit, i) => (
        <Box key={i} aria-hidden w="1.5" h="3" rounded="1px" bg={lit ? (i >= 3 ? 'down' : i >= 1 ? 'orange.solid' : 'up') : 'border'} data-lit={lit ? '' : undefined} />
      ))}
    </HStack>
  )
}
