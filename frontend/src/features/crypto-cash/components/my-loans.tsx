import { Alert, Badge, Box, Button, Center, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { addDec, dec, decimalsOf, plain } from '@/features/staking/lib/amounts'
import { formatDateTime } from '@/lib/date-time'
import { formatCut, formatFixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { CollateralPrice, LoanConfig, LoanStatus, LoanView } from '../api/crypto-cash-api'
import type { Thresholds } from '../lib/ltv'
import { CollateralDialog, RepayDialog } from './loan-dialogs'
import { LtvBar } from './ltv-bar'

/** Badge colours of a loan's status (its label is spec §4's). */
const STATUS_COLORS: Record<LoanStatus, string> = {
  pending_repayment: 'blue',
  liquidating: 'orange',
  repaid: 'green',
  liquidated: 'red',
}

/** The index price of a loan's collateral in its coin ('' when not known). */
export function priceOf(prices: CollateralPrice[] | undefined, loan: Pick<LoanView, 'collateralCoin' | 'coin'>): string {
  return prices?.find((p) => p.coin === loan.collateralCoin)?.prices[loan.coin] ?? ''
}

/** One figure of a loan: its label over its value. */
function Figure({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <Stack gap="0.5" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="sm" fontWeight="medium" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" data-testid={testId}>
        {value}
      </Text>
      {note ? (
        <Text fontSize="xs" color="fg.muted">
          {note}
        </Text>
      ) : null}
    </Stack>
  )
}

function LoanCard({
  t,
  loan,
  thresholds,
  config,
  onRepay,
  onCollateral,
}: {
  t: TranslateFn
  loan: LoanView
  thresholds: Thresholds
  config: LoanConfig
  onRepay: () => void
  onCollateral: () => void
}) {
  const places = decimalsOf(loan.borrowed) ?? 8
  const collPlaces = decimalsOf(loan.collateral) ?? 8
  const money = (v: string) => `${formatCut(v, places)} ${loan.coin}`
  const active = loan.status === 'pending_repayment'
  const titleId = `loan-title-${loan.id}`
  const graceEnd = loan.dueTime + config.graceHours * 3_600_000
  return (
    <Box as="li" borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} data-testid={`loan-${loan.id}`} data-status={loan.status}>
      <HStack justify="space-between" align="flex-start" gap="2" mb="3">
        <Stack gap="0" minW="0">
          <Text fontWeight="semibold" id={titleId} data-testid="loan-title">
            {t('loans.title', { amount: formatCut(loan.borrowed, places), coin: loan.coin, coll: loan.collateralCoin })}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {t('loans.terms', { n: loan.termDays, year: formatFixed(loan.yearRate, 2), hourly: loan.hourlyRate, time: formatDateTime(loan.ctime, { seconds: false }) })}
          </Text>
        </Stack>
        <Badge colorPalette={STATUS_COLORS[loan.status] ?? 'gray'} variant="subtle" flexShrink={0} data-testid="loan-status" data-status={loan.status}>
          {t(`status.${loan.status}`) || loan.status}
        </Badge>
      </HStack>

      {active && loan.marginCall ? (
        <Alert.Root status="warning" mb="3" data-testid="loan-margin-call">
          <Alert.Indicator />
          <Alert.Title>{t('loans.marginCall', { margin: thresholds.marginCall, liquidation: thresholds.liquidation })}</Alert.Title>
        </Alert.Root>
      ) : null}
      {active && loan.overdue ? (
        <Alert.Root status="error" mb="3" data-testid="loan-overdue">
          <Alert.Indicator />
          <Alert.Title>{t('loans.overdue', { x: formatFixed(config.overdueMultiplier, 0), time: formatDateTime(graceEnd, { seconds: false }) })}</Alert.Title>
        </Alert.Root>
      ) : null}

      <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
        {active ? (
          <>
            <Figure
              label={t('loans.debt')}
              value={money(loan.debt)}
              note={t('loans.debtSplit', { principal: formatCut(loan.principal, places), interest: formatCut(loan.interest, places), coin: loan.coin })}
              testId="loan-debt"
            />
            <Figure label={t('loans.interest')} value={money(loan.interest)} testId="loan-interest" />
          </>
        ) : null}
        <Figure
          label={t(loan.status === 'repaid' ? 'loans.collateralReturned' : 'loans.collateral')}
          value={`${formatCut(loan.collateral, collPlaces)} ${loan.collateralCoin}`}
          testId="loan-collateral"
        />
        <Figure
          label={t('loans.due')}
          value={formatDateTime(loan.dueTime, { seconds: false })}
          note={active ? (loan.overdue ? t('loans.dueOverdue') : t('loans.dueIn', { n: Math.max(0, Math.ceil((loan.dueTime - Date.now()) / 86_400_000)) })) : undefined}
          testId="loan-due"
        />
        {active ? (
          <Figure
            label={t('loans.liquidationPrice', { coll: loan.collateralCoin })}
            value={loan.liquidationPrice ? `${formatFixed(loan.liquidationPrice, 2)} ${loan.coin}` : '--'}
            testId="loan-liquidation-price"
          />
        ) : null}
        {loan.status === 'repaid' || loan.status === 'liquidated' ? (
          <Figure
            label={t('loans.repaid')}
            value={money(plainRepaid(loan))}
            note={t('loans.debtSplit', { principal: formatCut(loan.repaidPrincipal, places), interest: formatCut(loan.repaidInterest, places), coin: loan.coin })}
            testId="loan-repaid"
          />
        ) : null}
        {loan.status === 'liquidated' ? (
          <>
            <Figure label={t('loans.sold')} value={`${formatCut(loan.soldCollateral ?? '0', collPlaces)} ${loan.collateralCoin}`} testId="loan-sold" />
            <Figure label={t('loans.proceeds')} value={money(loan.proceeds ?? '0')} testId="loan-proceeds" />
            <Figure label={t('loans.fee')} value={money(loan.liquidationFee ?? '0')} testId="loan-fee" />
          </>
        ) : null}
      </SimpleGrid>

      {active ? (
        <Box mt="4">
          <LtvBar t={t} ltv={loan.ltv} thresholds={thresholds} testId="loan-ltv" />
        </Box>
      ) : null}

      {active ? (
        <HStack gap="2" mt="4" justify={{ base: 'stretch', md: 'flex-end' }}>
          <Button size="sm" variant="outline" flex={{ base: '1', md: 'initial' }} onClick={onCollateral} aria-describedby={titleId} data-testid="loan-adjust">
            {t('loans.adjust')}
          </Button>
          <Button size="sm" colorPalette="brand" flex={{ base: '1', md: 'initial' }} onClick={onRepay} aria-describedby={titleId} data-testid="loan-repay">
            {t('loans.repay')}
          </Button>
        </HStack>
      ) : null}
    </Box>
  )
}

/** What was paid back on a closed loan: principal and interest. */
function plainRepaid(loan: LoanView): string {
  return plain(addDec(dec(loan.repaidPrincipal), dec(loan.repaidInterest)))
}

/**
 * The signed-in user's loans, newest first, one card each: debt (principal
 * and interest), interest, collateral, the LTV on its bar with the
 * thresholds and a margin-call warning, the liquidation price, the due
 * date (overdue says the grace period's end and rate); Repay and Adjust
 * collateral open their dialogs. Closed loans say what was repaid, and a
 * liquidated one what was sold.
 */
export function MyLoans({
  t,
  loans,
  isLoading,
  error,
  config,
  thresholds,
  prices,
  loadingText,
}: {
  t: TranslateFn
  loans: LoanView[]
  isLoading: boolean
  error?: { text: string; retryText: string; onRetry: () => void }
  config: LoanConfig
  thresholds: Thresholds
  prices: CollateralPrice[] | undefined
  loadingText: string
}) {
  const [open, setOpen] = useState<{ dialog: 'repay' | 'collateral' | null; loan?: LoanView }>({ dialog: null })
  if (isLoading) {
    return (
      <Stack gap="3" role="status" aria-label={loadingText}>
        {[0, 1].map((i) => (
          <Skeleton key={i} h="40" rounded="lg" />
        ))}
      </Stack>
    )
  }
  if (error) {
    return (
      <Stack align="center" py="8" gap="3" role="alert" data-testid="loans-error">
        <Text color="fg.error">{error.text}</Text>
        <Button size="sm" variant="outline" onClick={error.onRetry}>
          {error.retryText}
        </Button>
      </Stack>
    )
  }
  if (loans.length === 0) {
    return (
      <Center borderWidth="1px" borderStyle="dashed" rounded="lg" py="10" px="4" data-testid="loans-empty">
        <Text color="fg.muted" textAlign="center">
          {t('loans.empty')}
        </Text>
      </Center>
    )
  }
  const loan = open.loan ? (loans.find((l) => l.id === open.loan?.id) ?? open.loan) : undefined
  const close = () => setOpen((o) => ({ ...o, dialog: null }))
  return (
    <>
      <Stack as="ul" role="list" aria-label={t('loans.label')} listStyleType="none" m="0" p="0" gap="3" data-testid="loans">
        {loans.map((l) => (
          <LoanCard
            key={l.id}
            t={t}
            loan={l}
            config={config}
            thresholds={thresholds}
            onRepay={() => setOpen({ dialog: 'repay', loan: l })}
            onCollateral={() => setOpen({ dialog: 'collateral', loan: l })}
          />
        ))}
      </Stack>
      <RepayDialog open={open.dialog === 'repay'} loan={loan} config={config} thresholds={thresholds} price={loan ? priceOf(prices, loan) : ''} onClose={close} />
      <CollateralDialog open={open.dialog === 'collateral'} loan={loan} config={config} thresholds={thresholds} price={loan ? priceOf(prices, loan) : ''} onClose={close} />
    </>
  )
}
