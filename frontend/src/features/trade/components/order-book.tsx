import { Box, Button, chakra, Flex, Grid, HStack, IconButton, NativeSelect, Skeleton, Stack, Text, VisuallyHidden } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { LuArrowDown, LuArrowUp } from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'
import { SPOT_MARKET, tickerQuery, type MarketApi, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { fixed, formatDec, groupThousands, mulDec, parseDec, placesOf } from '@/lib/decimal'
import { bookSides, clampLevels, DEFAULT_LEVELS, levelsThatFit, padRows, ROW_HEIGHT, sideCounts, SPREAD_HEIGHT, spreadOf, type BookLevel, type BookView } from '../lib/book'
import { changeColor } from './format'

/** Price, Amount, Total: the price column a little wider (grouped prices are the longest figures). */
const COLUMNS = 'minmax(0, 1.15fr) minmax(0, 1fr) minmax(0, 1fr)'
const ROW = `${ROW_HEIGHT}px`

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

/**
 * The height of an element while `enabled`, kept current by a
 * ResizeObserver; undefined until measured, when disabled and where nothing
 * is laid out (jsdom measures 0). Returns a callback ref for the element.
 */
export function useFillHeight(enabled: boolean): [(el: HTMLElement | null) => void, number | undefined] {
  const [el, setEl] = useState<HTMLElement | null>(null)
  const [height, setHeight] = useState<number>()
  const ref = useCallback((node: HTMLElement | null) => setEl(node), [])
  useEffect(() => {
    if (!enabled || !el) return
    const measure = () => setHeight(Math.floor(el.getBoundingClientRect().height) || undefined)
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure)
    observer?.observe(el)
    return () => observer?.disconnect()
  }, [el, enabled])
  return [ref, enabled ? height : undefined]
}

/** A row where the book has no level: keeps the panel's height, hidden from screen readers and the keyboard. */
function Placeholder() {
  return <Box aria-hidden h={ROW} flexShrink={0} data-row="" />
}

function Level({
  side,
  level,
  pricePlaces,
  volPlaces,
  label,
  onPick,
  tabStop,
  onFocus,
}: {
  side: 'buy' | 'sell'
  level: BookLevel
  pricePlaces: number
  volPlaces: number
  label: string
  onPick: (price: string) => void
  /** The one level the Tab key stops at (the arrow keys move between levels). */
  tabStop: boolean
  onFocus: () => void
}) {
  const color = side === 'buy' ? 'up' : 'down'
  return (
    <chakra.button
      type="button"
      tabIndex={tabStop ? 0 : -1}
      onFocus={onFocus}
      aria-label={label}
      data-level=""
      data-row=""
      display="grid"
      gridTemplateColumns={COLUMNS}
      columnGap="1"
      alignItems="center"
      position="relative"
      w="full"
      h={ROW}
      flexShrink={0}
      px="2"
      fontSize="xs"
      lineHeight={ROW}
      textAlign="start"
      whiteSpace="nowrap"
      cursor="pointer"
      _hover={{ bg: 'bg.muted' }}
      focusVisibleRing="inside"
      onClick={() => onPick(level.price)}
      data-testid={`book-${side}`}
    >
      {/* The depth bar: the cumulative total against the largest one shown. */}
      <Box position="absolute" insetY="0" right="0" width={`${level.depth * 100}%`} bg={color} opacity={0.15} pointerEvents="none" />
      {/* Positioned, so the figures are drawn above the bar. */}
      <Text as="span" position="relative" color={color} truncate>
        {fixed(level.price, pricePlaces)}
      </Text>
      <Text as="span" position="relative" textAlign="end" truncate>
        {fixed(level.amount, volPlaces)}
      </Text>
      <Text as="span" position="relative" textAlign="end" truncate>
        {fixed(level.total, volPlaces)}
      </Text>
    </chakra.button>
  )
}

