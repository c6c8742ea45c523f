import { Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { earnRecordsKeys } from '@/features/earn-records/api/records-api'
import { AmountField } from '@/features/savings/components/amount-field'
import { DialogNotice, DialogState } from '@/features/savings/components/dialog-parts'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure, StepForm } from '@/features/wallet/components/shared'
import { WalletDialog } from '@/features/wallet/components/wallet-dialog'
import { getCurrency } from '@/lib/cookies'
import { formatCut, formatFixed, isPositive } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { createStake, projectInfoQuery, stakingKeys, type StakingProject } from '../api/staking-api'
import { canSend, checkAmount, cutTo, expectedRewards, minOfLimits, minus0, sent, stakeDays, utcDatePlus, type AmountProblem } from '../lib/amounts'
import { stakingTexts } from '../lib/texts'

/** Props of {@link StakeDialog}. */
export interface StakeDialogProps {
  open: boolean
  /** The product staked in (kept while the dialog closes, so its title stays). */
  project?: StakingProject
  onClose: () => void
}

/**
 * Stakes an amount from the spot account in a product (staking_create_order):
 * checked as it is typed against the product's minimum, the coin's
 * decimals, the available spot balance, what the user's cap leaves and what
 * the pool still takes; the expected rewards (a day's and the term's) and
 * the days it earns are shown as it is typed. A refusal has had its toast
 * with the server's words; the dialog stays open.
 */
export function StakeDialog({ open, project, onClose }: StakeDialogProps) {
  const { t, ready } = stakingTexts.useTexts()
  const common = useTexts('common')
  const [busy, setBusy] = useState(false)
  const name = project?.showName || project?.coinSymbol || ''
  return (
    <WalletDialog open={open} onClose={onClose} title={ready ? t('stake.title', { name }) : name} closeLabel={common.t('close')} testId="stake-modal" busy={busy}>
      {!ready ? (
        <DialogState isError={false} onRetry={() => {}} testId="stake" />
      ) : !project ? (
        <DialogNotice text={t('stake.unknown')} testId="stake-unknown" />
      ) : (
        <StakeForm project={project} onBusy={setBusy} onDone={onClose} />
      )}
    </WalletDialog>
  )
}

/** The message of a problem with the typed amount. */
export function amountText(t: TranslateFn, problem: AmountProblem | undefined, places: number, coin: string): string | undefined {
  if (!problem) return undefined
  if (problem.kind === 'positive' || problem.kind === 'precision') return t(`errors.${problem.kind}`, { places })
  return t(`errors.${problem.kind}`, { amount: formatCut(problem.value, places), coin })
}

