import { Badge, Button, Dialog, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { earnRecordsKeys } from '@/features/earn-records/api/records-api'
import { walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure } from '@/features/wallet/components/shared'
import { formatCut, formatFixed, isPositive } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { redeemStake, stakingKeys, type StakeStatus, type StakeView } from '../api/staking-api'
import { addDec, dec, decimalsOf, minus0, plain } from '../lib/amounts'

/** Badge colours of a stake's status (its label is spec §4's). */
const STATUS_COLORS: Record<StakeStatus, string> = {
  pending: 'yellow',
  locked: 'blue',
  completed: 'green',
  redeemed: 'gray',
}

/** A stake can be redeemed early while it earns (its first day included). */
export const canRedeem = (s: Pick<StakeView, 'status'>) => s.status === 'pending' || s.status === 'locked'

/** What an early redemption returns and forfeits, as the confirmation states it. */
export interface RedeemFigures {
  /** Back into spot now: the principal less the rewards paid. */
  returned: string
  /** The rewards already paid, taken back from the principal. */
  paidBack: string
  /** The rewards kept for maturity, lost. */
  kept: string
  /** The term's rewards not earned yet, never paid. */
  unearned: string
}

/** The figures of an early redemption of `s` (from the server's redeemNow and rewards). */
export function redeemFigures(s: Pick<StakeView, 'redeemNow' | 'rewardsPaid' | 'rewardsAccrued' | 'rewardsExpected'>): RedeemFigures {
  return {
    returned: s.redeemNow,
    paidBack: s.rewardsPaid,
    kept: s.rewardsAccrued,
    unearned: minus0(minus0(s.rewardsExpected, s.rewardsPaid), s.rewardsAccrued),
  }
}

/** The coin's decimals of a stake: its amount's, as the server writes it. */
const placesOf = (v: string) => decimalsOf(v) ?? 8

function stakeColumns(t: TranslateFn): DataColumn<StakeView>[] {
  const money = (s: StakeView, v: string) => `${formatCut(v, placesOf(s.amount))} ${s.coinSymbol}`
  return [
    {
      id: 'product',
      header: t('mine.product'),
      card: 'title',
      cell: (s) => (
        <Stack gap="0">
          <Text fontWeight="semibold">{s.showName || s.coinSymbol}</Text>
          <Text fontSize="xs" color="fg.muted" fontWeight="normal">
            {t('mine.termApr', { n: s.termDays, apr: formatFixed(s.apr, 2), payout: t(`payout.${s.payout}`) })}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'status',
      header: t('mine.status'),
      card: 'aside',
      cell: (s) => (
        <Badge colorPalette={STATUS_COLORS[s.status] ?? 'gray'} variant="subtle" data-testid="stake-status" data-status={s.status}>
          {t(`status.${s.status}`) || s.status}
        </Badge>
      ),
    },
    { id: 'amount', header: t('mine.amount'), numeric: true, testId: 'stake-principal', cell: (s) => money(s, s.amount) },
    { id: 'dates', header: t('mine.dates'), nowrap: true, testId: 'stake-days', cell: (s) => t('mine.datesValue', { start: s.startDate, end: s.endDate }) },
    {
      id: 'earned',
      header: t('mine.earned'),
      numeric: true,
      testId: 'stake-earned',
      // Paid into spot (daily, or a matured stake) or kept for maturity: a stake has one or the other.
      cell: (s) => (
        <Stack gap="0" align="flex-end">
          <Text as="span">{money(s, plain(addDec(dec(s.rewardsPaid), dec(s.rewardsAccrued))))}</Text>
          <Text as="span" fontSize="xs" color="fg.muted">
            {t(isPositive(s.rewardsAccrued) ? 'mine.keptNote' : 'mine.paidNote')}
          </Text>
        </Stack>
      ),
    },
    { id: 'expected', header: t('mine.expected'), numeric: true, testId: 'stake-rewards-expected', cell: (s) => money(s, s.rewardsExpected) },
  ]
}

/**
 * The signed-in user's stakes, newest first (a table from md up, cards on
 * phones): status (spec §4's labels), the days it earns, the rewards paid,
 * kept for maturity and expected; Redeem early asks first, saying what
 * returns and what is forfeited.
 */
export function MyStakes({
  t,
  stakes,
  isLoading,
  error,
}: {
  t: TranslateFn
  stakes: StakeView[]
  isLoading: boolean
  error?: { text: string; retryText: string; onRetry: () => void }
}) {
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<StakeView | null>(null)
  const redeem = useMutation({
    mutationFn: (s: StakeView) => redeemStake(s.id),
    onSuccess: async (envelope, s) => {
      // A refusal has had its toast with the server's words.
      if (!isSuccess(envelope)) return
      notifySuccess(t('redeem.success', { amount: formatCut(s.redeemNow, placesOf(s.amount)), coin: s.coinSymbol }))
      setAsking(null)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: stakingKeys.all }),
        queryClient.invalidateQueries({ queryKey: walletKeys.all }),
        queryClient.invalidateQueries({ queryKey: earnRecordsKeys.all }),
      ])
    },
    onError: (e) => notifyFailure(e),
  })
  const figures = asking ? redeemFigures(asking) : undefined
  const places = asking ? placesOf(asking.amount) : 0
  const money = (v: string) => `${formatCut(v, places)} ${asking?.coinSymbol ?? ''}`
  return (
    <>
      <DataTable<StakeView>
        columns={stakeColumns(t)}
        rows={stakes}
        rowKey={(s) => s.id}
        label={t('mine.label')}
        testId="my-stakes"
        rowTestId={(s) => `stake-${s.projectId}`}
        isLoading={isLoading}
        loadingLabel={common.t('loading')}
        emptyText={t('mine.empty')}
        emptyTestId="my-stakes-empty"
        error={error}
        actionsLabel={t('mine.actions')}
        actions={(s, layout) =>
          canRedeem(s) ? (
            <Button
              size={layout === 'cards' ? 'sm' : 'xs'}
              variant="outline"
              colorPalette="red"
              flex={layout === 'cards' ? '1' : undefined}
              aria-label={t('mine.redeemOf', { name: s.showName || s.coinSymbol, amount: formatCut(s.amount, placesOf(s.amount)), coin: s.coinSymbol })}
              onClick={() => setAsking(s)}
              data-testid="stake-redeem"
            >
              {t('mine.redeem')}
            </Button>
          ) : null
        }
      />
      <ConfirmDialog
        open={!!asking}
        onClose={() => setAsking(null)}
        onConfirm={() => asking && redeem.mutate(asking)}
        title={t('redeem.title')}
        cancelLabel={t('redeem.keep')}
        confirmLabel={t('redeem.confirm')}
        busy={redeem.isPending}
        testId="stake-redeem-modal"
        cancelTestId="stake-redeem-cancel"
        confirmTestId="stake-redeem-confirm"
      >
        {asking && figures ? (
          <Stack gap="3">
            <Dialog.Description>
              {t('redeem.question', { name: asking.showName || asking.coinSymbol, amount: formatCut(asking.amount, places), coin: asking.coinSymbol })}
            </Dialog.Description>
            <Stack gap="2">
              <InfoRow label={t('redeem.returned')} testId="stake-redeem-returned">
                <Text as="span" fontWeight="semibold">
                  {money(figures.returned)}
                </Text>
              </InfoRow>
              <InfoRow label={t('redeem.paidBack')} testId="stake-redeem-paid">
                {money(figures.paidBack)}
              </InfoRow>
              <InfoRow label={t('redeem.kept')} testId="stake-redeem-kept">
                {money(figures.kept)}
              </InfoRow>
              <InfoRow label={t('redeem.unearned')} testId="stake-redeem-unearned">
                {money(figures.unearned)}
              </InfoRow>
            </Stack>
            <Text fontSize="sm" color="fg.muted">
              {t('redeem.rule')}
            </Text>
          </Stack>
        ) : null}
      </ConfirmDialog>
    </>
  )
}
