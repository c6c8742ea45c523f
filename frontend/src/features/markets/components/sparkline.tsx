import { Box } from '@chakra-ui/react'
import { changeColor } from '@/lib/change'

/** SVG polyline points of values scaled into a w×h box (y grows downwards); '' with fewer than two values. */
export function sparklinePoints(values: number[], w: number, h: number): string {
  if (values.length < 2) return ''
  const min = Math.min(...values)
  const max = Math.max(...values)
  const span = max - min || 1
  const step = w / (values.length - 1)
  return values
    .map((v, i) => {
      const x = i * step
      const y = max === min ? h / 2 : h - ((v - min) / span) * h
      return `${+x.toFixed(2)},${+y.toFixed(2)}`
    })
    .join(' ')
}

/**
 * The colour of a trend line: the sign of the 24 h change shown beside it
 * (rose), so the two never point different ways; a change that shows as
 * 0.00% is neutral like its figure. Without a change, the line's own
 * direction (first point to last).
 */
export function sparklineColor(values: number[], rose?: string): string {
  if (rose !== undefined && rose !== '' && Number.isFinite(Number(rose))) return changeColor(rose, 'fg.muted')
  return values[values.length - 1] >= values[0] ? 'up' : 'down'
}

/** A 24 h trend line coloured by the 24 h change (up / down tokens). */
export function Sparkline({ values, rose, label, width = 96, height = 28 }: { values: number[]; rose?: string; label: string; width?: number; height?: number }) {
  const points = sparklinePoints(values, width, height - 2)
  if (!points) return <Box w={`${width}px`} h={`${height}px`} />
  const color = sparklineColor(values, rose)
  return (
    <Box as="span" display="inline-block" color={color} lineHeight="0">
      <svg width={width} height={height} viewBox={`0 -1 ${width} ${height}`} role="img" aria-label={label} data-testid="sparkline" data-trend={color}>
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" strokeLinecap="round" />
      </svg>
    </Box>
  )
}
