import { chakra, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure, StepForm } from '@/features/wallet/components/shared'
import { WalletDialog } from '@/features/wallet/components/wallet-dialog'
import { formatCut, isPositive } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import { newRequestId } from '@/lib/idempotency'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { redeemSavings, savingsKeys, type Holding, type RedeemType } from '../api/savings-api'
import { canSend, cut, nextUtcDate, redeemError } from '../lib/amounts'
import { savingsTexts } from '../lib/texts'
import { AmountField } from './amount-field'
import { DialogNotice, DialogState, useSavingsOf } from './dialog-parts'

/** Props of {@link RedeemDialog}. */
export interface RedeemDialogProps {
  open: boolean
  /** The coin whose product is redeemed from. */
  coin?: string
  onClose: () => void
}

/**
 * Redeems from a savings product (spec §7 savings/release): an amount up to
 * what can be redeemed, fast (into spot now, today's interest on it lost) or
 * standard (into spot with the next UTC day's settlement, today's interest
 * included). A refusal has had its toast with the server's words; the
 * dialog stays open.
 */
export function RedeemDialog({ open, coin, onClose }: RedeemDialogProps) {
  const { t, ready } = savingsTexts.useTexts()
  const common = useTexts('common')
  const data = useSavingsOf(coin, open)
  const [busy, setBusy] = useState(false)
  const name = data.project?.showName || coin || ''
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={ready ? t('redeem.title', { name }) : name}
      closeLabel={common.t('close')}
      testId="redeem-modal"
      busy={busy}
    >
      {!ready || data.isLoading || data.isError ? (
        <DialogState isError={data.isError} onRetry={data.refetch} testId="redeem" />
      ) : !data.holding || !isPositive(data.holding.redeemable) ? (
        <DialogNotice text={t('redeem.nothing')} testId="redeem-nothing" />
      ) : (
        <RedeemForm holding={data.holding} onBusy={setBusy} onDone={onClose} />
      )}
    </WalletDialog>
  )
}

const TYPES: RedeemType[] = ['fast', 'standard']

function RedeemForm({ holding, onBusy, onDone }: { holding: Holding; onBusy: (busy: boolean) => void; onDone: () => void }) {
  const { t } = savingsTexts.useTexts()
  const queryClient = useQueryClient()
  const [amount, setAmount] = useState('')
  const [type, setType] = useState<RedeemType>('fast')
  const [submitting, setSubmitting] = useState(false)
  // One id per opening and attempt: a second click while the first is on its way redeems once.
  const requestId = useRef(newRequestId())
  const ids = useId()
  const coin = holding.coinSymbol
  const places = holding.precision
  const redeemable = cut(holding.redeemable, places)
  const error = redeemError(amount, places, redeemable)
  const errorText =
    error === undefined
      ? undefined
      : error === 'precision'
        ? t('errors.precision', { places })
        : error === 'redeemable'
          ? t('errors.redeemable', { amount: formatCut(redeemable, places), coin })
          : t(`errors.${error}`)
  // The server names the day a standard redemption asked now arrives (its
  // clock, not the browser's); older answers without it: the UTC day after today.
  const arrives = holding.standardArriveDate || holding.redeemArriveDate || nextUtcDate()

  const submit = async () => {
    if (!canSend(amount, error)) return
    const sent = amount.replace(/\.$/, '')
    setSubmitting(true)
    onBusy(true)
    try {
      const envelope = await redeemSavings({ projectId: holding.id, coinSymbol: coin, amount: sent, type, requestId: requestId.current })
      if (isSuccess(envelope)) {
        const shown = formatCut(envelope.data?.amount || sent, places)
        notifySuccess(
          type === 'fast'
            ? t('redeem.successFast', { amount: shown, coin })
            : t('redeem.successStandard', { amount: shown, coin, date: envelope.data?.arriveDate || arrives }),
        )
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: savingsKeys.mine }),
          queryClient.invalidateQueries({ queryKey: walletKeys.all }),
        ])
        onDone()
      } else {
        // The request client showed the server's message; the next attempt is a new request.
        requestId.current = newRequestId()
      }
    } catch (e) {
      // No answer: the same id goes with the next attempt, so it redeems once.
      notifyFailure(e)
    } finally {
      setSubmitting(false)
      onBusy(false)
    }
  }

  return (
    <StepForm onSubmit={submit} busy={submitting}>
      <Stack gap="4">
        <AmountField
          label={t('redeem.amount')}
          value={amount}
          onChange={(v) => {
            setAmount(v)
            requestId.current = newRequestId()
          }}
          coin={coin}
          error={errorText}
          maxText={t('redeem.max')}
          maxLabel={t('redeem.maxLabel')}
          onMax={() => setAmount(redeemable)}
          testId="redeem-amount"
        />
        <InfoRow label={t('redeem.redeemable')} testId="redeem-redeemable">
          {`${formatCut(redeemable, places)} ${coin}`}
        </InfoRow>
        <chakra.fieldset border="0" p="0" m="0" minW="0">
          <chakra.legend fontSize="sm" fontWeight="medium" mb="2" p="0">
            {t('redeem.type')}
          </chakra.legend>
          <Stack gap="2" data-testid="redeem-type">
            {TYPES.map((v) => {
              const chosen = type === v
              const descId = `${ids}-${v}-desc`
              return (
                <chakra.label
                  key={v}
                  display="flex"
                  alignItems="flex-start"
                  gap="3"
                  p="3"
                  borderWidth="1px"
                  rounded="md"
                  cursor="pointer"
                  borderColor={chosen ? 'brand.solid' : 'border'}
                  bg={chosen ? 'brand.subtle' : undefined}
                  _focusWithin={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' }}
                  data-testid={`redeem-option-${v}`}
                  data-checked={chosen || undefined}
                >
                  <chakra.input
                    type="radio"
                    name={`${ids}-type`}
                    value={v}
                    checked={chosen}
                    onChange={() => setType(v)}
                    aria-describedby={descId}
                    mt="1"
                    flexShrink={0}
                    css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
                    _focusVisible={{ outline: 'none' }}
                    data-testid={`redeem-type-${v}`}
                  />
                  <Stack gap="0.5" minW="0">
                    <Text fontWeight="medium">{t(`redeem.${v}`)}</Text>
                    <Text fontSize="sm" color="fg.muted" id={descId}>
                      {v === 'fast' ? t('redeem.fastDesc') : t('redeem.standardDesc', { date: arrives })}
                    </Text>
                  </Stack>
                </chakra.label>
              )
            })}
          </Stack>
        </chakra.fieldset>
        <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={!canSend(amount, error)} data-testid="redeem-submit">
          {t('redeem.confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
