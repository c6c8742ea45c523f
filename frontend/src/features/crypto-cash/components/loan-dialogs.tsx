import { chakra, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { DialogState } from '@/features/savings/components/dialog-parts'
import { earnRecordsKeys } from '@/features/earn-records/api/records-api'
import { addDec, canSend, checkAmount, cutTo, dec, decimalsOf, minOfLimits, minus0, plain, sent } from '@/features/staking/lib/amounts'
import { getSpotBalances, walletKeys } from '@/features/wallet/api/wallet-api'
import { InfoRow, notifyFailure, StepForm } from '@/features/wallet/components/shared'
import { WalletDialog } from '@/features/wallet/components/wallet-dialog'
import { getCurrency } from '@/lib/cookies'
import { cmpDec, formatCut, formatFixed } from '@/lib/decimal'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { RetryKeys } from '@/lib/idempotency'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { adjustCollateral, loanKeys, repayLoan, type CollateralChange, type LoanConfig, type LoanView } from '../api/crypto-cash-api'
import { liquidationPrice, ltvPercent, removableCollateral, repayAllAmount, repaySplit, type Thresholds } from '../lib/ltv'
import { cryptoCashTexts } from '../lib/texts'
import { AmountInput } from './amount-input'
import { amountText } from './amount-text'
import { LtvBar } from './ltv-bar'

/** Refreshes what a loan operation changes: the loans, the balances, the records. */
function useRefresh() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: loanKeys.mine }),
      queryClient.invalidateQueries({ queryKey: walletKeys.all }),
      queryClient.invalidateQueries({ queryKey: earnRecordsKeys.all }),
    ])
}

/** The spot balances, for the dialogs' available amounts. */
function useSpot() {
  const currency = getCurrency()
  return useQuery({ queryKey: walletKeys.fiat(currency), queryFn: () => getSpotBalances(currency) })
}

/** Props of the loan dialogs. */
export interface LoanDialogProps {
  open: boolean
  loan?: LoanView
  config: LoanConfig
  thresholds: Thresholds
  /** The collateral's index price in the loan coin ('' when not known). */
  price: string
  onClose: () => void
}

/**
 * Repays a loan from spot (/borrow/repay): interest first, then principal;
 * "Repay all" fills the debt and one more hour's interest (only what is owed
 * is taken), and a full repayment returns the collateral. The split and what
 * is left owed are shown as it is typed.
 */
export function RepayDialog({ open, loan, config, onClose }: LoanDialogProps) {
  const { t, ready } = cryptoCashTexts.useTexts()
  const common = useTexts('common')
  const [busy, setBusy] = useState(false)
  return (
    <WalletDialog open={open} onClose={onClose} title={ready && loan ? t('repay.title', { coin: loan.coin }) : ''} closeLabel={common.t('close')} testId="repay-modal" busy={busy}>
      {!ready || !loan ? <DialogState isError={false} onRetry={() => {}} testId="repay" /> : <RepayForm t={t} loan={loan} config={config} onBusy={setBusy} onDone={onClose} />}
    </WalletDialog>
  )
}