/** The icon of a view: the sides it shows as red (asks) and green (bids) blocks beside the rows' lines. */
function ViewIcon({ view }: { view: BookView }) {
  return (
    <Flex aria-hidden gap="2px" w="14px" h="14px">
      <Stack gap="1px" w="5px">
        <Box flex="1" rounded="1px" bg={view === 'bids' ? 'up' : 'down'} />
        <Box flex="1" rounded="1px" bg={view === 'asks' ? 'down' : 'up'} />
      </Stack>
      <Stack gap="0" flex="1" justify="space-between" py="1px">
        {[0, 1, 2, 3].map((i) => (
          <Box key={i} h="2px" rounded="1px" bg="fg.muted" />
        ))}
      </Stack>
    </Flex>
  )
}

const VIEWS: { view: BookView; label: string }[] = [
  { view: 'both', label: 'book.viewBoth' },
  { view: 'bids', label: 'book.viewBids' },
  { view: 'asks', label: 'book.viewAsks' },
]

/**
 * Order book, Binance style: price, amount and the cumulative total of each
 * level with depth bars, the last price and the spread between the sides, a
 * view of both sides or one, and the precision-step selector; clicking a
 * level fills the form's price. It always draws the same number of rows for
 * its view and height (empty places are placeholders), so the panel never
 * jumps as the live book grows and shrinks: `rows` levels a side (twice as
 * many of one side alone), or as many as fit its parent's height with
 * `fill`. A book that could not be loaded says so and offers a retry (an
 * empty one says it is empty).
 */
