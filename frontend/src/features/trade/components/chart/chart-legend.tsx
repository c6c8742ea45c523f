import { Box, Flex, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { fixed } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import type { TradePair } from '../../api/trade-api'
import { INDICATOR_PARAMS, type IndicatorValues } from '../../lib/indicators'
import type { ChartBar } from './chart-view'
import type { ChartColors } from './colors'
import type { IndicatorId } from './settings'

/** A volume for the legend: grouped at up to 4 places below 10,000, then 12.35K, 1.23M, 4.57B. */
export function compactAmount(value: number | undefined, places = 4): string {
  if (value === undefined || !Number.isFinite(value)) return '—'
  const abs = Math.abs(value)
  for (const [size, unit] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e4, 'K'],
  ] as const) {
    if (abs >= size) return `${num(value / (size === 1e4 ? 1e3 : size), 2)}${unit}`
  }
  return num(value, Math.min(places, 4))
}

/** The change of a candle from its open to its close, in per cent with its sign ('+1.25%'); '—' without an open. */
export function candleChange(bar: { open: number; close: number }): { text: string; up: boolean } {
  if (!bar.open) return { text: '—', up: true }
  const pct = ((bar.close - bar.open) / bar.open) * 100
  const text = num(pct, 2)
  return { text: `${pct > 0 ? '+' : ''}${text === '-0.00' ? '0.00' : text}%`, up: pct >= 0 }
}

function Item({ label, title, value, color, testId }: { label: ReactNode; title?: string; value: string; color?: string; testId?: string }) {
  return (
    <Box as="span" whiteSpace="nowrap" data-testid={testId}>
      <Box as="span" color="fg.muted" title={title}>
        {label}
      </Box>{' '}
      <Box as="span" style={color ? { color } : undefined} data-value="">
        {value}
      </Box>
    </Box>
  )
}

export interface ChartLegendProps {
  pair: TradePair
  bars: readonly ChartBar[]
  calc: IndicatorValues
  /** The candle under the crosshair; the last one when undefined. */
  index?: number
  indicators: readonly IndicatorId[]
  colors: ChartColors
}

/**
 * The legend over the chart's top-left corner: open, high, low, close, change
 * and volume of the candle under the crosshair (the last candle when there
 * is none), then the values of the active indicators at that candle in their
 * lines' colours. Tabular figures, so the numbers do not jump as they change.
 */
export function ChartLegend({ pair, bars, calc, index, indicators, colors }: ChartLegendProps) {
  const { t } = useTexts('trade')
  const i = index !== undefined && index >= 0 && index < bars.length ? index : bars.length - 1
  const bar = bars[i]
  if (!bar) return null
  const price = (v: number | undefined) => fmt(v, pair.pricePrecision)
  const up = bar.close >= bar.open
  const ohlcColor = up ? colors.up : colors.down
  const change = candleChange(bar)
  const macdPlaces = Math.min(pair.pricePrecision + 2, 8)
  const on = (id: IndicatorId) => indicators.includes(id)
  const { ma, ema, vol, macd } = INDICATOR_PARAMS
  const lines = (name: string, params: readonly number[], values: readonly (number | undefined)[][]) =>
    params.map((n, k) => (
      <Item key={`${name}${n}`} label={`${name}(${n})`} value={price(values[k][i])} color={colors.lines[k]} testId={`legend-${name.toLowerCase()}-${n}`} />
    ))
  const row = (id: string, children: ReactNode) => (
    <Flex wrap="wrap" columnGap="2.5" data-testid={`legend-${id}`}>
      {children}
    </Flex>
  )
  return (
    <Box
      position="absolute"
      top="1"
      left="2"
      right="16"
      zIndex="1"
      pointerEvents="none"
      fontSize="2xs"
      lineHeight="short"
      fontVariantNumeric="tabular-nums"
      data-testid="chart-legend"
    >
      <Flex wrap="wrap" columnGap="2.5" data-testid="legend-ohlc">
        <Item label={t('chart.legend.open')} title={t('chart.legend.openName')} value={price(bar.open)} color={ohlcColor} testId="legend-open" />
        <Item label={t('chart.legend.high')} title={t('chart.legend.highName')} value={price(bar.high)} color={ohlcColor} testId="legend-high" />
        <Item label={t('chart.legend.low')} title={t('chart.legend.lowName')} value={price(bar.low)} color={ohlcColor} testId="legend-low" />
        <Item label={t('chart.legend.close')} title={t('chart.legend.closeName')} value={price(bar.close)} color={ohlcColor} testId="legend-close" />
        <Item
          label={t('chart.legend.change')}
          title={t('chart.legend.changeName')}
          value={change.text}
          color={change.up ? colors.up : colors.down}
          testId="legend-change"
        />
        <Item
          label={t('chart.legend.volume', { coin: pair.base })}
          title={t('chart.legend.volumeName', { coin: pair.base })}
          value={compactAmount(bar.vol, pair.volumePrecision)}
          testId="legend-volume"
        />
      </Flex>
      {on('ma') && row('ma', lines('MA', ma, calc.ma))}
      {on('ema') && row('ema', lines('EMA', ema, calc.ema))}
      {on('boll') &&
        row(
          'boll',
          <>
            <Text as="span" color="fg.muted">{`BOLL(${INDICATOR_PARAMS.boll.period},${INDICATOR_PARAMS.boll.width})`}</Text>
            <Item label="UP" value={price(calc.boll.upper[i])} color={colors.lines[1]} testId="legend-boll-up" />
            <Item label="MB" value={price(calc.boll.mid[i])} color={colors.lines[0]} testId="legend-boll-mb" />
            <Item label="DN" value={price(calc.boll.lower[i])} color={colors.lines[2]} testId="legend-boll-dn" />
          </>,
        )}
      {on('vol') &&
        row(
          'vol',
          <>
            <Text as="span" color="fg.muted">
              VOL
            </Text>
            {vol.map((n, k) => (
              <Item key={n} label={`MA(${n})`} value={compactAmount(calc.vol[k][i], pair.volumePrecision)} color={colors.lines[k]} testId={`legend-vol-ma-${n}`} />
            ))}
          </>,
        )}
      {on('macd') &&
        row(
          'macd',
          <>
            <Text as="span" color="fg.muted">{`MACD(${macd.fast},${macd.slow},${macd.signal})`}</Text>
            <Item label="DIF" value={fmt(calc.macd.dif[i], macdPlaces)} color={colors.lines[0]} testId="legend-macd-dif" />
            <Item label="DEA" value={fmt(calc.macd.dea[i], macdPlaces)} color={colors.lines[1]} testId="legend-macd-dea" />
            <Item
              label="MACD"
              value={fmt(calc.macd.hist[i], macdPlaces)}
              color={(calc.macd.hist[i] ?? 0) >= 0 ? colors.up : colors.down}
              testId="legend-macd-hist"
            />
          </>,
        )}
      {on('rsi') && row('rsi', <Item label={`RSI(${INDICATOR_PARAMS.rsi})`} value={fmt(calc.rsi[i], 2)} color={colors.lines[1]} testId="legend-rsi-14" />)}
    </Box>
  )
}

/** A number at `places` decimals, grouped like every figure of the page (never in exponent form: 1e-7 is 0.00000010). */
function num(v: number, places: number): string {
  return fixed(v.toFixed(Math.min(Math.max(places, 0), 20)), places)
}

function fmt(v: number | undefined, places: number): string {
  return v === undefined || !Number.isFinite(v) ? '—' : num(v, places)
}