/** The dialog's form: mounted with each opening, so every opening has its own request ids. */
function StakeForm({ project, onBusy, onDone }: { project: StakingProject; onBusy: (busy: boolean) => void; onDone: () => void }) {
  const { t } = stakingTexts.useTexts()
  const queryClient = useQueryClient()
  const currency = getCurrency()
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const info = useQuery(projectInfoQuery(project.id))
  const [amount, setAmount] = useState('')
  const [submitting, setSubmitting] = useState(false)
  // One key per amount while the dialog is open: a second click, or a retry after no answer, stakes once.
  const keys = useRef(new RetryKeys())

  if (spot.isPending || info.isPending || spot.isError || info.isError) {
    return (
      <DialogState
        isError={spot.isError || info.isError}
        onRetry={() => {
          void spot.refetch()
          void info.refetch()
        }}
        testId="stake"
      />
    )
  }

  const p = info.data ?? project
  const coin = p.coinSymbol
  const places = p.precision
  const available = cutTo(spot.data.coinList.find((r) => r.coin === coin)?.normal ?? '0', places)
  const userLeft = p.maxPerUser ? minus0(p.maxPerUser, p.mine ?? '0') : undefined
  const poolLeft = p.totalCap ? p.remaining || '0' : undefined
  const problem = checkAmount(amount, {
    precision: places,
    min: p.minAmount,
    limits: [
      { kind: 'available', max: available },
      { kind: 'userCap', max: userLeft },
      { kind: 'remaining', max: poolLeft },
    ],
  })
  const most = cutTo(minOfLimits(available, userLeft, poolLeft) ?? available, places)
  const ok = canSend(amount, problem)
  const rewards = expectedRewards(ok ? sent(amount) : '0', p.apr, p.termDays, places)
  const days = stakeDays(p.termDays)
  const closed = !p.open

  const submit = async () => {
    if (closed || !ok) return
    const value = sent(amount)
    setSubmitting(true)
    onBusy(true)
    try {
      const envelope = await createStake({ projectId: p.id, amount: value, requestId: keys.current.keyFor({ projectId: p.id, amount: value }) })
      // Any answer: the next confirm is a new request.
      keys.current.answered()
      if (isSuccess(envelope)) {
        // Rewards start the UTC day after the exchange took the stake (its clock, not the browser's).
        const start = envelope.data?.ctime ? utcDatePlus(1, new Date(envelope.data.ctime)) : days.start
        notifySuccess(t('stake.success', { amount: formatCut(envelope.data?.amount || value, places), coin, date: start }))
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: stakingKeys.all }),
          queryClient.invalidateQueries({ queryKey: walletKeys.all }),
          queryClient.invalidateQueries({ queryKey: earnRecordsKeys.all }),
        ])
        onDone()
      }
      // A refusal has had its toast with the server's words; the dialog stays open.
    } catch (e) {
      // No answer: the same key goes with the next attempt, so it stakes once.
      notifyFailure(e)
    } finally {
      setSubmitting(false)
      onBusy(false)
    }
  }

  return (
    <StepForm onSubmit={submit} busy={submitting}>
      <Stack gap="4">
        {closed ? <DialogNotice text={t('stake.closed')} testId="stake-closed" /> : null}
        <AmountField
          label={t('stake.amount')}
          value={amount}
          onChange={setAmount}
          coin={coin}
          error={amountText(t, problem, places, coin)}
          maxText={t('stake.max')}
          maxLabel={t('stake.maxLabel')}
          onMax={() => setAmount(most)}
          testId="stake-amount"
        />
        <Stack gap="2">
          <InfoRow label={t('stake.available')} testId="stake-available">
            {`${formatCut(available, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('stake.min')} testId="stake-min">
            {`${formatCut(p.minAmount, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('stake.userLeft')} testId="stake-user-left">
            {userLeft === undefined ? t('stake.noCap') : `${formatCut(userLeft, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('stake.poolLeft')} testId="stake-pool-left">
            {poolLeft === undefined ? t('stake.noCap') : `${formatCut(poolLeft, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('stake.terms')} testId="stake-terms">
            {t('stake.termsValue', { apr: formatFixed(p.apr, 2), n: p.termDays, payout: t(`payout.${p.payout}`) })}
          </InfoRow>
          <InfoRow label={t('stake.daily')} testId="stake-daily">
            {ok ? `≈ ${formatCut(rewards.daily, places)} ${coin}` : '--'}
          </InfoRow>
          <InfoRow label={t('stake.expected', { n: p.termDays })} testId="stake-expected">
            <Text as="span" fontWeight="semibold">
              {ok ? `≈ ${formatCut(rewards.total, places)} ${coin}` : '--'}
            </Text>
          </InfoRow>
        </Stack>
        <Text fontSize="sm" color="fg.muted" data-testid="stake-dates">
          {t(`stake.dates.${p.payout}`, { start: days.start, end: days.end })}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          {t('stake.formula')}
        </Text>
        {!isPositive(available) ? (
          <Text fontSize="sm" color="fg.muted" data-testid="stake-funds">
            {t('stake.funds', { coin })}
          </Text>
        ) : null}
        <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={closed || !ok} data-testid="stake-submit">
          {t('stake.confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
