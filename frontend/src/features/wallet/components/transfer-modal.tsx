import { Box, Button, Field, HStack, IconButton, Input, InputGroup, NativeSelect, SegmentGroup, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { LuArrowUpDown } from 'react-icons/lu'
import { compareDecimals, formatCut, isPositive, sanitizeAmount, truncateDecimals } from '@/lib/decimal'
import { newRequestId } from '@/lib/idempotency'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import {
  getMarginCoinList,
  getTransferCoins,
  transfer,
  TRANSFER_ACCOUNTS,
  walletKeys,
  type TransferAccount,
  type TransferCoin,
} from '../api/wallet-api'
import { BusyButton } from '@/components/form/busy-button'
import { InfoRow, notifyFailure, StepForm } from './shared'
import { WalletDialog } from './wallet-dialog'

/** Futures transfer amounts are truncated to 3 decimals (spec §5, §9). */
export const FUTURES_DECIMALS = 3

/** The decimals a transfer amount may have for an account. */
export function transferDecimals(account: TransferAccount, coinPrecision: number): number {
  return account === 'futures' ? Math.min(FUTURES_DECIMALS, coinPrecision) : coinPrecision
}

/** Spec §9: OTC balances show 2 decimals. */
export const OTC_DECIMALS = 2
/** Spec §9: margin balances show 4 decimals (the server's default; the transfer list gives no other). */
export const MARGIN_DECIMALS = 4

/**
 * The decimals the from-account's available amount is shown with (spec §9):
 * the spot side at the coin's precision; an OTC account 2, a margin account
 * 4; futures 3 either way (what its transfer keeps). Never more than a
 * transfer amount may have.
 */
export function availableDecimals(account: TransferAccount, direction: 1 | 2, coinPrecision: number): number {
  const amount = transferDecimals(account, coinPrecision)
  if (direction === 1) return amount
  if (account === 'otc') return Math.min(OTC_DECIMALS, amount)
  if (account === 'margin_cross' || account === 'margin_isolated') return Math.min(MARGIN_DECIMALS, amount)
  return amount
}

/** The transfer modal of spec §2 and §4. */
export function TransferModal({
  open,
  onClose,
  account,
  coin,
}: {
  open: boolean
  onClose: () => void
  account?: TransferAccount
  coin?: string
}) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  return (
    <WalletDialog open={open} onClose={onClose} title={t('transfer.title')} closeLabel={common.t('close')} testId="transfer-modal">
      <TransferForm initialAccount={account ?? 'otc'} initialCoin={coin} onDone={onClose} />
    </WalletDialog>
  )
}

/** The coin list before it loads (one array, so effects depending on it do not rerun). */
const NO_COINS: TransferCoin[] = []

