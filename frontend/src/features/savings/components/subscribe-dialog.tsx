import { Alert, Checkbox, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, StepForm } from '@/features/wallet/components/shared'
import { WalletDialog } from '@/features/wallet/components/wallet-dialog'
import { getCurrency } from '@/lib/cookies'
import { formatCut, formatFixed, isPositive } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { markUnreachableTold, notifySuccess } from '@/lib/notify'
import { confirmAutoSub, confirmSubscription, savingsKeys, type Holding, type Project } from '../api/savings-api'
import { addedDailyInterest, canSend, capLeft, cut, minOf, minusFloor0, nextUtcDate, subscribeError, type AmountError } from '../lib/amounts'
import { subscribeThenAuto, type SubscribeOutcome } from '../lib/subscribe-flow'
import { savingsTexts } from '../lib/texts'
import { AmountField } from './amount-field'
import { DialogNotice, DialogState, useSavingsOf } from './dialog-parts'

/** Props of {@link SubscribeDialog}. */
export interface SubscribeDialogProps {
  open: boolean
  /** The coin whose product is subscribed (a coin has one product). */
  coin?: string
  onClose: () => void
}

/**
 * The savings subscription (spec §2 wallet view "savings subscription", §4):
 * an amount from the spot account, checked as it is typed against the
 * product's minimum, the coin's decimals, the available spot balance and the
 * cap left; the expected daily interest; auto-subscribe. Confirm subscribes,
 * then sets auto-subscribe on or off; a refusal shows "Failed" with the
 * server's code and message and the dialog stays open. The savings page and
 * the wallet's earn view open the same dialog.
 */
export function SubscribeDialog({ open, coin, onClose }: SubscribeDialogProps) {
  const { t, ready } = savingsTexts.useTexts()
  const common = useTexts('common')
  const data = useSavingsOf(coin, open)
  const [busy, setBusy] = useState(false)
  const name = data.project?.showName || coin || ''
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={ready ? t('subscribe.title', { name }) : name}
      closeLabel={common.t('close')}
      testId="subscribe-modal"
      busy={busy}
    >
      {!ready || data.isLoading || data.isError ? (
        <DialogState isError={data.isError} onRetry={data.refetch} testId="subscribe" />
      ) : !data.project ? (
        <DialogNotice text={t('subscribe.unknown')} testId="subscribe-unknown" />
      ) : (
        <SubscribeForm project={data.project} holding={data.holding} onBusy={setBusy} onDone={onClose} />
      )}
    </WalletDialog>
  )
}

