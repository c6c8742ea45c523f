import { Box, chakra, Heading, HStack, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useId, useMemo, useState } from 'react'
import { formatCut } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { interestQuery, type Holding } from '../api/savings-api'
import { interestCoins, interestSeries } from '../lib/amounts'

/** Days the chart shows. */
export const CHART_DAYS = 30

/**
 * Interest per day, as bars: one coin at a time (amounts of different coins
 * do not add up), the last 30 settlement days. Light on purpose: boxes in a
 * row, no chart library. The chart is one image to a screen reader, named by
 * what it shows, and the sum under it says the figure.
 */
export function InterestChart({ t, holdings }: { t: TranslateFn; holdings: Holding[] }) {
  const q = useQuery(interestQuery)
  const records = useMemo(() => q.data ?? [], [q.data])
  const coins = useMemo(() => interestCoins(records), [records])
  const [chosen, setChosen] = useState('')
  const coin = coins.includes(chosen) ? chosen : (coins[0] ?? '')
  const series = useMemo(() => interestSeries(records, coin, CHART_DAYS), [records, coin])
  const places = holdings.find((h) => h.coinSymbol === coin)?.precision ?? 8
  const top = Math.max(0, ...series.days.map((d) => Number(d.amount) || 0))
  const titleId = useId()
  const selectId = useId()
  return (
    <Box as="section" aria-labelledby={titleId} borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} data-testid="interest-chart">
      <HStack justify="space-between" align="center" gap="3" mb="3" flexWrap="wrap">
        <Heading as="h3" size="sm" id={titleId}>
          {t('chart.title')}
        </Heading>
        {coins.length > 1 ? (
          <HStack gap="2">
            <chakra.label htmlFor={selectId} fontSize="xs" color="fg.muted">
              {t('chart.coin')}
            </chakra.label>
            <NativeSelect.Root size="xs" width="auto">
              <NativeSelect.Field id={selectId} value={coin} onChange={(e) => setChosen(e.target.value)} data-testid="interest-chart-coin">
                {coins.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </HStack>
        ) : null}
      </HStack>
      {q.isLoading ? (
        <Skeleton h="28" rounded="md" />
      ) : series.days.length === 0 ? (
        <Text fontSize="sm" color="fg.muted" py="6" textAlign="center" data-testid="interest-chart-empty">
          {t('chart.empty')}
        </Text>
      ) : (
        <Stack gap="2">
          <HStack
            role="img"
            aria-label={t('chart.label', { coin, days: CHART_DAYS })}
            align="flex-end"
            gap="2px"
            h="28"
            borderBottomWidth="1px"
            data-testid="interest-chart-bars"
          >
            {series.days.map((d) => {
              const v = Number(d.amount) || 0
              return (
                <Box
                  key={d.date}
                  flex="1"
                  minW="0"
                  roundedTop="sm"
                  bg={v > 0 ? 'brand.solid' : 'bg.muted'}
                  height={v > 0 && top > 0 ? `${Math.max(4, (v / top) * 100)}%` : '2px'}
                  title={t('chart.bar', { date: d.date, amount: formatCut(d.amount, places), coin })}
                  data-date={d.date}
                  data-amount={d.amount}
                />
              )
            })}
          </HStack>
          <HStack justify="space-between" fontSize="xs" color="fg.muted" aria-hidden="true">
            <Text>{series.days[0].date}</Text>
            <Text>{series.days[series.days.length - 1].date}</Text>
          </HStack>
          <Text fontSize="sm" fontWeight="medium" data-testid="interest-chart-sum">
            {t('chart.sum', { amount: formatCut(series.total, places), coin, days: CHART_DAYS })}
          </Text>
        </Stack>
      )}
    </Box>
  )
}
