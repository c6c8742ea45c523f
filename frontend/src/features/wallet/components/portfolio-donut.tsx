import { Box, HStack, Stack, Text } from '@chakra-ui/react'

/** One slice of the portfolio chart. */
export interface DonutSlice {
  id: string
  label: string
  value: number
  color: string
  /** Text shown next to the legend entry. */
  display: string
}

/** Arcs of a donut: start and end angle (radians, from 12 o'clock) per non-zero slice. */
export function donutArcs(values: number[]): { start: number; end: number }[] {
  const total = values.reduce((a, b) => a + (b > 0 ? b : 0), 0)
  let angle = 0
  return values.map((v) => {
    const share = total > 0 && v > 0 ? v / total : 0
    const arc = { start: angle, end: angle + share * Math.PI * 2 }
    angle = arc.end
    return arc
  })
}

function point(cx: number, cy: number, r: number, a: number): [number, number] {
  return [cx + r * Math.sin(a), cy - r * Math.cos(a)]
}

function arcPath(cx: number, cy: number, r: number, start: number, end: number): string {
  // A full circle cannot be drawn with one arc command: stop just short.
  const e = end - start >= Math.PI * 2 ? start + Math.PI * 2 - 0.0001 : end
  const [x1, y1] = point(cx, cy, r, start)
  const [x2, y2] = point(cx, cy, r, e)
  const large = e - start > Math.PI ? 1 : 0
  return `M ${x1.toFixed(3)} ${y1.toFixed(3)} A ${r} ${r} 0 ${large} 1 ${x2.toFixed(3)} ${y2.toFixed(3)}`
}

/**
 * The portfolio chart of the overview: a donut of the account kinds drawn
 * in SVG, with a legend. The SVG is described by its title for screen
 * readers; the legend carries the numbers.
 */
export function PortfolioDonut({ slices, title, emptyLabel, hidden }: { slices: DonutSlice[]; title: string; emptyLabel: string; hidden?: boolean }) {
  const arcs = donutArcs(slices.map((s) => s.value))
  const empty = slices.every((s) => s.value <= 0)
  const size = 160
  const r = 60
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="6" align="center" data-testid="portfolio-chart">
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={title} style={{ flexShrink: 0 }}>
        <title>{title}</title>
        <circle cx={size / 2} cy={size / 2} r={r} fill="none" stroke="var(--chakra-colors-border)" strokeWidth="22" />
        {!empty && !hidden
          ? slices.map((s, i) =>
              arcs[i].end > arcs[i].start ? (
                <path key={s.id} d={arcPath(size / 2, size / 2, r, arcs[i].start, arcs[i].end)} fill="none" stroke={s.color} strokeWidth="22" data-slice={s.id} />
              ) : null,
            )
          : null}
      </svg>
      <Stack gap="2" flex="1" width="full">
        {empty ? (
          <Text color="fg.muted" fontSize="sm">
            {emptyLabel}
          </Text>
        ) : null}
        {slices.map((s) => (
          <HStack key={s.id} justify="space-between" fontSize="sm" data-testid={`portfolio-${s.id}`}>
            <HStack gap="2">
              <Box boxSize="3" rounded="full" bg={s.color} aria-hidden="true" />
              <Text>{s.label}</Text>
            </HStack>
            <Text fontVariantNumeric="tabular-nums">{s.display}</Text>
          </HStack>
        ))}
      </Stack>
    </Stack>
  )
}
