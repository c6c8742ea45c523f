import { Badge, Box, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { LuCircleCheck, LuCircleAlert } from 'react-icons/lu'
import { InfoRow } from '@/features/wallet/components/shared'
import { formatDateTime } from '@/lib/date-time'
import { formatCut, isPositive } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { LaunchReport, LaunchView } from '../api/launchpad-api'
import { workAllocation } from '../lib/phase'
import { quoted } from './launchpad-page'

/**
 * The signed-in user's allocation report (spec: "a per-user report shows how
 * the allocation was computed"): the commitment, the total, the pro-rata
 * share worked out, the limit, the first round, then (once the sale is
 * allocated) the tokens, their cost and what came back, each with the
 * arithmetic that gives it and the rule in words; a mark says whether the
 * exchange's figures agree with the formula.
 */
export function AllocationReport({ t, sale, report }: { t: TranslateFn; sale: LaunchView; report: LaunchReport }) {
  const tp = sale.tokenPrecision
  const cp = sale.commitPrecision
  const coin = sale.commitCoin
  const token = sale.token
  const w = workAllocation(report, sale)
  const allocated = report.allocated !== ''
  const tokens = (v: string) => `${formatCut(v, tp)} ${token}`
  const money = (v: string) => `${formatCut(v, cp)} ${coin}`
  return (
    <Box as="section" aria-labelledby="launch-report-title" borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '5' }} data-testid="launch-report">
      <HStack justify="space-between" align="center" gap="2" mb="3" flexWrap="wrap">
        <Heading as="h2" size="md" id="launch-report-title">
          {t('report.title')}
        </Heading>
        {w.consistent === undefined ? null : w.consistent ? (
          <Badge colorPalette="green" variant="subtle" data-testid="launch-report-check" data-consistent="true">
            <LuCircleCheck aria-hidden="true" />
            {t('report.matches')}
          </Badge>
        ) : (
          <Badge colorPalette="red" variant="subtle" data-testid="launch-report-check" data-consistent="false">
            <LuCircleAlert aria-hidden="true" />
            {t('report.differs')}
          </Badge>
        )}
      </HStack>
      {!isPositive(report.committed) ? (
        <Text color="fg.muted" data-testid="launch-report-none">
          {t('report.none')}
        </Text>
      ) : (
        <Stack gap="4">
          <Stack gap="2">
            <InfoRow label={t('report.committed')} testId="report-committed">
              {money(report.committed)}
            </InfoRow>
            <InfoRow label={t('report.total')} testId="report-total">
              {money(sale.totalCommitted)}
            </InfoRow>
            <InfoRow label={t('report.share')} testId="report-share">
              <Text as="span" fontWeight="medium">
                {tokens(w.share)}
              </Text>
              <Text as="span" display="block" fontSize="xs" color="fg.muted">
                {t('report.shareHow', {
                  committed: quoted(report.committed, cp),
                  total: quoted(sale.totalCommitted, cp),
                  offered: quoted(sale.tokensOffered, tp),
                })}
              </Text>
            </InfoRow>
            <InfoRow label={t('report.limit')} testId="report-limit">
              <Text as="span" fontWeight="medium">
                {tokens(report.limit)}
              </Text>
              <Text as="span" display="block" fontSize="xs" color="fg.muted">
                {sale.maxPerUser
                  ? t('report.limitHow', { cap: quoted(sale.maxPerUser, tp), committed: quoted(report.committed, cp), price: quoted(sale.price, 18), token })
                  : t('report.limitHowNoCap', { committed: quoted(report.committed, cp), price: quoted(sale.price, 18) })}
              </Text>
            </InfoRow>
            <InfoRow label={t('report.firstRound')} testId="report-first-round">
              <Text as="span" fontWeight="medium">
                {tokens(w.firstRound)}
              </Text>
              <Text as="span" display="block" fontSize="xs" color="fg.muted">
                {t(w.capped ? 'report.firstRoundCapped' : 'report.firstRoundShare')}
              </Text>
            </InfoRow>
          </Stack>
          <Box borderTopWidth="1px" pt="3">
            {allocated ? (
              <Stack gap="2">
                <InfoRow label={t('report.allocated')} testId="report-allocated">
                  <Text as="span" fontWeight="bold">
                    {tokens(report.allocated)}
                  </Text>
                </InfoRow>
                <InfoRow label={t('report.cost')} testId="report-cost">
                  <Text as="span" fontWeight="medium">
                    {money(report.cost)}
                  </Text>
                  <Text as="span" display="block" fontSize="xs" color="fg.muted">
                    {t('report.costHow', { tokens: quoted(report.allocated, tp), price: quoted(sale.price, 18), cost: quoted(w.cost, cp) })}
                  </Text>
                </InfoRow>
                <InfoRow label={t('report.returned')} testId="report-returned">
                  <Text as="span" fontWeight="medium">
                    {money(report.returned)}
                  </Text>
                  <Text as="span" display="block" fontSize="xs" color="fg.muted">
                    {t('report.returnedHow', { committed: quoted(report.committed, cp), cost: quoted(report.cost, cp) })}
                  </Text>
                </InfoRow>
              </Stack>
            ) : (
              <Text fontSize="sm" color="fg.muted" data-testid="report-pending">
                {t('report.pending', { time: formatDateTime(sale.distributeAt, { seconds: false }) })}
              </Text>
            )}
          </Box>
        </Stack>
      )}
      <Box mt="4" p="3" rounded="md" bg="bg.subtle" fontSize="sm" data-testid="report-formula">
        <Text fontWeight="medium" mb="1">
          {t('report.formulaTitle')}
        </Text>
        <Text color="fg.muted">{t('report.formula')}</Text>
      </Box>
    </Box>
  )
}