function TransferForm({
  initialAccount,
  initialCoin,
  onDone,
}: {
  initialAccount: TransferAccount
  initialCoin?: string
  onDone: () => void
}) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const [account, setAccount] = useState<TransferAccount>(initialAccount)
  // Direction 1: from the spot and fiat account to the chosen account; 2 the reverse (spec §4).
  const [direction, setDirection] = useState<1 | 2>(1)
  const [pair, setPair] = useState('')
  const [coin, setCoin] = useState(initialCoin ?? '')
  const [amount, setAmount] = useState('')
  const [submitting, setSubmitting] = useState(false)
  const requestId = useRef(newRequestId())
  const isolated = account === 'margin_isolated'
  const ids = useId()
  const fromId = `${ids}-from`
  const toId = `${ids}-to`
  const coinId = `${ids}-coin`

  const pairs = useQuery({ queryKey: walletKeys.marginList(2), queryFn: () => getMarginCoinList(2), enabled: isolated })
  useEffect(() => {
    if (isolated && !pair && pairs.data?.coinLists.length) setPair(pairs.data.coinLists[0].symbol)
  }, [isolated, pair, pairs.data])

  const coins = useQuery({
    queryKey: walletKeys.transferCoins(account, isolated ? pair : ''),
    queryFn: () => getTransferCoins(account, isolated ? pair : ''),
    enabled: !isolated || !!pair,
  })
  const list = coins.data?.list ?? NO_COINS
  // The first coin is the default; for isolated margin the first of the base/quote list (spec §4).
  useEffect(() => {
    if (list.length === 0) return
    if (!list.some((c) => c.coin === coin)) setCoin(list[0].coin)
  }, [list, coin])

  const current = list.find((c) => c.coin === coin)
  const decimals = current ? transferDecimals(account, current.precision) : 8
  const available = current ? (direction === 1 ? current.normal : current.targetNormal) : '0'
  // Shown cut (never rounded up) at the from-account's decimals (spec §9);
  // All still moves everything the transfer may carry, dust below the
  // shown places included.
  const shownDecimals = current ? availableDecimals(account, direction, current.precision) : decimals
  const allAmount = truncateDecimals(available, decimals)
  const availableText = formatCut(available, shownDecimals)
  // An amount typed before the coin list arrived follows the account's decimals (futures: 3).
  useEffect(() => {
    setAmount((a) => (a ? sanitizeAmount(a, decimals) : a))
  }, [decimals])
  // What is sent (futures: truncated to 3 decimals) must not be more than the from-account holds:
  // said here as it is typed, instead of after the server's refusal.
  const sent = account === 'futures' ? truncateDecimals(amount, FUTURES_DECIMALS) : amount
  const overBalance = !!current && isPositive(amount) && compareDecimals(sent, available) > 0
  const amountErrorId = `${ids}-amount-error`
  const spotName = t('transfer.accounts.spot')
  const accountName = t(`transfer.accounts.${account}`)

  const changeAccount = (a: TransferAccount) => {
    setAccount(a)
    setPair('')
    // The first coin of the new account's list becomes the default (spec §4).
    setCoin('')
    setAmount('')
  }

  const submit = async () => {
    if (!current || !isPositive(amount) || overBalance) return
    setSubmitting(true)
    try {
      const envelope = await transfer({
        account,
        direction,
        coin: current.coin,
        amount: sent,
        symbol: isolated ? pair : undefined,
        requestId: requestId.current,
      })
      if (isSuccess(envelope)) {
        notifySuccess(t('transfer.success'))
        await queryClient.invalidateQueries({ queryKey: walletKeys.all })
        onDone()
      } else {
        // The request client showed the server's message; the modal stays open for a new attempt.
        requestId.current = newRequestId()
      }
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
    }
  }

  // The account picker is named by the side it is on (From or To), so a screen reader says which one it changes.
  const accountSelect = (
    <NativeSelect.Root size="sm">
      <NativeSelect.Field
        aria-labelledby={direction === 1 ? toId : fromId}
        value={account}
        onChange={(e) => changeAccount(e.target.value as TransferAccount)}
        data-testid="transfer-account"
      >
        {TRANSFER_ACCOUNTS.map((a) => (
          <option key={a} value={a}>
            {t(`transfer.accounts.${a}`)}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  )
  const spotBox = (
    <Box px="3" py="1.5" borderWidth="1px" rounded="md" fontSize="sm" data-testid="transfer-spot">
      {spotName}
    </Box>
  )

  // A form, so Enter in the amount confirms like the button.
  return (
    <StepForm onSubmit={submit} busy={submitting}>
      <Stack gap="4">
        <HStack align="stretch" gap="3">
          <Stack flex="1" gap="3">
            <Stack gap="1">
              <Text fontSize="sm" color="fg.muted" id={fromId}>
                {t('transfer.from')}
              </Text>
              {direction === 1 ? spotBox : accountSelect}
            </Stack>
            <Stack gap="1">
              <Text fontSize="sm" color="fg.muted" id={toId}>
                {t('transfer.to')}
              </Text>
              {direction === 1 ? accountSelect : spotBox}
            </Stack>
          </Stack>
          <IconButton
            alignSelf="center"
            variant="outline"
            aria-label={t('transfer.swap')}
            onClick={() => {
              setDirection((d) => (d === 1 ? 2 : 1))
              setAmount('')
            }}
            data-testid="transfer-swap"
            data-direction={direction}
          >
            <LuArrowUpDown aria-hidden="true" />
          </IconButton>
        </HStack>

        {isolated ? (
          <Field.Root>
            <Field.Label>{t('transfer.pair')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                value={pair}
                onChange={(e) => {
                  setPair(e.target.value)
                  setCoin('')
                  setAmount('')
                }}
                data-testid="transfer-pair"
              >
                {(pairs.data?.coinLists ?? []).map((p) => (
                  <option key={p.symbol} value={p.symbol}>
                    {p.symbolName || p.name}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        ) : null}

        {isolated ? (
          <Stack gap="1">
            <Text fontSize="sm" fontWeight="medium" id={coinId}>
              {t('transfer.coin')}
            </Text>
            <SegmentGroup.Root
              aria-labelledby={coinId}
              value={coin}
              onValueChange={(d) => {
                if (d.value) setCoin(d.value)
                setAmount('')
              }}
              data-testid="transfer-base-quote"
            >
              <SegmentGroup.Indicator />
              <SegmentGroup.Items items={list.map((c) => ({ value: c.coin, label: c.showName || c.coin }))} />
            </SegmentGroup.Root>
          </Stack>
        ) : (
          <Field.Root>
            <Field.Label>{t('transfer.coin')}</Field.Label>
            <NativeSelect.Root disabled={coins.isLoading}>
              <NativeSelect.Field
                value={coin}
                onChange={(e) => {
                  setCoin(e.target.value)
                  setAmount('')
                }}
                data-testid="transfer-coin"
              >
                {list.map((c) => (
                  <option key={c.coin} value={c.coin}>
                    {c.showName || c.coin}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        )}

        <Field.Root invalid={overBalance}>
          <Field.Label>{t('amount')}</Field.Label>
          <InputGroup
            endElement={
              <Button size="xs" variant="ghost" onClick={() => setAmount(allAmount)} data-testid="transfer-all">
                {t('all')}
              </Button>
            }
          >
            <Input
              name="amount"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(sanitizeAmount(e.target.value, decimals))}
              // The error below is read with the field.
              aria-describedby={overBalance ? amountErrorId : undefined}
              data-testid="transfer-amount"
            />
          </InputGroup>
          {overBalance && current ? (
            <Field.ErrorText id={amountErrorId} data-testid="transfer-amount-error">
              {t('transfer.insufficient', { amount: availableText, coin: current.coin })}
            </Field.ErrorText>
          ) : null}
        </Field.Root>
        <InfoRow label={t('transfer.available', { account: direction === 1 ? spotName : accountName })} testId="transfer-available">
          {current ? `${availableText} ${current.coin}` : '--'}
        </InfoRow>
        {coins.isError || pairs.isError ? (
          // A failed balance lookup says so (instead of an empty coin list and a zero balance).
          <HStack justify="space-between" role="alert" data-testid="transfer-load-error">
            <Text color="fg.error" fontSize="sm">
              {common.t('error')}
            </Text>
            <Button size="xs" variant="outline" onClick={() => void (pairs.isError ? pairs.refetch() : coins.refetch())}>
              {common.t('retry')}
            </Button>
          </HStack>
        ) : null}
        <BusyButton type="submit" colorPalette="brand" disabled={!isPositive(amount) || !current || overBalance} loading={submitting} data-testid="transfer-submit">
          {common.t('confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
