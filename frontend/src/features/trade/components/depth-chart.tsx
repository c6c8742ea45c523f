import { Box, Button, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { useColorMode } from '@/components/ui/color-mode'
import { fixed } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import { SPOT_MARKET, type Depth, type MarketApi, type TradePair } from '../api/trade-api'
import { useLiveDepth } from '../api/use-live-depth'
import { compactAmount } from './chart/chart-legend'
import { chartColors, withAlpha } from './chart/colors'

/** A price level with the amount of it and of every better level of its side. */
export interface DepthLevel {
  price: number
  total: number
}

export interface DepthModel {
  /** Best (highest) first. */
  bids: DepthLevel[]
  /** Best (lowest) first. */
  asks: DepthLevel[]
  /** Halfway between the best bid and the best ask (or the one side's best). */
  mid: number
  /** The prices the chart shows: as far either side of the mid price. */
  min: number
  max: number
  /** The largest cumulative amount shown (the height of the chart). */
  maxTotal: number
}

/** One side of the book as cumulative levels, best first (bids by falling price, asks by rising). */
export function cumulate(levels: readonly [string, string][], side: 'bids' | 'asks'): DepthLevel[] {
  const rows = levels
    .map(([p, q]) => ({ price: Number(p), qty: Number(q) }))
    .filter((l) => Number.isFinite(l.price) && Number.isFinite(l.qty) && l.qty > 0)
    .sort((a, b) => (side === 'bids' ? b.price - a.price : a.price - b.price))
  let total = 0
  return rows.map((l) => ({ price: l.price, total: (total += l.qty) }))
}

/**
 * The depth chart of a book: both sides cumulated, and a price range centred
 * on the mid price, as wide as the shallower side reaches (so both sides fill
 * their half; the deeper side is cut at the edge). Undefined for an empty book.
 */
export function depthModel(book: Depth | undefined): DepthModel | undefined {
  const bids = cumulate(book?.buys ?? [], 'bids')
  const asks = cumulate(book?.asks ?? [], 'asks')
  if (!bids.length && !asks.length) return undefined
  const bestBid = bids[0]?.price
  const bestAsk = asks[0]?.price
  const mid = bestBid !== undefined && bestAsk !== undefined ? (bestBid + bestAsk) / 2 : (bestBid ?? bestAsk)!
  const reach = [bids.length ? mid - bids[bids.length - 1].price : 0, asks.length ? asks[asks.length - 1].price - mid : 0].filter((r) => r > 0)
  let half = reach.length ? Math.min(...reach) : 0
  if (!(half > 0)) half = Math.abs(mid) * 0.01 || 1
  const min = mid - half
  const max = mid + half
  const maxTotal = Math.max(totalAt(bids, min, 'bids'), totalAt(asks, max, 'asks'), 0)
  return { bids, asks, mid, min, max, maxTotal }
}

/** The cumulative amount at a price: bids at that price or above it, asks at that price or below it. */
export function totalAt(levels: readonly DepthLevel[], price: number, side: 'bids' | 'asks'): number {
  let total = 0
  for (const l of levels) {
    if (side === 'bids' ? l.price >= price : l.price <= price) total = l.total
    else break
  }
  return total
}

const M = { left: 8, right: 64, top: 22, bottom: 22 }

/** The outline of one side as steps from its best price outwards to the edge of the chart. */
function stepPath(levels: readonly DepthLevel[], side: 'bids' | 'asks', x: (p: number) => number, y: (v: number) => number, edge: number): string {
  if (!levels.length) return ''
  const inRange = (p: number) => (side === 'bids' ? p >= edge : p <= edge)
  let d = `M${x(levels[0].price)},${y(0)}`
  let last = 0
  for (let i = 0; i < levels.length && inRange(levels[i].price); i++) {
    const next = levels[i + 1]
    last = levels[i].total
    d += `V${y(last)}H${x(next && inRange(next.price) ? next.price : edge)}`
  }
  return last ? d : ''
}

function fmt(v: number, places: number) {
  return fixed(v.toFixed(Math.min(Math.max(places, 0), 20)), places)
}

/**
 * The order book as a depth chart (drawn in SVG: the chart library's x axis is
 * time): cumulative bids (up colour) left of the mid price and asks (down
 * colour) right of it as stepped areas, price along the x axis, cumulative
 * amount on the right; a readout of the price and amount under the pointer
 * (or the arrow keys), and the mid price marked. Fills its parent's size.
 */
export function DepthChart({ pair, height, market = SPOT_MARKET }: { pair: TradePair; height?: number; market?: MarketApi }) {
  const { t } = useTexts('trade')
  const { colorMode } = useColorMode()
  const colors = chartColors(colorMode === 'dark' ? 'dark' : 'light')
  const { data, isLoading, isError, isFetching, refetch } = useLiveDepth(pair.symbol, 0, market)
  const model = useMemo(() => depthModel(data), [data])
  const box = useRef<HTMLDivElement>(null)
  // jsdom and the first render measure nothing: a sensible size until the observer tells.
  const [size, setSize] = useState({ w: 600, h: height ?? 300 })
  const [cursor, setCursor] = useState<number>()
  const readoutId = useId()

  useEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => {
      const r = el.getBoundingClientRect()
      if (r.width > 0 && r.height > 0) setSize({ w: Math.round(r.width), h: Math.round(r.height) })
    }
    measure()
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [])

  const w = Math.max(size.w, 120)
  const h = Math.max(size.h, 120)
  const plotW = w - M.left - M.right
  const plotH = h - M.top - M.bottom

  const body = (() => {
    if (isLoading) return <Skeleton position="absolute" inset="0" data-testid="depth-loading" />
    if (isError && !data)
      return (
        <Stack position="absolute" inset="0" align="center" justify="center" gap="3" role="alert" data-testid="depth-error">
          <Text color="fg.error" fontSize="sm" textAlign="center" px="4">
            {t('chart.depth.error')}
          </Text>
          <Button size="xs" variant="outline" loading={isFetching} onClick={() => void refetch()}>
            {t('chart.retry')}
          </Button>
        </Stack>
      )
    if (!model)
      return (
        <Text position="absolute" top="45%" w="full" textAlign="center" color="fg.muted" fontSize="sm" data-testid="depth-empty">
          {t('chart.depth.empty')}
        </Text>
      )
    const { bids, asks, mid, min, max, maxTotal } = model
    const top = maxTotal * 1.1 || 1
    const x = (p: number) => M.left + ((p - min) / (max - min)) * plotW
    const y = (v: number) => M.top + plotH - (v / top) * plotH
    const priceAt = (px: number) => min + ((px - M.left) / plotW) * (max - min)
    const bidLine = stepPath(bids, 'bids', x, y, min)
    const askLine = stepPath(asks, 'asks', x, y, max)
    const close = (d: string, edge: number) => (d ? `${d}V${y(0)}H${x(edge)}Z` : '')
    const bidArea = bidLine && close(bidLine, bids[0].price)
    const askArea = askLine && close(askLine, asks[0].price)
    const xTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => min + f * (max - min))
    const yTicks = [0.25, 0.5, 0.75, 1].map((f) => f * top)
    const hover =
      cursor === undefined
        ? undefined
        : (() => {
            const side = cursor <= mid ? 'bids' : 'asks'
            const total = totalAt(side === 'bids' ? bids : asks, cursor, side)
            return { price: cursor, total, side } as const
          })()
    const move = (e: PointerEvent<SVGSVGElement>) => {
      const r = e.currentTarget.getBoundingClientRect()
      const px = e.clientX - r.left
      setCursor(px < M.left || px > M.left + plotW ? undefined : priceAt(px))
    }
    const key = (e: KeyboardEvent<SVGSVGElement>) => {
      const stepBy = (max - min) / 50
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault()
        const from = cursor ?? mid
        setCursor(Math.min(max, Math.max(min, from + (e.key === 'ArrowLeft' ? -stepBy : stepBy))))
      } else if (e.key === 'Home' || e.key === 'End') {
        e.preventDefault()
        setCursor(e.key === 'Home' ? min : max)
      } else if (e.key === 'Escape' && cursor !== undefined) {
        setCursor(undefined)
      }
    }
    const price = (p: number) => fmt(p, pair.pricePrecision)
    const amount = (v: number) => compactAmount(v, pair.volumePrecision)
    return (
      <>
        <svg
          width={w}
          height={h}
          viewBox={`0 0 ${w} ${h}`}
          role="img"
          tabIndex={0}
          aria-label={t('chart.depth.summary', {
            pair: pair.showName,
            bid: bids[0] ? price(bids[0].price) : '—',
            ask: asks[0] ? price(asks[0].price) : '—',
          })}
          aria-describedby={readoutId}
          style={{ display: 'block', touchAction: 'pan-y', outline: 'none' }}
          onPointerMove={move}
          onPointerDown={move}
          onPointerLeave={() => setCursor(undefined)}
          onKeyDown={key}
          onBlur={() => setCursor(undefined)}
          data-testid="depth-svg"
        >
          {yTicks.map((v) => (
            <g key={v}>
              <line x1={M.left} x2={M.left + plotW} y1={y(v)} y2={y(v)} stroke={colors.grid} />
              <text x={w - M.right + 6} y={y(v) + 3} fontSize="10" fill={colors.text} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {amount(v)}
              </text>
            </g>
          ))}
          <line x1={M.left} x2={M.left + plotW} y1={y(0)} y2={y(0)} stroke={colors.grid} />
          {xTicks.map((p, k) => (
            <text
              key={k}
              x={x(p)}
              y={h - 6}
              fontSize="10"
              fill={colors.text}
              textAnchor={k === 0 ? 'start' : k === xTicks.length - 1 ? 'end' : 'middle'}
              style={{ fontVariantNumeric: 'tabular-nums' }}
              data-testid="depth-x-label"
            >
              {price(p)}
            </text>
          ))}
          {bidArea && <path d={bidArea} fill={withAlpha(colors.up, 0x33)} stroke="none" data-testid="depth-bids-area" />}
          {bidLine && <path d={bidLine} fill="none" stroke={colors.up} strokeWidth="1.5" data-testid="depth-bids" />}
          {askArea && <path d={askArea} fill={withAlpha(colors.down, 0x33)} stroke="none" data-testid="depth-asks-area" />}
          {askLine && <path d={askLine} fill="none" stroke={colors.down} strokeWidth="1.5" data-testid="depth-asks" />}
          <g data-testid="depth-mid">
            <line x1={x(mid)} x2={x(mid)} y1={M.top} y2={M.top + plotH} stroke={colors.text} strokeDasharray="3 3" strokeOpacity="0.6" />
            <text x={x(mid)} y={M.top - 8} fontSize="10" fill={colors.text} textAnchor="middle" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {t('chart.depth.mid')} {price(mid)}
            </text>
          </g>
          {hover && (
            <g data-testid="depth-cursor" pointerEvents="none">
              <line x1={x(hover.price)} x2={x(hover.price)} y1={M.top} y2={M.top + plotH} stroke={colors.text} strokeOpacity="0.5" />
              <circle cx={x(hover.price)} cy={y(hover.total)} r="3.5" fill={hover.side === 'bids' ? colors.up : colors.down} />
            </g>
          )}
        </svg>
        <Box
          id={readoutId}
          position="absolute"
          top="1"
          left="2"
          px="2"
          py="1"
          rounded="sm"
          bg="bg.panel/85"
          borderWidth={hover ? '1px' : '0'}
          fontSize="2xs"
          lineHeight="short"
          fontVariantNumeric="tabular-nums"
          pointerEvents="none"
          aria-live="polite"
          data-testid="depth-readout"
        >
          {hover ? (
            <>
              <Text as="span" display="block" fontWeight="semibold" color={hover.side === 'bids' ? 'up' : 'down'}>
                {t(`chart.depth.${hover.side}`)}
              </Text>
              <Text as="span" display="block">
                <Text as="span" color="fg.muted">
                  {t('chart.depth.price')}
                </Text>{' '}
                <span data-testid="depth-readout-price">{price(hover.price)}</span>
              </Text>
              <Text as="span" display="block">
                <Text as="span" color="fg.muted">
                  {t('chart.depth.total', { coin: pair.base })}
                </Text>{' '}
                <span data-testid="depth-readout-total">{fmt(hover.total, pair.volumePrecision)}</span>
              </Text>
            </>
          ) : (
            <Text as="span" color="fg.muted">
              {t('chart.depth.hint')}
            </Text>
          )}
        </Box>
      </>
    )
  })()

  return (
    <Box
      ref={box}
      position="relative"
      h={height ? `${height}px` : '100%'}
      w="full"
      overflow="hidden"
      bg="bg.panel"
      rounded="sm"
      css={{ '&:has(svg:focus-visible)': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: 'brand.focusRing', outlineOffset: '-2px' } }}
      data-testid="depth-chart"
    >
      {body}
    </Box>
  )
}
