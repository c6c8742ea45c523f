import { Badge, Box, chakra, HStack, Text } from '@chakra-ui/react'
import { LuCheck } from 'react-icons/lu'
import { formatDateTime } from '@/lib/date-time'
import type { TranslateFn } from '@/lib/i18n'
import { PHASES, type LaunchView, type Phase } from '../api/launchpad-api'
import { clock, nextChange, phaseIndex, phaseTimes, splitDuration, useNow } from '../lib/phase'

/** Badge colours of the phases. */
const PHASE_COLORS: Record<Phase, string> = {
  upcoming: 'blue',
  subscription: 'green',
  calculation: 'orange',
  distribution: 'purple',
  ended: 'gray',
}

/** A sale's phase as a badge. */
export function PhaseBadge({ t, phase, testId }: { t: TranslateFn; phase: Phase; testId?: string }) {
  return (
    <Badge colorPalette={PHASE_COLORS[phase] ?? 'gray'} variant="subtle" data-testid={testId} data-phase={phase}>
      {t(`phases.${phase}`) || phase}
    </Badge>
  )
}

/**
 * The countdown to a sale's next phase ("Subscription ends in 2d
 * 03:04:05"), ticking every second; nothing once the sale is allocated. When
 * the time has passed but the server has not moved the sale on yet, it says
 * the next phase starts any moment.
 */
export function Countdown({ t, sale, testId }: { t: TranslateFn; sale: Pick<LaunchView, 'phase' | 'subscribeStart' | 'subscribeEnd' | 'distributeAt'>; testId?: string }) {
  const now = useNow()
  const at = nextChange(sale)
  if (at === undefined) return null
  const left = at - now
  const { days } = splitDuration(left)
  return (
    <Text fontSize="sm" color="fg.muted" fontVariantNumeric="tabular-nums" data-testid={testId}>
      {left <= 0
        ? t(`countdown.soon.${sale.phase}`)
        : t(`countdown.${sale.phase}`, { time: days > 0 ? t('countdown.days', { d: days, clock: clock(left) }) : clock(left) })}
    </Text>
  )
}

/**
 * The phases of a sale in order, upcoming → subscription → calculation →
 * distribution → ended, each with when it starts; the current one is
 * marked (aria-current) and the ones before it are ticked. A row from md
 * up, a column on phones.
 */
export function PhaseTimeline({ t, sale }: { t: TranslateFn; sale: LaunchView }) {
  const current = phaseIndex(sale.phase)
  const times = phaseTimes(sale)
  return (
    <chakra.ol
      listStyleType="none"
      m="0"
      p="0"
      display="grid"
      gridTemplateColumns={{ base: '1fr', md: 'repeat(5, minmax(0, 1fr))' }}
      gap={{ base: '2', md: '3' }}
      aria-label={t('timeline.label')}
      data-testid="launch-timeline"
    >
      {PHASES.map((phase, i) => {
        const done = i < current
        const now = i === current
        return (
          <Box
            as="li"
            key={phase}
            aria-current={now ? 'step' : undefined}
            borderTopWidth={{ base: '0', md: '3px' }}
            borderStartWidth={{ base: '3px', md: '0' }}
            borderColor={done || now ? 'brand.solid' : 'border'}
            ps={{ base: '3', md: '0' }}
            pt={{ base: '0', md: '2' }}
            data-testid={`launch-step-${phase}`}
            data-state={now ? 'current' : done ? 'done' : 'next'}
          >
            <HStack gap="1.5">
              {done ? <LuCheck aria-hidden="true" color="var(--chakra-colors-brand-fg)" /> : null}
              <Text fontSize="sm" fontWeight={now ? 'bold' : 'medium'} color={now ? 'brand.fg' : done ? 'fg' : 'fg.muted'}>
                {t(`phases.${phase}`)}
              </Text>
            </HStack>
            <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
              {phase === 'upcoming'
                ? t('timeline.before', { time: formatDateTime(sale.subscribeStart, { seconds: false }) })
                : phase === 'ended'
                  ? t('timeline.after', { time: formatDateTime(times.ended, { seconds: false }) })
                  : formatDateTime(times[phase], { seconds: false })}
            </Text>
          </Box>
        )
      })}
    </chakra.ol>
  )
}
