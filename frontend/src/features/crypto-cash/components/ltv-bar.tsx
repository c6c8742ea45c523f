import { Box, HStack, Stack, Text } from '@chakra-ui/react'
import { formatFixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { ltvZone, type LtvZone, type Thresholds } from '../lib/ltv'

/** Colours of the LTV zones. */
export const ZONE_COLORS: Record<LtvZone, string> = {
  safe: 'green',
  warning: 'yellow',
  marginCall: 'orange',
  liquidation: 'red',
}

/** A position on the bar (0–100) of a percentage ('65' → 65), kept on the bar. */
const at = (v: string) => Math.min(100, Math.max(0, Number(v) || 0))

/**
 * An LTV on a bar from 0 to 100 %, with the initial, margin-call and
 * liquidation LTVs marked on it and named under it; the filled part is
 * coloured by the zone the LTV is in. A meter to assistive technology,
 * whose text says the LTV and its zone; the words under it carry the same.
 */
export function LtvBar({ t, ltv, thresholds, testId, compact }: { t: TranslateFn; ltv: string; thresholds: Thresholds; testId: string; compact?: boolean }) {
  const known = ltv !== ''
  const zone = known ? ltvZone(ltv, thresholds) : 'safe'
  const marks = [
    { id: 'initial', value: thresholds.initial },
    { id: 'marginCall', value: thresholds.marginCall },
    { id: 'liquidation', value: thresholds.liquidation },
  ] as const
  const label = known ? t('ltv.meter', { ltv: formatFixed(ltv, 2), zone: t(`ltv.zones.${zone}`) }) : t('ltv.none')
  return (
    <Stack gap="1.5" data-testid={testId} data-zone={known ? zone : undefined} data-ltv={ltv}>
      <HStack justify="space-between" gap="2">
        <Text fontSize="sm" color="fg.muted">
          {t('ltv.label')}
        </Text>
        <Text fontSize={compact ? 'sm' : 'md'} fontWeight="semibold" color={known ? `${ZONE_COLORS[zone]}.fg` : 'fg.muted'} fontVariantNumeric="tabular-nums" data-testid={`${testId}-value`}>
          {known ? `${formatFixed(ltv, 2)}%` : '--'}
        </Text>
      </HStack>
      <Box
        position="relative"
        h="2"
        rounded="full"
        bg="bg.muted"
        role="meter"
        aria-label={t('ltv.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? at(ltv) : undefined}
        aria-valuetext={label}
      >
        <Box position="absolute" insetY="0" insetStart="0" rounded="full" bg={`${ZONE_COLORS[zone]}.solid`} width={`${known ? at(ltv) : 0}%`} />
        {marks.map((m) => (
          <Box key={m.id} position="absolute" top="-1" bottom="-1" w="2px" bg={m.id === 'initial' ? 'fg.muted' : m.id === 'marginCall' ? 'orange.solid' : 'red.solid'} insetStart={`calc(${at(m.value)}% - 1px)`} aria-hidden="true" />
        ))}
      </Box>
      {compact ? null : (
        <HStack justify="space-between" gap="2" fontSize="xs" color="fg.muted" flexWrap="wrap">
          {marks.map((m) => (
            <Text key={m.id} data-testid={`${testId}-${m.id}`}>
              {t(`ltv.marks.${m.id}`, { value: m.value })}
            </Text>
          ))}
        </HStack>
      )}
    </Stack>
  )
}
