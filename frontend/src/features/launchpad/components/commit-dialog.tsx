import { Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { earnRecordsKeys } from '@/features/earn-records/api/records-api'
import { AmountField } from '@/features/savings/components/amount-field'
import { DialogNotice, DialogState } from '@/features/savings/components/dialog-parts'
import { canSend, checkAmount, cutTo, dec, minOfLimits, plain, sent } from '@/features/staking/lib/amounts'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure, StepForm } from '@/features/wallet/components/shared'
import { WalletDialog } from '@/features/wallet/components/wallet-dialog'
import { getCurrency } from '@/lib/cookies'
import { formatCut, isPositive, mulDec } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { commitToSale, launchpadKeys, type LaunchView } from '../api/launchpad-api'
import { tokensFor } from '../lib/phase'
import { launchpadTexts } from '../lib/texts'
import { quoted } from './launchpad-page'

/** Props of {@link CommitDialog}. */
export interface CommitDialogProps {
  open: boolean
  sale: LaunchView
  onClose: () => void
}

/**
 * Commits the commitment coin from spot to a sale during its subscription
 * phase (newcoin_purchase): checked as it is typed (above 0, the coin's
 * decimals, the minimum, the available spot balance). What the commitment
 * buys at most (the cap per user) is said; more than that is returned at
 * the distribution. A refusal has had its toast with the server's words.
 */
export function CommitDialog({ open, sale, onClose }: CommitDialogProps) {
  const { t, ready } = launchpadTexts.useTexts()
  const common = useTexts('common')
  const [busy, setBusy] = useState(false)
  return (
    <WalletDialog open={open} onClose={onClose} title={ready ? t('commit.title', { name: sale.name }) : sale.name} closeLabel={common.t('close')} testId="commit-modal" busy={busy}>
      {!ready ? <DialogState isError={false} onRetry={() => {}} testId="commit" /> : <CommitForm sale={sale} onBusy={setBusy} onDone={onClose} />}
    </WalletDialog>
  )
}

function CommitForm({ sale, onBusy, onDone }: { sale: LaunchView; onBusy: (busy: boolean) => void; onDone: () => void }) {
  const { t } = launchpadTexts.useTexts()
  const queryClient = useQueryClient()
  const currency = getCurrency()
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const [amount, setAmount] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const keys = useRef(new RetryKeys())

  if (spot.isPending || spot.isError) return <DialogState isError={spot.isError} onRetry={() => void spot.refetch()} testId="commit" />

  const coin = sale.commitCoin
  const places = sale.commitPrecision
  const available = cutTo(spot.data.coinList.find((r) => r.coin === coin)?.normal ?? '0', places)
  const problem = checkAmount(amount, { precision: places, min: sale.minCommit, limits: [{ kind: 'available', max: available }] })
  const ok = canSend(amount, problem)
  const open = sale.phase === 'subscription'
  // What the cap per user is worth: committing more than this buys no more tokens.
  const capValue = sale.maxPerUser ? plain(mulDec(dec(sale.maxPerUser), dec(sale.price))) : ''
  // The tokens the commitment pays for, at most the cap per user (the rest is returned at the distribution).
  const paysFor = ok ? tokensFor(sent(amount), sale.price, sale.tokenPrecision) : ''
  const tokens = paysFor ? (minOfLimits(paysFor, sale.maxPerUser) ?? paysFor) : ''
  const errorText = !problem
    ? undefined
    : problem.kind === 'positive' || problem.kind === 'precision'
      ? t(`errors.${problem.kind}`, { places })
      : t(`errors.${problem.kind}`, { amount: formatCut(problem.value, places), coin })

  const submit = async () => {
    if (!open || !ok) return
    const value = sent(amount)
    setSubmitting(true)
    onBusy(true)
    try {
      const envelope = await commitToSale({ projectId: sale.id, amount: value, requestId: keys.current.keyFor({ projectId: sale.id, amount: value }) })
      keys.current.answered()
      if (isSuccess(envelope)) {
        notifySuccess(t('commit.success', { amount: formatCut(envelope.data?.amount || value, places), coin, name: sale.name }))
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: launchpadKeys.all }),
          queryClient.invalidateQueries({ queryKey: walletKeys.all }),
          queryClient.invalidateQueries({ queryKey: earnRecordsKeys.all }),
        ])
        onDone()
      }
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
      onBusy(false)
    }
  }

  return (
    <StepForm onSubmit={submit} busy={submitting}>
      <Stack gap="4">
        {!open ? <DialogNotice text={t('commit.closed')} testId="commit-closed" /> : null}
        <AmountField
          label={t('commit.amount')}
          value={amount}
          onChange={setAmount}
          coin={coin}
          error={errorText}
          maxText={t('commit.max')}
          maxLabel={t('commit.maxLabel')}
          onMax={() => setAmount(available)}
          testId="commit-amount"
        />
        <Stack gap="2">
          <InfoRow label={t('commit.available')} testId="commit-available">
            {`${formatCut(available, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('detail.minCommit')} testId="commit-min">
            {`${formatCut(sale.minCommit, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('detail.price')}>{`${quoted(sale.price, 18)} ${coin}`}</InfoRow>
          <InfoRow label={t('commit.buys')} testId="commit-buys">
            {tokens ? `≤ ${formatCut(tokens, sale.tokenPrecision)} ${sale.token}` : '--'}
          </InfoRow>
          {sale.maxPerUser ? (
            <InfoRow label={t('detail.cap')} testId="commit-cap">
              {t('commit.capValue', { tokens: quoted(sale.maxPerUser, sale.tokenPrecision), token: sale.token, value: quoted(capValue, places), coin })}
            </InfoRow>
          ) : null}
        </Stack>
        <Text fontSize="sm" color="fg.muted">
          {t('commit.rule')}
        </Text>
        {!isPositive(available) ? (
          <Text fontSize="sm" color="fg.muted" data-testid="commit-funds">
            {t('commit.funds', { coin })}
          </Text>
        ) : null}
        <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={!open || !ok} data-testid="commit-submit">
          {t('commit.confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