export function OrderBook({
  pair,
  onPick,
  rows = DEFAULT_LEVELS,
  fill = false,
  market = SPOT_MARKET,
}: {
  pair: TradePair
  onPick: (price: string) => void
  /** The service of the market's data: spot by default, the futures service for a contract. */
  market?: MarketApi
  /** Levels per side in the both view (1..20); with `fill`, the count until the height is measured. */
  rows?: number
  /** Take the parent's full height and show as many rows as fit it. */
  fill?: boolean
}) {
  const { t } = useTexts('trade')
  const [step, setStep] = useState(0)
  const [view, setView] = useState<BookView>('both')
  const { data, isLoading, isError, isFetching, refetch } = useLiveDepth(pair.symbol, step, market)
  const { data: ticker } = useQuery(tickerQuery(pair.symbol, market))
  const [areaRef, height] = useFillHeight(fill)
  const perSide = fill ? levelsThatFit(height, rows) : clampLevels(rows)
  const counts = sideCounts(view, perSide)
  const places = Math.max(0, placesOf(stepSize(pair.priceTick, step, pair.depthSteps)))
  const { asks, bids } = bookSides(data, counts)
  const spread = spreadOf(data?.asks?.[0]?.[0], data?.buys?.[0]?.[0], places)
  // Asks show highest first, the best ask last next to the spread; their empty places are on top, far from it.
  const askRows = padRows(asks, counts.asks).reverse()
  const askGap = counts.asks - asks.length
  const bidRows = padRows(bids, counts.bids)
  // The levels are one stop of the Tab key (not 24 on the way to the order form): the arrow keys, Home and End move
  // between them, Enter picks one. The stop starts at the best ask, next to the spread. Rows are keyed by their place,
  // not their price, so a focused row stays focused while the live book changes its price.
  const [stop, setStop] = useState<number>()
  const levelCount = asks.length + bids.length
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
  const level = (side: 'buy' | 'sell', l: BookLevel, index: number, key: string) => (
    <Level
      key={key}
      side={side}
      level={l}
      pricePlaces={places}
      volPlaces={pair.volumePrecision}
      label={t('book.level', {
        price: fixed(l.price, places),
        amount: fixed(l.amount, pair.volumePrecision),
        total: fixed(l.total, pair.volumePrecision),
        quote: pair.quote,
        base: pair.base,
      })}
      onPick={onPick}
      tabStop={index === tabStop}
      onFocus={() => setStop(index)}
    />
  )
  const rose = changeColor(ticker?.rose)
  const areaHeight = `${2 * perSide * ROW_HEIGHT + SPREAD_HEIGHT}px`
  return (
    <Stack gap="0" data-testid="order-book" h={fill ? 'full' : undefined} minH="0" fontVariantNumeric="tabular-nums">
      <Text px="2" pt="2" fontWeight="semibold" fontSize="sm">
        {t('book.title')}
      </Text>
      <HStack justify="space-between" px="2" py="1" gap="2">
        <HStack gap="0.5" role="group" aria-label={t('book.view')}>
          {VIEWS.map((v) => (
            <IconButton
              key={v.view}
              size="2xs"
              variant={view === v.view ? 'subtle' : 'ghost'}
              opacity={view === v.view ? 1 : 0.6}
              _hover={{ opacity: 1 }}
              aria-label={t(v.label)}
              title={t(v.label)}
              aria-pressed={view === v.view}
              onClick={() => {
                setView(v.view)
                setStop(undefined)
              }}
              data-testid={`book-view-${v.view}`}
            >
              <ViewIcon view={v.view} />
            </IconButton>
          ))}
        </HStack>
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
      <Grid templateColumns={COLUMNS} columnGap="1" px="2" py="1" fontSize="2xs" lineHeight="short" color="fg.muted" alignItems="end">
        <Text>{t('book.price', { coin: pair.quote })}</Text>
        <Text textAlign="end">{t('book.amount', { coin: pair.base })}</Text>
        <Text textAlign="end">{t('book.total', { coin: pair.base })}</Text>
      </Grid>
      {/* The rows' area: the same height whatever the book holds (its parent's rest with `fill`). */}
      <Box ref={areaRef} flex={fill ? '1' : undefined} h={fill ? undefined : areaHeight} minH="0" overflow="hidden">
        {isLoading ? (
          <Stack gap="0" px="2" data-testid="book-loading">
            {Array.from({ length: 2 * perSide }, (_, i) => (
              <Flex key={i} h={ROW} align="center" mt={i === counts.asks ? `${SPREAD_HEIGHT}px` : undefined}>
                <Skeleton h="3" w="full" />
              </Flex>
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
        ) : !data?.asks?.length && !data?.buys?.length ? (
          <Text px="2" py="6" textAlign="center" color="fg.muted" fontSize="sm" data-testid="book-empty">
            {t('book.empty')}
          </Text>
        ) : (
          <Box ref={levels} onKeyDown={onLevelKey}>
            {counts.asks > 0 && (
              <Stack gap="0" role="group" aria-label={t('book.asks')} data-testid="book-asks">
                {askRows.map((l, j) => (l ? level('sell', l, j - askGap, `a${counts.asks - j}`) : <Placeholder key={`a${counts.asks - j}`} />))}
              </Stack>
            )}
            <Flex h={`${SPREAD_HEIGHT}px`} px="2" align="center" justify="space-between" gap="2" borderYWidth="1px" borderColor="border.muted">
              <HStack gap="1" minW="0" color={rose}>
                <VisuallyHidden>{t('book.last')}</VisuallyHidden>
                <Text fontSize="md" fontWeight="bold" truncate data-testid="book-last">
                  {fixed(ticker?.close, pair.pricePrecision)}
                </Text>
                {rose === 'up' ? <LuArrowUp aria-hidden /> : rose === 'down' ? <LuArrowDown aria-hidden /> : null}
              </HStack>
              <Text fontSize="2xs" color="fg.muted" whiteSpace="nowrap" flexShrink={0} data-testid="book-spread">
                {t('book.spread')}{' '}
                <chakra.span color="fg">{spread?.value ?? '—'}</chakra.span>
                {spread ? ` (${spread.percent})` : ''}
              </Text>
            </Flex>
            {counts.bids > 0 && (
              <Stack gap="0" role="group" aria-label={t('book.bids')} data-testid="book-bids">
                {bidRows.map((l, i) => (l ? level('buy', l, asks.length + i, `b${i}`) : <Placeholder key={`b${i}`} />))}
              </Stack>
            )}
          </Box>
        )}
      </Box>
    </Stack>
  )
}
