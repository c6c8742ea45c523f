import { Box, Button, Heading, HStack, NativeSelect, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { fixed } from '@/lib/decimal'
import { formatDateTime } from '@/lib/date-time'
import { useUserInfo } from '@/lib/session'
import { statisticsQuery, STATS_DAYS, type StatsDays } from '../api/futures-api'
import { money, pnlColor, signedMoney } from '../lib/format'
import { futuresTexts } from '../lib/texts'

function Figure({ label, value, color, testId, strong }: { label: string; value: string; color?: string; testId: string; strong?: boolean }) {
  return (
    <Stack gap="0.5" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize={strong ? 'xl' : 'md'} fontWeight={strong ? 'semibold' : 'medium'} color={color} fontVariantNumeric="tabular-nums" data-testid={testId} overflowWrap="anywhere">
        {value}
      </Text>
    </Stack>
  )
}

/**
 * The user's futures results over the last 1, 7 or 30 days
 * (/account_statistics): net PnL (realized − fees + funding), realized PnL,
 * fees, funding, fills and traded volume, in a margin coin; the period is a
 * 1D / 7D / 30D switch.
 */
export function AccountStats({ coins }: { coins: readonly string[] }) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const [days, setDays] = useState<StatsDays>(7)
  const [picked, setCoin] = useState<string>()
  const coin = picked ?? coins[0] ?? 'USDT'
  const query = useQuery({ ...statisticsQuery(coin, days), enabled: isSignedIn, placeholderData: keepPreviousData })
  const s = query.data
  const unit = s?.coin || coin
  const withCoin = (v: string) => `${v} ${unit}`
  return (
    <Box as="section" aria-labelledby="futures-stats-title" borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} mb="5" data-testid="futures-stats">
      <HStack justify="space-between" align="center" gap="2" wrap="wrap" mb="3">
        <Stack gap="0">
          <Heading as="h2" size="md" id="futures-stats-title">
            {t('stats.title')}
          </Heading>
          <Text fontSize="xs" color="fg.muted" data-testid="futures-stats-period">
            {s ? t('stats.period', { from: formatDateTime(s.from, { seconds: false }), to: formatDateTime(s.to, { seconds: false }) }) : '\u00a0'}
          </Text>
        </Stack>
        <HStack gap="2">
          {coins.length > 1 && (
            <NativeSelect.Root size="xs" width="auto">
              <NativeSelect.Field aria-label={t('stats.coin')} value={coin} onChange={(e) => setCoin(e.target.value)} data-testid="futures-stats-coin">
                {coins.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
          <HStack gap="0" borderWidth="1px" rounded="md" p="0.5" role="group" aria-label={t('stats.days')}>
            {STATS_DAYS.map((d) => (
              <Button
                key={d}
                size="xs"
                px="2.5"
                variant={days === d ? 'subtle' : 'ghost'}
                aria-pressed={days === d}
                title={t(`stats.long.d${d}`)}
                onClick={() => setDays(d)}
                data-testid={`futures-stats-${d}d`}
              >
                {t('stats.daysShort', { n: d })}
              </Button>
            ))}
          </HStack>
        </HStack>
      </HStack>
      {query.isError && !s ? (
        <HStack justify="space-between" role="alert" fontSize="sm">
          <Text color="fg.muted">{t('stats.error')}</Text>
          <Button size="xs" variant="outline" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </HStack>
      ) : !s ? (
        <Skeleton h="16" rounded="md" aria-label={t('stats.loading')} />
      ) : (
        <SimpleGrid columns={{ base: 2, md: 3, xl: 6 }} gap={{ base: '3', md: '4' }} opacity={query.isPlaceholderData ? 0.6 : 1} aria-busy={query.isFetching}>
          <Figure label={t('stats.netPnl')} value={withCoin(signedMoney(s.netPnl))} color={pnlColor(s.netPnl)} testId="stats-net" strong />
          <Figure label={t('stats.realizedPnl')} value={withCoin(signedMoney(s.realizedPnl))} color={pnlColor(s.realizedPnl)} testId="stats-realized" />
          <Figure label={t('stats.fees')} value={withCoin(money(s.fee))} testId="stats-fees" />
          <Figure label={t('stats.funding')} value={withCoin(signedMoney(s.funding))} color={pnlColor(s.funding)} testId="stats-funding" />
          <Figure label={t('stats.trades')} value={fixed(s.trades, 0)} testId="stats-trades" />
          <Figure label={t('stats.volume')} value={withCoin(fixed(s.volume, 2))} testId="stats-volume" />
        </SimpleGrid>
      )}
    </Box>
  )
}