function RepayForm({ t, loan, config, onBusy, onDone }: { t: TranslateFn; loan: LoanView; config: LoanConfig; onBusy: (b: boolean) => void; onDone: () => void }) {
  const spot = useSpot()
  const refresh = useRefresh()
  const [amount, setAmount] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const keys = useRef(new RetryKeys())
  if (spot.isPending || spot.isError) return <DialogState isError={spot.isError} onRetry={() => void spot.refetch()} testId="repay" />

  const places = decimalsOf(loan.borrowed) ?? 8
  const collPlaces = decimalsOf(loan.collateral) ?? 8
  const available = cutTo(spot.data.coinList.find((r) => r.coin === loan.coin)?.normal ?? '0', places)
  const all = repayAllAmount(loan, places, config.overdueMultiplier)
  // What is taken is at most the debt: only that needs to be in spot.
  const taken = minOfLimits(sent(amount) || '0', loan.debt) ?? '0'
  const problem = checkAmount(amount, { precision: places }) ?? (cmpDec(dec(taken), dec(available)) > 0 ? { kind: 'available', value: available } : undefined)
  const ok = canSend(amount, problem)
  const split = repaySplit(loan, ok ? sent(amount) : '0', places)

  const submit = async () => {
    if (!ok) return
    const value = sent(amount)
    setSubmitting(true)
    onBusy(true)
    try {
      const envelope = await repayLoan(loan.id, value, keys.current.keyFor({ id: loan.id, amount: value }))
      keys.current.answered()
      if (isSuccess(envelope)) {
        const after = envelope.data
        notifySuccess(
          after?.status === 'repaid'
            ? t('repay.successFull', { collateral: formatCut(after.collateral, collPlaces), coll: loan.collateralCoin })
            : t('repay.success', { amount: formatCut(minOfLimits(value, loan.debt) ?? value, places), coin: loan.coin }),
        )
        await refresh()
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
        <Stack gap="2">
          <InfoRow label={t('loans.debt')} testId="repay-debt">
            <Text as="span" fontWeight="semibold">{`${formatCut(loan.debt, places)} ${loan.coin}`}</Text>
            <Text as="span" display="block" fontSize="xs" color="fg.muted">
              {t('loans.debtSplit', { principal: formatCut(loan.principal, places), interest: formatCut(loan.interest, places), coin: loan.coin })}
            </Text>
          </InfoRow>
          <InfoRow label={t('repay.available')} testId="repay-available">
            {`${formatCut(available, places)} ${loan.coin}`}
          </InfoRow>
        </Stack>
        <AmountInput
          label={t('repay.amount')}
          value={amount}
          onChange={setAmount}
          coin={loan.coin}
          error={amountText(t, problem, places, loan.coin)}
          action={{ text: t('repay.all'), label: t('repay.allLabel'), onClick: () => setAmount(minOfLimits(all, available) ?? all), testId: 'repay-all' }}
          testId="repay-amount"
        />
        <Stack gap="2" data-testid="repay-split">
          <InfoRow label={t('repay.interestPart')} testId="repay-interest">{`${formatCut(split.interest, places)} ${loan.coin}`}</InfoRow>
          <InfoRow label={t('repay.principalPart')} testId="repay-principal">{`${formatCut(split.principal, places)} ${loan.coin}`}</InfoRow>
          <InfoRow label={t('repay.left')} testId="repay-left">{`${formatCut(split.left, places)} ${loan.coin}`}</InfoRow>
        </Stack>
        <Text fontSize="sm" color={split.full && ok ? 'fg' : 'fg.muted'} data-testid="repay-note">
          {split.full && ok
            ? t('repay.full', { collateral: formatCut(loan.collateral, collPlaces), coll: loan.collateralCoin })
            : t('repay.rule')}
        </Text>
        <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={!ok} data-testid="repay-submit">
          {t('repay.confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}

const CHANGES: CollateralChange[] = ['add', 'remove']

/**
 * Adds collateral from spot, or takes some back to spot within the initial
 * LTV (/borrow/adjust_collateral); the LTV and the liquidation price after
 * the change are shown as it is typed.
 */
export function CollateralDialog({ open, loan, config, thresholds, price, onClose }: LoanDialogProps) {
  const { t, ready } = cryptoCashTexts.useTexts()
  const common = useTexts('common')
  const [busy, setBusy] = useState(false)
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={ready && loan ? t('collateral.title', { coll: loan.collateralCoin }) : ''}
      closeLabel={common.t('close')}
      testId="collateral-modal"
      busy={busy}
    >
      {!ready || !loan ? (
        <DialogState isError={false} onRetry={() => {}} testId="collateral" />
      ) : (
        <CollateralForm t={t} loan={loan} config={config} thresholds={thresholds} price={price} onBusy={setBusy} onDone={onClose} />
      )}
    </WalletDialog>
  )
}

function CollateralForm({
  t,
  loan,
  config,
  thresholds,
  price,
  onBusy,
  onDone,
}: {
  t: TranslateFn
  loan: LoanView
  config: LoanConfig
  thresholds: Thresholds
  price: string
  onBusy: (b: boolean) => void
  onDone: () => void
}) {
  const spot = useSpot()
  const refresh = useRefresh()
  const [change, setChange] = useState<CollateralChange>('add')
  const [amount, setAmount] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const keys = useRef(new RetryKeys())
  const ids = useId()
  if (spot.isPending || spot.isError) return <DialogState isError={spot.isError} onRetry={() => void spot.refetch()} testId="collateral" />

  const places = decimalsOf(loan.collateral) ?? 8
  const coll = loan.collateralCoin
  const available = cutTo(spot.data.coinList.find((r) => r.coin === coll)?.normal ?? '0', places)
  const removable = price ? removableCollateral(loan.debt, loan.collateral, price, config.initialLTV, places) : '0'
  const most = change === 'add' ? available : removable
  const problem = checkAmount(amount, { precision: places, limits: [{ kind: change === 'add' ? 'available' : 'removable', max: most }] })
  const ok = canSend(amount, problem)
  const value = ok ? sent(amount) : '0'
  const after = cutTo(change === 'add' ? plain(addDec(dec(loan.collateral), dec(value))) : minus0(loan.collateral, value), places)
  const ltvAfter = price ? ltvPercent(loan.debt, after, price) : ''
  const liqAfter = liquidationPrice(loan.debt, after, config.liquidationLTV)

  const submit = async () => {
    if (!ok) return
    const v = sent(amount)
    setSubmitting(true)
    onBusy(true)
    try {
      const envelope = await adjustCollateral(loan.id, v, change, keys.current.keyFor({ id: loan.id, amount: v, change }))
      keys.current.answered()
      if (isSuccess(envelope)) {
        notifySuccess(t(change === 'add' ? 'collateral.successAdd' : 'collateral.successRemove', { amount: formatCut(v, places), coll, ltv: formatFixed(envelope.data?.ltv || ltvAfter, 2) }))
        await refresh()
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
        <chakra.fieldset border="0" p="0" m="0" minW="0">
          <chakra.legend fontSize="sm" fontWeight="medium" mb="2" p="0">
            {t('collateral.change')}
          </chakra.legend>
          <Stack direction="row" gap="2" data-testid="collateral-change">
            {CHANGES.map((c) => {
              const chosen = change === c
              return (
                <chakra.label
                  key={c}
                  flex="1"
                  textAlign="center"
                  py="2"
                  borderWidth="1px"
                  rounded="md"
                  cursor="pointer"
                  fontSize="sm"
                  fontWeight="medium"
                  borderColor={chosen ? 'brand.solid' : 'border'}
                  bg={chosen ? 'brand.subtle' : undefined}
                  _focusWithin={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' }}
                  data-testid={`collateral-option-${c}`}
                  data-checked={chosen || undefined}
                >
                  <chakra.input
                    type="radio"
                    name={`${ids}-change`}
                    value={c}
                    checked={chosen}
                    onChange={() => {
                      setChange(c)
                      setAmount('')
                    }}
                    srOnly
                    data-testid={`collateral-type-${c}`}
                  />
                  {t(`collateral.${c}`)}
                </chakra.label>
              )
            })}
          </Stack>
        </chakra.fieldset>
        <AmountInput
          label={t('collateral.amount')}
          value={amount}
          onChange={setAmount}
          coin={coll}
          error={amountText(t, problem, places, coll)}
          action={{ text: t('collateral.max'), label: t(change === 'add' ? 'collateral.maxAddLabel' : 'collateral.maxRemoveLabel'), onClick: () => setAmount(most), testId: 'collateral-max' }}
          testId="collateral-amount"
        />
        <Stack gap="2">
          <InfoRow label={t('loans.collateral')} testId="collateral-now">{`${formatCut(loan.collateral, places)} ${coll}`}</InfoRow>
          <InfoRow label={t(change === 'add' ? 'collateral.available' : 'collateral.removable', { ltv: thresholds.initial })} testId="collateral-most">
            {`${formatCut(most, places)} ${coll}`}
          </InfoRow>
          <InfoRow label={t('collateral.after')} testId="collateral-after">{`${formatCut(after, places)} ${coll}`}</InfoRow>
          <InfoRow label={t('collateral.liquidationAfter')} testId="collateral-liquidation">
            {liqAfter ? `${formatFixed(liqAfter, 2)} ${loan.coin}` : '--'}
          </InfoRow>
        </Stack>
        <LtvBar t={t} ltv={ltvAfter} thresholds={thresholds} testId="collateral-ltv" />
        <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={!ok} data-testid="collateral-submit">
          {t(change === 'add' ? 'collateral.confirmAdd' : 'collateral.confirmRemove')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