/** The dialog's form: mounted with each opening, so every opening has its own request ids. */
function SubscribeForm({
  project,
  holding,
  onBusy,
  onDone,
}: {
  project: Project
  holding?: Holding
  onBusy: (busy: boolean) => void
  onDone: () => void
}) {
  const { t } = savingsTexts.useTexts()
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const currency = getCurrency()
  const spot = useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
  const [amount, setAmount] = useState('')
  const [auto, setAuto] = useState(holding?.autoStatus === 1)
  const [submitting, setSubmitting] = useState(false)
  const [outcome, setOutcome] = useState<Extract<SubscribeOutcome, { status: 'failed' }> | null>(null)
  // One key per amount while the dialog is open: a second click or a retry
  // after no answer (or after auto-subscribe failed) subscribes once.
  const keys = useRef(new RetryKeys())
  const autoHintId = useId()

  const coin = project.coinSymbol
  const places = project.precision
  const row = spot.data?.coinList.find((r) => r.coin === coin)
  const available = cut(row?.normal ?? '0', places)
  const left = capLeft(project, holding)
  const limits = { precision: places, minAmount: project.minAmount, available, capLeft: left }
  const error = spot.data ? subscribeError(amount, limits) : undefined
  const maxAmount = cut(left === undefined ? available : minOf(available, left), places)
  // What will earn from tomorrow besides this: what is held, less what is on its way out.
  const held = minusFloor0(holding?.amount ?? '0', holding?.redeeming ?? '0')
  const daily = canSend(amount, error) ? addedDailyInterest(project, held, amount) : ''
  const closed = !project.open

  const errorText = (e: AmountError | undefined): string | undefined => {
    switch (e) {
      case undefined:
        return undefined
      case 'precision':
        return t('errors.precision', { places })
      case 'min':
        return t('errors.min', { amount: formatCut(project.minAmount, places), coin })
      case 'available':
        return t('errors.available', { amount: formatCut(available, places), coin })
      case 'cap':
        return t('errors.cap', { amount: formatCut(left, places), coin })
      default:
        return t(`errors.${e}`)
    }
  }

  const submit = async () => {
    if (closed || !spot.data || !canSend(amount, error)) return
    setSubmitting(true)
    onBusy(true)
    setOutcome(null)
    const sent = amount.replace(/\.$/, '')
    const requestId = keys.current.keyFor({ projectId: project.id, amount: sent })
    const result = await subscribeThenAuto(
      { confirmSubscription, confirmAutoSub },
      { projectId: project.id, coinSymbol: coin, amount: sent, requestId },
      auto,
    )
    setSubmitting(false)
    onBusy(false)
    if (result.status === 'done') {
      notifySuccess(t('subscribe.success', { amount: formatCut(result.result.amount || sent, places), coin }))
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: savingsKeys.mine }),
        queryClient.invalidateQueries({ queryKey: walletKeys.all }),
      ])
      onDone()
      return
    }
    // A refusal of the subscription moved nothing: the next confirm is a new
    // request. After no answer, or when only auto-subscribe failed, the same
    // amount keeps its key, so confirming again does not subscribe twice.
    if (result.step === 'subscribe' && !result.unreachable) keys.current.answered()
    // The result below says the exchange was not reached: no second, general notice.
    if (result.unreachable) markUnreachableTold()
    if (result.step === 'auto') {
      void queryClient.invalidateQueries({ queryKey: savingsKeys.mine })
      void queryClient.invalidateQueries({ queryKey: walletKeys.all })
    }
    setOutcome(result)
  }

  return (
    <StepForm onSubmit={submit} busy={submitting}>
      <Stack gap="4">
        {closed ? <DialogNotice text={t('subscribe.closed')} testId="subscribe-closed" /> : null}
        <AmountField
          label={t('subscribe.amount')}
          value={amount}
          onChange={(v) => {
            setAmount(v)
            setOutcome(null)
          }}
          coin={coin}
          error={errorText(error)}
          maxText={t('subscribe.max')}
          maxLabel={t('subscribe.maxLabel')}
          maxDisabled={!spot.data}
          onMax={() => {
            setAmount(maxAmount)
            setOutcome(null)
          }}
          testId="subscribe-amount"
        />
        <Stack gap="2">
          <InfoRow label={t('subscribe.available')} testId="subscribe-available">
            {spot.isError ? common.t('error') : spot.data ? `${formatCut(available, places)} ${coin}` : '--'}
          </InfoRow>
          <InfoRow label={t('subscribe.min')} testId="subscribe-min">
            {`${formatCut(project.minAmount, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('subscribe.capLeft')} testId="subscribe-cap-left">
            {left === undefined ? t('subscribe.noCap') : `${formatCut(left, places)} ${coin}`}
          </InfoRow>
          <InfoRow label={t('subscribe.apr')} testId="subscribe-apr">
            {`${formatFixed(project.yearRate, 2)}%`}
          </InfoRow>
          <InfoRow label={t('subscribe.daily')} testId="subscribe-daily">
            <Text as="span" fontWeight="medium">
              {daily ? `≈ ${formatCut(daily, places)} ${coin}` : '--'}
            </Text>
            <Text as="span" display="block" fontSize="xs" color="fg.muted">
              {t('subscribe.dailyHint', { date: nextUtcDate() })}
            </Text>
          </InfoRow>
        </Stack>
        {spot.data && !isPositive(available) ? (
          <Text fontSize="sm" color="fg.muted">
            {t('subscribe.funds', { coin })}
          </Text>
        ) : null}
        <Checkbox.Root checked={auto} onCheckedChange={(d) => setAuto(d.checked === true)} alignItems="flex-start" data-testid="subscribe-auto">
          <Checkbox.HiddenInput aria-describedby={autoHintId} />
          <Checkbox.Control mt="0.5" />
          <Stack gap="0">
            <Checkbox.Label>{t('subscribe.auto')}</Checkbox.Label>
            <Text fontSize="xs" color="fg.muted" id={autoHintId}>
              {t('subscribe.autoHint', { coin })}
            </Text>
          </Stack>
        </Checkbox.Root>
        {outcome ? <FailedResult outcome={outcome} /> : null}
        <BusyButton
          type="submit"
          colorPalette="brand"
          loading={submitting}
          disabled={closed || !spot.data || !canSend(amount, error)}
          data-testid="subscribe-submit"
        >
          {t('subscribe.confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}

/** The "Failed" result of spec §4 and §8: the server's code and message (or that the exchange was not reached). */
function FailedResult({ outcome }: { outcome: Extract<SubscribeOutcome, { status: 'failed' }> }) {
  const { t } = savingsTexts.useTexts()
  const common = useTexts('common')
  const detail = outcome.unreachable ? common.t('serverUnreachable') : outcome.code ? t('subscribe.code', { code: outcome.code, msg: outcome.msg }) : outcome.msg
  return (
    <Alert.Root status="error" data-testid="subscribe-failed" data-code={outcome.code} data-step={outcome.step}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('subscribe.failed')}</Alert.Title>
        <Alert.Description>
          <Text>{detail}</Text>
          {outcome.step === 'auto' ? <Text mt="1">{t('subscribe.autoFailed')}</Text> : null}
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}
