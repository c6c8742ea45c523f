import { Box, Button, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts'
import { useEffect, useRef, useState } from 'react'
import { useColorMode } from '@/components/ui/color-mode'
import { useTexts } from '@/lib/i18n'
import { klineQuery, PERIODS, type Kline, type Period, type TradePair } from '../api/trade-api'
import { useMarketChannel } from '../api/use-market-channel'
import { chartPriceFormatter, localChartTime } from './format'

/** Where the chart's attribution links (the lightweight-charts licence asks for a link to tradingview.com). */
export const TRADINGVIEW_URL = 'https://www.tradingview.com/'

/**
 * The attribution notice of the lightweight-charts NOTICE file (Apache-2.0), as it is written there (its "(с)"
 * included): it stays in English in both languages, in words that are translated (`chart.notice`).
 */
export const CHART_NOTICE = 'TradingView Lightweight Charts™ Copyright (с) 2025 TradingView, Inc. https://www.tradingview.com/'

/** Chart colours per theme (the same values as the up/down tokens of the theme). */
export function chartColors(mode: 'light' | 'dark') {
  return mode === 'dark'
    ? { bg: '#111111', text: '#d4d4d8', grid: '#27272a', up: '#20c997', down: '#ff6b6b' }
    : { bg: '#ffffff', text: '#3f3f46', grid: '#f4f4f5', up: '#087f5b', down: '#e03131' }
}

/** A candle as the chart's candle and volume bars. */
export function toBars(k: Kline, colors: { up: string; down: string }) {
  const time = localChartTime(k.id) as UTCTimestamp
  const open = Number(k.open)
  const close = Number(k.close)
  return {
    candle: { time, open, high: Number(k.high), low: Number(k.low), close },
    volume: { time, value: Number(k.vol), color: `${close >= open ? colors.up : colors.down}80` },
  }
}

/** Candle chart with volume, period buttons, history from /market/kline then live kline ticks. */
export function KlineChart({ pair, height = 380 }: { pair: TradePair; height?: number }) {
  const { t } = useTexts('trade')
  const { colorMode } = useColorMode()
  const mode = colorMode === 'dark' ? 'dark' : 'light'
  const [period, setPeriod] = useState<Period>('15min')
  const { data, isLoading, isError, isFetching, refetch } = useQuery(klineQuery(pair.symbol, period))
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<IChartApi | null>(null)
  const candles = useRef<ISeriesApi<'Candlestick'> | null>(null)
  const volumes = useRef<ISeriesApi<'Histogram'> | null>(null)

  useEffect(() => {
    if (!box.current) return
    // The library's own attribution (a logo titled in English only) gives way to the link below, in the page's language.
    const c = createChart(box.current, {
      autoSize: true,
      layout: { attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 6, barSpacing: 8 },
    })
    candles.current = c.addSeries(CandlestickSeries, {
      priceFormat: { type: 'custom', minMove: Number(pair.priceTick) || 0.01, formatter: chartPriceFormatter(pair.pricePrecision) },
    })
    volumes.current = c.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, priceScaleId: '', lastValueVisible: false, priceLineVisible: false })
    volumes.current.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
    candles.current.priceScale().applyOptions({ scaleMargins: { top: 0.1, bottom: 0.25 } })
    chart.current = c
    return () => {
      c.remove()
      chart.current = null
      candles.current = null
      volumes.current = null
    }
  }, [pair.symbol, pair.pricePrecision, pair.priceTick])

  useEffect(() => {
    const colors = chartColors(mode)
    chart.current?.applyOptions({
      layout: { background: { type: ColorType.Solid, color: colors.bg }, textColor: colors.text },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    })
    candles.current?.applyOptions({
      upColor: colors.up,
      downColor: colors.down,
      borderUpColor: colors.up,
      borderDownColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
    })
    if (data && candles.current && volumes.current) {
      const bars = [...data].sort((a, b) => a.id - b.id).map((k) => toBars(k, colors))
      candles.current.setData(bars.map((b) => b.candle))
      volumes.current.setData(bars.map((b) => b.volume))
    }
  }, [data, mode, pair.symbol])

  // The pair and period whose live candle has been drawn: a chart that had no candles says so until the first one.
  const [liveOf, setLiveOf] = useState<string>()
  const channel = `market_${pair.symbol}_kline_${period}`
  useMarketChannel(channel, (m) => {
    const k = (m.tick ?? m.data) as Kline | undefined
    if (!k || typeof k.id !== 'number' || !candles.current || !volumes.current) return
    const b = toBars(k, chartColors(mode))
    try {
      candles.current.update(b.candle)
      volumes.current.update(b.volume)
      if (liveOf !== channel) setLiveOf(channel)
    } catch {
      // An out-of-order tick (older than the last bar) is ignored.
    }
  })

  return (
    <Box data-testid="kline-chart">
      {/* One row at every width: it fits a 390 px phone and scrolls sideways on narrower screens rather than wrapping. */}
      <HStack
        gap={{ base: '0.5', sm: '1' }}
        px="2"
        py="2"
        wrap="nowrap"
        overflowX="auto"
        overflowY="hidden"
        scrollbarWidth="thin"
        role="group"
        aria-label={t('chart.period')}
        data-testid="period-row"
      >
        {PERIODS.map((p) => (
          <Button
            key={p}
            flexShrink={0}
            size="2xs"
            px={{ base: '1.5', sm: '2' }}
            variant={p === period ? 'subtle' : 'ghost'}
            colorPalette={p === period ? 'brand' : 'gray'}
            aria-pressed={p === period}
            data-testid={`period-${p}`}
            onClick={() => setPeriod(p)}
          >
            {t(`chart.periods.${p}`)}
          </Button>
        ))}
      </HStack>
      <Box position="relative" h={`${height}px`}>
        <Box ref={box} position="absolute" inset="0" data-testid="kline-canvas" />
        {isLoading && <Skeleton position="absolute" inset="0" data-testid="kline-loading" />}
        {/* Candles that could not be read are said so (not a blank chart), with a way to read them again. */}
        {isError && !data && (
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
        {/* Above the chart's canvas (which would hide it), and gone once a live candle is drawn. */}
        {!isLoading && data?.length === 0 && liveOf !== channel && (
          <Text position="absolute" top="45%" w="full" zIndex="1" pointerEvents="none" textAlign="center" color="fg.muted" fontSize="sm" data-testid="kline-empty">
            {t('chart.empty')}
          </Text>
        )}
      </Box>
      {/* The library's NOTICE, in a small line under the chart (the footer, with the other legal texts, is not on this page). */}
      <Text px="2" py="1" fontSize="2xs" lineHeight="short" color="fg.muted" overflowWrap="anywhere" data-testid="kline-notice">
        {t('chart.notice', { notice: CHART_NOTICE })}
      </Text>
    </Box>
  )
}
