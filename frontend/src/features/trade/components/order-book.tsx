import { Box, Button, chakra, Flex, HStack, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useTexts } from '@/lib/i18n'
import { tickerQuery, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { fixed, formatDec, groupThousands, mulDec, parseDec, placesOf } from '@/lib/decimal'
import { changeColor } from './format'

const ROWS = 12

/**
 * The merge step of depth step n: the pair's depthSteps[n] from the market
 * document (the server merges on the same grids), else the tick × 10^n.
 */
export function stepSize(tick: string, n: number, steps?: readonly string[]): string {
  const given = steps?.[n]
  if (given && parseDec(given)) return given
  const d = parseDec(tick) ?? { units: 1n, scale: 2 }
  return formatDec(mulDec(d, { units: 10n ** BigInt(n), scale: 0 }), Math.max(0, placesOf(tick) - n))
}

function Level({
  side,
  price,
  qty,
  width,
  pricePlaces,
  volPlaces,
  onPick,
  tabStop,
  onFocus,
}: {
  side: 'buy' | 'sell'
  price: string
  qty: string
  width: number
  pricePlaces: number
  volPlaces: number
  onPick: (price: string) => void
  /** The one level the Tab key stops at (the arrow keys move between levels). */
  tabStop: boolean
  onFocus: () => void
}) {
  return (
    <chakra.button
      type="button"
      tabIndex={tabStop ? 0 : -1}
      onFocus={onFocus}
      data-level=""
      display="flex"
      position="relative"
      w="full"
      px="2"
      py="0.5"
      fontSize="xs"
      fontVariantNumeric="tabular-nums"
      justifyContent="space-between"
      cursor="pointer"
      _hover={{ bg: 'bg.muted' }}
      onClick={() => onPick(price)}
      data-testid={`book-${side}`}
    >
      <Box
        position="absolute"
        insetY="0"
        right="0"
        width={`${Math.min(100, width * 100)}%`}
        bg={side === 'buy' ? 'up' : 'down'}
        opacity={0.15}
        pointerEvents="none"
      />
      <Text color={side === 'buy' ? 'up' : 'down'}>{fixed(price, pricePlaces)}</Text>
      <Text>{fixed(qty, volPlaces)}</Text>
    </chakra.button>
  )
}

/**
 * Order book with depth bars and the precision-step selector; clicking a
 * level fills the form's price. A book that could not be loaded says so and
 * offers a retry (an empty one says it is empty).
 */
export function OrderBook({ pair, onPick }: { pair: TradePair; onPick: (price: string) => void }) {
  const { t } = useTexts('trade')
  const [step, setStep] = useState(0)
  const { data, isLoading, isError, isFetching, refetch } = useLiveDepth(pair.symbol, step)
  const { data: ticker } = useQuery(tickerQuery(pair.symbol))
  const places = Math.max(0, placesOf(stepSize(pair.priceTick, step, pair.depthSteps)))
  const asks = (data?.asks ?? []).slice(0, ROWS).reverse()
  const buys = (data?.buys ?? []).slice(0, ROWS)
  const max = Math.max(1e-12, ...[...asks, ...buys].map(([, v]) => Number(v)))
  // The levels are one stop of the Tab key (not 24 on the way to the order form): the arrow keys, Home and End move
  // between them, Enter picks one. The stop starts at the best ask, next to the spread. Rows are keyed by their place,
  // not their price, so a focused row stays focused while the live book changes its price.
  const [stop, setStop] = useState<number>()
  const levelCount = asks.length + buys.length
  const tabStop = Math.min(stop ?? Math.max(0, asks.length - 1), Math.max(0, levelCount - 1))
  const levels = useRef<HTMLDivElement>(null)
  const onLevelKey = (e: React.KeyboardEvent) => {
    const buttons = Array.from(levels.current?.querySelectorAll<HTMLButtonElement>('[data-level]') ?? [])
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement)
    if (i < 0) return
    const next = e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? buttons.length - 1 : undefined
    if (next === undefined) return
    e.preventDefault()
    buttons[Math.max(0, Math.min(buttons.length - 1, next))]?.focus()
  }
  return (
    <Stack gap="1" data-testid="order-book" h="full">
      <HStack justify="space-between" px="2" pt="2">
        <Text fontWeight="semibold" fontSize="sm">
          {t('book.title')}
        </Text>
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field aria-label={t('book.step')} data-testid="book-step" value={String(step)} onChange={(e) => setStep(Number(e.target.value))}>
            {[0, 1, 2].map((n) => (
              <option key={n} value={n}>
                {groupThousands(stepSize(pair.priceTick, n, pair.depthSteps))}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      <Flex px="2" justify="space-between" fontSize="2xs" color="fg.muted">
        <Text>{t('book.price', { coin: pair.quote })}</Text>
        <Text>{t('book.amount', { coin: pair.base })}</Text>
      </Flex>
      {isLoading ? (
        <Stack px="2" gap="1" data-testid="book-loading">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} h="4" />
          ))}
        </Stack>
      ) : isError && !data ? (
        <Stack px="2" py="6" align="center" gap="3" role="alert" data-testid="book-error">
          <Text color="fg.error" fontSize="sm" textAlign="center">
            {t('book.error')}
          </Text>
          <Button size="xs" variant="outline" loading={isFetching} onClick={() => void refetch()} data-testid="book-retry">
            {t('book.retry')}
          </Button>
        </Stack>
      ) : asks.length + buys.length === 0 ? (
        <Text px="2" py="6" textAlign="center" color="fg.muted" fontSize="sm" data-testid="book-empty">
          {t('book.empty')}
        </Text>
      ) : (
        <Box ref={levels} onKeyDown={onLevelKey}>
          <Stack gap="0" role="group" aria-label={t('book.asks')} data-testid="book-asks">
            {asks.map(([p, v], i) => (
              <Level
                key={`a${asks.length - i}`}
                side="sell"
                price={p}
                qty={v}
                width={Number(v) / max}
                pricePlaces={places}
                volPlaces={pair.volumePrecision}
                onPick={onPick}
                tabStop={i === tabStop}
                onFocus={() => setStop(i)}
              />
            ))}
          </Stack>
          <Text px="2" py="1" fontWeight="bold" fontVariantNumeric="tabular-nums" color={changeColor(ticker?.rose)} data-testid="book-last">
            {fixed(ticker?.close, pair.pricePrecision)}
          </Text>
          <Stack gap="0" role="group" aria-label={t('book.bids')} data-testid="book-bids">
            {buys.map(([p, v], i) => (
              <Level
                key={`b${i}`}
                side="buy"
                price={p}
                qty={v}
                width={Number(v) / max}
                pricePlaces={places}
                volPlaces={pair.volumePrecision}
                onPick={onPick}
                tabStop={asks.length + i === tabStop}
                onFocus={() => setStop(asks.length + i)}
              />
            ))}
          </Stack>
        </Box>
      )}
    </Stack>
  )
}
