import { Box, Button, Link, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useColorMode } from '@/components/ui/color-mode'
import { useTexts } from '@/lib/i18n'
import { klineQuery, SPOT_MARKET, type Kline, type MarketApi, type Period, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { computeIndicators } from '../lib/indicators'
import { ChartLegend } from './chart/chart-legend'
import { ChartToolbar, type ChartViewMode } from './chart/chart-toolbar'
import { ChartView, mergeBar, toChartBar, toChartBars, type ChartBar, type ChartPriceLine } from './chart/chart-view'
import { chartColors } from './chart/colors'
import { canCancel, periodSeconds } from './chart/drawings'
import { useChartType, useIndicators } from './chart/settings'
import { useDrawings } from './chart/use-drawings'
import { useFullscreen } from './chart/use-fullscreen'
import { DepthChart } from './depth-chart'

export { chartColors } from './chart/colors'

/** Where the chart's attribution links (the lightweight-charts licence asks for a link to tradingview.com). */
export const TRADINGVIEW_URL = 'https://www.tradingview.com/'

/**
 * The attribution notice of the lightweight-charts NOTICE file (Apache-2.0), as it is written there (its "(с)"
 * included): it stays in English in both languages, in words that are translated (`chart.notice`).
 */
export const CHART_NOTICE = 'TradingView Lightweight Charts™ Copyright (с) 2025 TradingView, Inc. https://www.tradingview.com/'

export interface KlineChartProps {
  pair: TradePair
  /** Height of the chart area in px (without the toolbar); ignored with `fill`. */
  height?: number
  /** Take the parent's full height (toolbar, chart and notice inside it, nothing overflowing). */
  fill?: boolean
  /** The service of the market's data: spot by default, the futures service for a contract. */
  market?: MarketApi
  /** A labelled price line over the candles (a contract's mark price), kept where the price is. */
  priceLine?: ChartPriceLine
}

/**
 * The trade chart: candles (or hollow candles, bars, line, area) with
 * indicators (MA, EMA, BOLL over the candles; VOL, MACD, RSI in panes below),
 * a legend of the candle under the crosshair, horizontal and trend lines kept
 * per pair, full screen, and a depth chart of the live book. History from
 * /market/kline, then live kline ticks over the market socket.
 */
export function KlineChart({ pair, height = 380, fill = false, market = SPOT_MARKET, priceLine }: KlineChartProps) {
  const { t } = useTexts('trade')
  const { colorMode } = useColorMode()
  const mode = colorMode === 'dark' ? 'dark' : 'light'
  const colors = useMemo(() => chartColors(mode), [mode])
  const [period, setPeriod] = useState<Period>('15min')
  const [view, setView] = useState<ChartViewMode>('kline')
  const [type, setType] = useChartType()
  const [indicators, toggleIndicator] = useIndicators()
  const [draw, dispatch] = useDrawings(pair.symbol)
  const { data, isLoading, isError, isFetching, refetch } = useQuery(klineQuery(pair.symbol, period, market))
  const history = useMemo(() => toChartBars(data), [data])
  const root = useRef<HTMLDivElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const fullscreen = useFullscreen(root)

  // Live candles over the history they were merged into (a new history, or another period, starts again from it).
  const channel = `market_${pair.symbol}_kline_${period}`
  const [live, setLive] = useState<{ base: ChartBar[]; channel: string; bars: ChartBar[] }>()
  const bars = live && live.base === history && live.channel === channel ? live.bars : history
  const calc = useMemo(() => computeIndicators(bars), [bars])
  useMarketChannel(channel, (m) => {
    const k = (m.tick ?? m.data) as Kline | undefined
    const bar = k && typeof k.id === 'number' ? toChartBar(k) : undefined
    if (!bar) return
    setLive((prev) => {
      const current = prev && prev.base === history && prev.channel === channel ? prev.bars : history
      // An out-of-order tick (older than the last bar) is ignored.
      const next = mergeBar(current, bar)
      return next ? { base: history, channel, bars: next } : prev
    })
  })

  const [chart, setChart] = useState<ChartView | null>(null)
  const [hover, setHover] = useState<number>()
  useEffect(() => {
    if (!box.current) return
    const v = new ChartView(
      box.current,
      { pricePrecision: pair.pricePrecision, priceTick: pair.priceTick },
      { onHover: setHover, onClick: (point) => dispatch({ type: 'point', point }) },
    )
    setChart(v)
    return () => {
      v.destroy()
      setChart(null)
      setHover(undefined)
    }
  }, [pair.symbol, pair.pricePrecision, pair.priceTick, dispatch])

  // What the chart shows, in the order it is built: colours, the main series, the indicators, the data, the drawings.
  useEffect(() => chart?.setColors(colors), [chart, colors])
  useEffect(() => chart?.setType(type), [chart, type])
  useEffect(() => chart?.setIndicators(indicators), [chart, indicators])
  useEffect(() => chart?.setBars(bars, periodSeconds(period), calc), [chart, bars, calc, period])
  useEffect(() => chart?.setDrawings(draw.drawings, draw.pending), [chart, draw.drawings, draw.pending])
  const linePrice = priceLine?.price
  const lineTitle = priceLine?.title
  useEffect(() => chart?.setPriceLine(linePrice === undefined ? undefined : { price: linePrice, title: lineTitle ?? '' }), [chart, linePrice, lineTitle])

  // Escape cancels a drawing in progress (then puts the tool away), else leaves the laid-over full screen.
  const cancellable = canCancel(draw)
  const { fallback, exit } = fullscreen
  useEffect(() => {
    if (!cancellable && !fallback) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if (cancellable) dispatch({ type: 'cancel' })
      else exit()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [cancellable, fallback, exit, dispatch])

  const kline = view === 'kline'
  const full = fill || fullscreen.active
  const hint = draw.tool === 'hline' ? 'chart.draw.hintHline' : draw.tool === 'trend' ? (draw.pending ? 'chart.draw.hintTrend2' : 'chart.draw.hintTrend') : undefined

  return (
    <Box
      ref={root}
      data-testid="kline-chart"
      data-fullscreen={fullscreen.active ? (fallback ? 'fallback' : 'native') : undefined}
      display="flex"
      flexDirection="column"
      minW="0"
      bg="bg.panel"
      h={full ? '100%' : undefined}
      minH={full ? '0' : undefined}
      {...(fallback ? { position: 'fixed', inset: '0', zIndex: 'modal', h: '100dvh', w: '100vw' } : {})}
    >
      <ChartToolbar
        view={view}
        onView={setView}
        period={period}
        onPeriod={setPeriod}
        type={type}
        onType={setType}
        indicators={indicators}
        onIndicator={toggleIndicator}
        tool={draw.tool}
        onTool={(tool) => dispatch({ type: 'tool', tool })}
        onClear={() => dispatch({ type: 'clear' })}
        hasDrawings={draw.drawings.length > 0}
        fullscreen={fullscreen.active}
        onFullscreen={fullscreen.toggle}
        portalRef={fullscreen.active ? root : undefined}
      />
      <Box position="relative" flex={full ? '1' : undefined} minH={full ? '0' : undefined} h={full ? undefined : `${height}px`}>
        {/* Kept (hidden) under the depth chart, so coming back finds it as it was. */}
        <Box
          ref={box}
          position="absolute"
          inset="0"
          visibility={kline ? undefined : 'hidden'}
          cursor={draw.tool ? 'crosshair' : undefined}
          data-testid="kline-canvas"
        />
        {kline && <ChartLegend pair={pair} bars={bars} calc={calc} index={hover} indicators={indicators} colors={colors} />}
        {kline && hint && (
          <Text
            position="absolute"
            bottom="14"
            left="50%"
            transform="translateX(-50%)"
            zIndex="1"
            maxW="90%"
            px="2"
            py="1"
            rounded="sm"
            bg="bg.panel/90"
            borderWidth="1px"
            fontSize="xs"
            textAlign="center"
            pointerEvents="none"
            aria-live="polite"
            data-testid="draw-hint"
          >
            {t(hint)}
          </Text>
        )}
        {kline && isLoading && <Skeleton position="absolute" inset="0" data-testid="kline-loading" />}
        {/* Candles that could not be read are said so (not a blank chart), with a way to read them again. */}
        {kline && isError && !data && (
          <Stack position="absolute" inset="0" zIndex="1" align="center" justify="center" gap="3" bg="bg.panel" role="alert" data-testid="kline-error">
            <Text color="fg.error" fontSize="sm" textAlign="center" px="4">
              {t('chart.error')}
            </Text>
            <Button size="xs" variant="outline" loading={isFetching} onClick={() => void refetch()} data-testid="kline-retry">
              {t('chart.retry')}
            </Button>
          </Stack>
        )}
        {/*
          The attribution the chart library's licence asks for: TradingView named, with a link to tradingview.com, in
          the page's language, in the corner of the candles above the time axis (where the library put its logo).
        */}
        {kline && (
          <Link
            href={TRADINGVIEW_URL}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('chart.attributionLink')}
            // The notice again as the link's tooltip (and its accessible description).
            title={t('chart.notice', { notice: CHART_NOTICE })}
            position="absolute"
            left="2"
            bottom="8"
            zIndex="1"
            px="1.5"
            rounded="sm"
            fontSize="2xs"
            lineHeight="short"
            color="fg.muted"
            bg="bg.panel/80"
            data-testid="kline-attribution"
          >
            {t('chart.attribution')}
          </Link>
        )}
        {/* Above the chart's canvas (which would hide it), and gone once a live candle is drawn. */}
        {kline && !isLoading && data?.length === 0 && bars.length === 0 && (
          <Text position="absolute" top="45%" w="full" zIndex="1" pointerEvents="none" textAlign="center" color="fg.muted" fontSize="sm" data-testid="kline-empty">
            {t('chart.empty')}
          </Text>
        )}
        {!kline && (
          <Box position="absolute" inset="0" zIndex="1">
            <DepthChart pair={pair} market={market} />
          </Box>
        )}
      </Box>
      {/* The library's NOTICE, in a small line under the chart (the footer, with the other legal texts, is not on this page). */}
      <Text px="2" py="1" flexShrink={0} fontSize="2xs" lineHeight="short" color="fg.muted" overflowWrap="anywhere" data-testid="kline-notice">
        {t('chart.notice', { notice: CHART_NOTICE })}
      </Text>
    </Box>
  )
}
