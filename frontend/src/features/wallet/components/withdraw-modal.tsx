import { Alert, Button, Field, Input, InputGroup, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import { LuCheck, LuPlus } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { compareDecimals, formatAtLeast, formatFixed, isPositive, sanitizeAmount, subtractDecimals, truncateDecimals } from '@/lib/decimal'
import { newRequestId } from '@/lib/idempotency'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import {
  assetName,
  bankTitle,
  bankWithdraw,
  confirmWithdraw,
  getAssets,
  getBankAccounts,
  getCost,
  getWithdrawHistory,
  OP,
  sendEmail,
  sendSms,
  walletKeys,
  type AssetEntry,
} from '../api/wallet-api'
import { addressCheckQuery, CODE_MEMO_INVALID, useAddressCheck } from '../hooks/use-address-check'
import { formatTime, joinAddressMemo, sameAddress, splitSavedAddress } from '../lib/format'
import { defaultMethod, withdrawErrorText } from '../lib/withdraw-errors'
import { AddAddressModal } from './add-address-modal'
import { AddBankModal } from './add-bank-modal'
import { AssetPicker } from './asset-picker'
import { codeError, GoogleField, SendCodeField } from './code-fields'
import { BusyButton } from '@/components/form/busy-button'
import { ChainButtons, failureText, InfoRow, notifyFailure, QueryState, StepForm } from './shared'
import { WalletDialog } from './wallet-dialog'

const isBank = (chain: string) => chain.toLowerCase() === 'bank'

type Step = 1 | 2 | 3

/** Waits (at most ~8 s) until a new withdrawal has left the PENDING state, i.e. its request was sent. */
async function waitUntilSent(id: string): Promise<void> {
  const deadline = Date.now() + 8000
  while (Date.now() < deadline) {
    try {
      const page = await getWithdrawHistory({ page: 1, pageSize: 20 })
      const r = page.list.find((x) => x.id === id)
      if (r && r.status !== 'PENDING') return
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 400))
  }
}

/** The three-step withdraw modal of spec §2 and §4. */
export function WithdrawModal({ open, onClose, coin }: { open: boolean; onClose: () => void; coin?: string }) {
  const common = useTexts('common')
  const { t } = useTexts('walletModals')
  const [step, setStep] = useState<Step>(1)
  useEffect(() => {
    if (open) setStep(1)
  }, [open])
  // The back arrow leaves the modal on step 1, otherwise goes back one step (spec §2).
  const back = () => (step === 1 ? onClose() : setStep((s) => (s - 1) as Step))
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={t(step === 3 ? 'withdraw.confirmTitle' : 'withdraw.title')}
      closeLabel={common.t('close')}
      backLabel={common.t('back')}
      onBack={back}
      testId="withdraw-modal"
      focusKey={step}
    >
      <WithdrawBody coin={coin} step={step} setStep={setStep} onDone={onClose} />
    </WalletDialog>
  )
}

function WithdrawBody({
  coin,
  step,
  setStep,
  onDone,
}: {
  coin?: string
  step: Step
  setStep: (s: Step) => void
  onDone: () => void
}) {
  const { t, lan } = useTexts('walletModals')
  const walletTexts = useTexts('wallet')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const assets = useQuery({ queryKey: walletKeys.assets('withdraw'), queryFn: () => getAssets('withdraw') })
  const list = useMemo(() => (assets.data ?? []).filter((a) => a.withdrawOpen || a.isFiat), [assets.data])
  const [value, setValue] = useState('')
  const [method, setMethod] = useState('')
  const asset = list.find((a) => a.value === value)

  const [address, setAddress] = useState('')
  const [addressId, setAddressId] = useState('')
  const [memo, setMemo] = useState('')
  const [bankId, setBankId] = useState('')
  const [amount, setAmount] = useState('')
  const [formError, setFormError] = useState<string>()
  const [checking, setChecking] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [emailCode, setEmailCode] = useState('')
  const [smsCode, setSmsCode] = useState('')
  const [googleCode, setGoogleCode] = useState('')
  const [codeTouched, setCodeTouched] = useState(false)
  // Confirm was pressed on step 2: empty fields say they are required from then on.
  const [submitted, setSubmitted] = useState(false)
  const addressRef = useRef<HTMLInputElement>(null)
  const memoRef = useRef<HTMLInputElement>(null)
  const amountRef = useRef<HTMLInputElement>(null)
  const [submitError, setSubmitError] = useState<string>()
  const [addBankOpen, setAddBankOpen] = useState(false)
  const [addAddressOpen, setAddAddressOpen] = useState(false)
  const requestId = useRef(newRequestId())

  const resetForm = () => {
    setAddress('')
    setAddressId('')
    setMemo('')
    setBankId('')
    setAmount('')
    setFormError(undefined)
    setSubmitted(false)
  }

  const choose = (a: AssetEntry) => {
    setValue(a.value)
    setMethod(defaultMethod(a.chains, 'withdraw') || (a.isFiat ? 'Bank' : ''))
    resetForm()
  }

  useEffect(() => {
    if (value || list.length === 0) return
    const wanted = coin ? list.find((a) => a.value === coin || a.code === coin) : undefined
    choose(wanted ?? list[0])
    // choose only sets state; run once the list arrives
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list, coin, value])

  // What the calls send (MONT for the fiat) and what the user reads (its showName, MNT).
  const symbol = asset?.value ?? ''
  const name = asset ? assetName(asset) : ''
  // Without a network yet (a coin on several), the server answers for the coin's first one: step 1 shows
  // only what does not depend on the network (withdrawable, the 24-hour limit), and step 2 waits for the choice.
  const cost = useQuery({
    queryKey: walletKeys.cost(symbol, method),
    queryFn: () => getCost(symbol, method),
    enabled: !!symbol,
  })
  const bankMode = isBank(method)
  const banks = useQuery({ queryKey: walletKeys.banks, queryFn: getBankAccounts, enabled: bankMode })
  const info = cost.data
  const c = method ? cost.data : undefined
  const precision = c?.precision ?? asset?.fix ?? 8
  const fee = c?.defaultFee ?? '0'
  const chainAddresses = (c?.userWithdrawAddrList ?? []).filter((e) => !e.trustType || e.trustType === method)
  // A saved entry is "address_memo" on memo chains, split as the server splits it (a TON address may hold underscores).
  const savedParts = (entry: { address: string; trustType: string }) => splitSavedAddress(entry.address, entry.trustType || method, (c?.tagType ?? 0) > 0)
  const isSavedTarget = () =>
    chainAddresses.some((e) => {
      const parts = savedParts(e)
      return sameAddress(parts.address, address, e.trustType || method) && parts.memo === memo.trim()
    })
  const bank = (banks.data ?? []).find((b) => b.id === bankId)
  const lockedUntil = info?.withdrawLockedUntil ?? 0
  const locked = lockedUntil > Date.now()

  useEffect(() => {
    if (bankMode && !bankId && banks.data && banks.data.length > 0) setBankId(banks.data[0].id)
  }, [bankMode, bankId, banks.data])

  // What arrives: the amount minus the fee, for a chain and for the bank alike (the server sends amount − fee).
  const receive = isPositive(amount) ? subtractDecimals(amount, fee) : amount
  const needEmail = c ? c.needEmailCode : !!user?.email
  const needSms = c ? c.needSmsCode : user?.isOpenMobileCheck === 1
  const needGoogle = c ? c.needGoogleCode : user?.googleStatus === 1

  // Spec §8: the bounds of the cost info are checked as the amount is typed, before any code is sent;
  // a crypto withdrawal sends amount − fee, so the amount must be above the fee.
  const amountError = (): string | undefined => {
    if (!amount) return t('errors.required')
    if (!isPositive(amount)) return t('errors.amountPositive')
    if (c && isPositive(c.withdraw_min) && compareDecimals(amount, c.withdraw_min) < 0) {
      return t('errors.belowMin', { min: formatFixed(c.withdraw_min, 4), coin: name })
    }
    if (c && isPositive(c.withdraw_max) && compareDecimals(amount, c.withdraw_max) > 0) {
      return t('errors.aboveMax', { max: formatFixed(c.withdraw_max, 4), coin: name })
    }
    if (c && compareDecimals(amount, c.can_withdraw_amount) > 0) return t('errors.insufficient')
    // The 24-hour limit is in USDT (spec §9), checked here before any code is sent against what the
    // server says is left of it in this coin, valued as the submit values it (no price: the server checks).
    if (c?.left_withdraw_daily_coin_amount && compareDecimals(amount, c.left_withdraw_daily_coin_amount) > 0) {
      return t('errors.dailyExceeded', { left: formatFixed(c.left_withdraw_daily_amount, 2) })
    }
    if (compareDecimals(amount, fee) <= 0) return walletTexts.t('withdraw.amountAtMostFee', { fee: formatAtLeast(fee, 2), coin: name })
    return undefined
  }

  // The destination as the validity call takes it: address_memo on memo chains (spec §7).
  const target = bankMode ? '' : joinAddressMemo(address.trim(), memo.trim())
  // The address is checked by the server's validity call as it is typed (once typing pauses).
  const { check, flush: checkNow } = useAddressCheck(symbol, method, target, !bankMode && !!c)
  const addressError =
    check.state === 'invalid' && check.field === 'address'
      ? check.message || t('withdraw.invalidAddress')
      : address && c?.verifyAddress && !isSavedTarget()
        ? // The server refuses an unsaved address while verification is on: say so before any code is sent.
          t('withdraw.notSaved')
        : submitted && !address
          ? t('withdraw.enterAddress')
          : undefined
  const memoError = check.state === 'invalid' && check.field === 'memo' ? check.message || t('withdraw.invalidAddress') : undefined
  // An amount's error shows as soon as one is typed; an empty one is required once Confirm was pressed.
  const shownAmountError = amount || submitted ? amountError() : undefined
  // What arrives is shown only for an amount that can be sent.
  const sendable = !!c && !!amount && !amountError()

  // Step 2 → 3: the address (or bank account) and method are checked by the validity call first (spec §4).
  const confirmStep2 = async () => {
    setFormError(undefined)
    setSubmitted(true)
    if (bankMode) {
      if (!bank) return setFormError(t('withdraw.chooseBank'))
    } else if (!address.trim() || addressError) {
      return addressRef.current?.focus()
    } else if (memoError) {
      return memoRef.current?.focus()
    }
    if (amountError()) return amountRef.current?.focus()
    setChecking(true)
    try {
      // The answer the as-you-type check already has is reused (same query); else it is asked now.
      if (!bankMode) checkNow()
      const envelope = await queryClient.fetchQuery(addressCheckQuery(symbol, method, bankMode ? (bank?.account ?? '') : target))
      if (!isSuccess(envelope)) {
        // A chain address's refusal shows at its field (the check's answer); a bank account's here.
        if (bankMode) setFormError(envelope.msg || t('withdraw.invalidAddress'))
        else if (String(envelope.code) === CODE_MEMO_INVALID) memoRef.current?.focus()
        else addressRef.current?.focus()
        return
      }
      requestId.current = newRequestId()
      setSubmitError(undefined)
      setCodeTouched(false)
      setStep(3)
    } catch (e) {
      setFormError(failureText(e, common.t('serverUnreachable')))
    } finally {
      setChecking(false)
    }
  }

  const codesErrors = {
    email: needEmail ? codeError(t, emailCode, 'email') : undefined,
    sms: needSms ? codeError(t, smsCode, 'phone') : undefined,
    google: needGoogle ? codeError(t, googleCode, 'google') : undefined,
  }

  const submit = async () => {
    setCodeTouched(true)
    setSubmitError(undefined)
    if (codesErrors.email || codesErrors.sms || codesErrors.google) return
    setSubmitting(true)
    try {
      const codes = {
        ...(needEmail ? { emailCode } : {}),
        ...(needSms ? { smsValidCode: smsCode } : {}),
        ...(needGoogle ? { googleCode } : {}),
      }
      const envelope = bankMode
        ? await bankWithdraw({
            userId: String(user?.id ?? ''),
            amount,
            bankAccName: bank?.userName ?? '',
            bankAccNo: bank?.account ?? '',
            bankName: bank?.title ?? '',
            bankAccountId: bank?.id ?? '',
            code: new URLSearchParams(window.location.search).get('code') || symbol,
            requestId: requestId.current,
            ...codes,
          })
        : await confirmWithdraw({
            address: address.trim(),
            addressId: addressId || undefined,
            memo: memo.trim() || undefined,
            fee,
            amount,
            symbol,
            trustType: method,
            requestId: requestId.current,
            ...codes,
          })
      if (!isSuccess(envelope)) {
        const e = withdrawErrorText(envelope)
        const text = 'key' in e ? t(e.key) : e.message
        // Shown once, next to the codes and the Confirm button where the user looks, and kept there
        // until the next attempt (the call is silent: no error toast of the request client besides).
        setSubmitError(text)
        // A refused submit holds nothing; the next attempt is a new request.
        requestId.current = newRequestId()
        return
      }
      void queryClient.invalidateQueries({ queryKey: walletKeys.all })
      if (bankMode && envelope.data?.url) {
        // Spec §7: on success the bank withdrawal redirects to the returned url,
        // once the request has reached the bank (the workflow sends it just after the answer).
        await waitUntilSent(envelope.data.id)
        window.location.assign(envelope.data.url)
        return
      }
      notifySuccess(t('withdraw.submitted'))
      onDone()
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
    }
  }

  const chains = asset ? (asset.chains.length ? asset.chains : asset.isFiat ? [{ name: 'Bank' }] : []) : []

  return (
    <QueryState
      isLoading={assets.isLoading}
      isError={assets.isError}
      isEmpty={list.length === 0}
      onRetry={() => void assets.refetch()}
      loadingText={common.t('loading')}
      errorText={common.t('error')}
      retryText={common.t('retry')}
      emptyText={t('withdraw.noAssets')}
    >
      {step === 1 ? (
        <Stack gap="4" data-testid="withdraw-step-1">
          <AssetPicker assets={list} value={value} onChange={choose} label={t('asset')} searchLabel={t('searchAsset')} emptyLabel={t('noMatch')} />
          {asset ? (
            <Stack gap="1.5" borderWidth="1px" rounded="md" p="3">
              <InfoRow label={t('balance')}>{`${formatAtLeast(asset.totalBalance, asset.fix)} ${name}`}</InfoRow>
              <InfoRow label={t('available')}>{`${formatAtLeast(asset.normal_balance, asset.fix)} ${name}`}</InfoRow>
              <InfoRow label={t('freeze')}>{`${formatAtLeast(asset.lockBalance, asset.fix)} ${name}`}</InfoRow>
            </Stack>
          ) : null}
          {cost.isLoading ? (
            <Text color="fg.muted" fontSize="sm" role="status">
              {common.t('loading')}
            </Text>
          ) : cost.isError ? (
            // Without the cost info there is no fee, limit or balance to check against: say so and offer a retry.
            <Alert.Root status="error" data-testid="withdraw-cost-error">
              <Alert.Indicator />
              <Alert.Title flex="1">{common.t('error')}</Alert.Title>
              <Button size="xs" variant="outline" onClick={() => void cost.refetch()}>
                {common.t('retry')}
              </Button>
            </Alert.Root>
          ) : info ? (
            <Stack gap="1.5" borderWidth="1px" rounded="md" p="3" data-testid="withdraw-limits">
              <InfoRow label={t('withdraw.withdrawable')} testId="withdrawable">{`${formatFixed(info.can_withdraw_amount, 8)} ${name}`}</InfoRow>
              <InfoRow label={t('withdraw.dailyLimit')} testId="daily-limit">
                {`${formatFixed(info.used_withdraw_daily_amount, 2)} / ${formatFixed(info.total_withdraw_daily_max_limit, 2)} USDT`}
              </InfoRow>
              <InfoRow label={t('withdraw.dailyRemaining')}>{`${formatFixed(info.left_withdraw_daily_amount, 2)} USDT`}</InfoRow>
              {/* The bounds are the network's: shown once one is chosen (step 2 for a coin on several). */}
              {c ? (
                <InfoRow label={t('withdraw.minMax')} testId="withdraw-min-max">{`${formatFixed(c.withdraw_min, 4)} / ${formatFixed(c.withdraw_max, 4)} ${name}`}</InfoRow>
              ) : null}
            </Stack>
          ) : null}
          {locked ? (
            <Alert.Root status="warning" data-testid="withdraw-locked">
              <Alert.Indicator />
              <Alert.Description>{t('withdraw.locked', { time: formatTime(lockedUntil) })}</Alert.Description>
            </Alert.Root>
          ) : null}
          {/* The next steps show the fee and check the limits of the cost info: continue once it is there. */}
          <Button colorPalette="brand" disabled={!asset || !info || locked} onClick={() => setStep(2)} data-testid="withdraw-continue">
            {t('continue')}
          </Button>
          <AppLink href="/wallet/history?tab=withdraw" color="brand.fg" fontSize="sm" data-testid="withdraw-history-link">
            {t('withdrawHistory')}
          </AppLink>
        </Stack>
      ) : null}

      {step === 2 && asset ? (
        <StepForm onSubmit={confirmStep2} busy={checking}>
          <Stack gap="4" data-testid="withdraw-step-2">
            <ChainButtons
              chains={chains}
              value={method}
              onChange={(m) => {
                setMethod(m)
                resetForm()
              }}
              label={t('withdrawMethod')}
              bankLabel={t('bankMethod')}
            />
            {!method ? (
              <Text fontSize="sm" color="fg.muted" data-testid="withdraw-choose-network">
                {t('withdraw.chooseNetwork')}
              </Text>
            ) : (
              <>
                {c?.mainChainNameTip && !bankMode ? (
                  <Text fontSize="xs" color="fg.muted" data-testid="withdraw-main-chain-tip">
                    {t('withdraw.mainChainTip', { chain: c.mainChainNameTip })}
                  </Text>
                ) : null}
                {bankMode ? (
                  <Stack gap="1.5">
                    <Field.Root>
                      <Field.Label>{t('withdraw.recipientBank')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={bankId}
                          onChange={(e) => {
                            setBankId(e.target.value)
                            setFormError(undefined)
                          }}
                          data-testid="withdraw-bank-select"
                          placeholder={banks.data?.length ? undefined : t('withdraw.noBank')}
                        >
                          {(banks.data ?? []).map((b) => (
                            <option key={b.id} value={b.id}>
                              {`${bankTitle(b, lan)} · ${b.account}`}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                    <Button variant="plain" size="sm" alignSelf="flex-start" px="0" color="brand.fg" onClick={() => setAddBankOpen(true)} data-testid="add-bank-link">
                      <LuPlus aria-hidden="true" />
                      {t('withdraw.addBank')}
                    </Button>
                  </Stack>
                ) : (
                  <Stack gap="3">
                    <Field.Root invalid={!!addressError}>
                      <Field.Label>{t('withdraw.address')}</Field.Label>
                      <Input
                        ref={addressRef}
                        name="address"
                        value={address}
                        onChange={(e) => {
                          setAddress(e.target.value.trim())
                          setAddressId('')
                        }}
                        placeholder={t('withdraw.addressPlaceholder')}
                        autoComplete="off"
                        spellCheck={false}
                        fontFamily="mono"
                        data-testid="withdraw-address"
                        data-check={check.state}
                      />
                      {addressError ? (
                        <Field.ErrorText data-testid="withdraw-address-error">{addressError}</Field.ErrorText>
                      ) : check.state === 'checking' ? (
                        <Field.HelperText data-testid="withdraw-address-checking">{t('withdraw.checkingAddress')}</Field.HelperText>
                      ) : check.state === 'valid' ? (
                        <Field.HelperText color="fg.success" display="flex" alignItems="center" gap="1" data-testid="withdraw-address-valid">
                          <LuCheck aria-hidden="true" />
                          {t('withdraw.addressValid', { chain: method })}
                        </Field.HelperText>
                      ) : null}
                    </Field.Root>
                    <Field.Root>
                      <Field.Label>{t('withdraw.addressBook')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={addressId}
                          data-testid="address-book-select"
                          onChange={(e) => {
                            const id = e.target.value
                            const entry = chainAddresses.find((a) => a.id === id)
                            setAddressId(id)
                            if (entry) {
                              const parts = savedParts(entry)
                              setAddress(parts.address)
                              setMemo(parts.memo)
                            }
                          }}
                        >
                          <option value="">{t('withdraw.chooseSaved')}</option>
                          {chainAddresses.map((a) => (
                            <option key={a.id} value={a.id}>
                              {`${a.label} · ${a.address}`}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                      {/*
                        Adding an address is a button, not an option of the list: arrow keys change a
                        native select's value as they move, and would open the add-address modal on the way.
                      */}
                      <Button variant="plain" size="sm" alignSelf="flex-start" px="0" color="brand.fg" onClick={() => setAddAddressOpen(true)} data-testid="add-address-link">
                        <LuPlus aria-hidden="true" />
                        {t('withdraw.addAddress')}
                      </Button>
                    </Field.Root>
                    {c && c.tagType > 0 ? (
                      <Field.Root invalid={!!memoError}>
                        <Field.Label>{t('withdraw.memo')}</Field.Label>
                        <Input ref={memoRef} name="memo" value={memo} onChange={(e) => setMemo(e.target.value.trim())} data-testid="withdraw-memo" />
                        {memoError ? <Field.ErrorText data-testid="withdraw-memo-error">{memoError}</Field.ErrorText> : null}
                      </Field.Root>
                    ) : null}
                    {c?.verifyAddress ? (
                      <Text fontSize="xs" color="fg.muted">
                        {t('withdraw.verifyOn')}
                      </Text>
                    ) : null}
                  </Stack>
                )}
                <Field.Root invalid={!!shownAmountError}>
                  <Field.Label>{t('amount')}</Field.Label>
                  <InputGroup
                    endElement={
                      <Button size="xs" variant="ghost" onClick={() => setAmount(truncateDecimals(c?.can_withdraw_amount ?? asset.normal_balance, precision))} data-testid="withdraw-all">
                        {t('all')}
                      </Button>
                    }
                  >
                    <Input
                      ref={amountRef}
                      name="amount"
                      inputMode="decimal"
                      value={amount}
                      onChange={(e) => setAmount(sanitizeAmount(e.target.value, precision))}
                      placeholder={c ? t('withdraw.amountPlaceholder', { min: formatFixed(c.withdraw_min, 4) }) : ''}
                      data-testid="withdraw-amount"
                    />
                  </InputGroup>
                  {shownAmountError ? <Field.ErrorText data-testid="withdraw-amount-error">{shownAmountError}</Field.ErrorText> : null}
                  <Field.HelperText>{t('withdraw.availableLine', { amount: c ? formatFixed(c.can_withdraw_amount, 8) : asset.normal_balance, coin: name })}</Field.HelperText>
                </Field.Root>
                <Stack gap="1" borderWidth="1px" rounded="md" p="3">
                  <InfoRow label={t('withdraw.fee')} testId="withdraw-fee">{`${formatAtLeast(fee, 2)} ${name}`}</InfoRow>
                  {c && c.feeMin !== c.feeMax ? <InfoRow label={t('withdraw.feeRange')}>{`${formatAtLeast(c.feeMin, 2)} – ${formatAtLeast(c.feeMax, 2)}`}</InfoRow> : null}
                  {/* What arrives, only for an amount that can be sent (never for one below the minimum, above a bound or the fee's). */}
                  {sendable ? <InfoRow label={t('withdraw.receive')} testId="withdraw-receive">{`${formatAtLeast(receive, precision)} ${name}`}</InfoRow> : null}
                </Stack>
              </>
            )}
            {formError ? (
              <Text color="fg.error" fontSize="sm" role="alert" data-testid="withdraw-form-error">
                {formError}
              </Text>
            ) : null}
            <BusyButton type="submit" colorPalette="brand" loading={checking} disabled={!c} data-testid="withdraw-confirm-2">
              {common.t('confirm')}
            </BusyButton>
          </Stack>
        </StepForm>
      ) : null}

      {step === 3 && asset ? (
        <StepForm onSubmit={submit} busy={submitting}>
          <Stack gap="4" data-testid="withdraw-step-3">
            <Stack gap="1.5" borderWidth="1px" rounded="md" p="3" data-testid="withdraw-summary">
              {/* The amounts to check before confirming, at the coin's precision with grouped thousands, like the fee and the history. */}
              <InfoRow label={t('amount')}>{`${formatAtLeast(amount, precision)} ${name}`}</InfoRow>
              <InfoRow label={t('withdraw.fee')}>{`${formatAtLeast(fee, 2)} ${name}`}</InfoRow>
              <InfoRow label={t('withdraw.receive')}>{`${formatAtLeast(receive, precision)} ${name}`}</InfoRow>
              <InfoRow label={bankMode ? t('withdraw.recipientBank') : t('withdraw.address')}>
                <Text fontFamily="mono" fontSize="xs">
                  {bankMode ? `${bank ? bankTitle(bank, lan) : ''} ${bank?.account ?? ''}` : memo ? `${address} (${memo})` : address}
                </Text>
              </InfoRow>
            </Stack>
            {needSms ? (
              <SendCodeField
                t={t}
                name="smsValidCode"
                label={t('codes.phone')}
                value={smsCode}
                onChange={setSmsCode}
                error={codeTouched ? codesErrors.sms : undefined}
                send={() => sendSms(OP.withdrawSms)}
                lockKey={`${user?.id ?? ''}:sms:${OP.withdrawSms}`}
                testId="send-sms"
              />
            ) : null}
            {needEmail ? (
              <SendCodeField
                t={t}
                name="emailCode"
                label={t('codes.email')}
                value={emailCode}
                onChange={setEmailCode}
                error={codeTouched ? codesErrors.email : undefined}
                send={() => sendEmail(OP.withdrawEmail)}
                lockKey={`${user?.id ?? ''}:email:${OP.withdrawEmail}`}
                testId="send-email"
              />
            ) : null}
            {needGoogle ? (
              <GoogleField t={t} value={googleCode} onChange={setGoogleCode} error={codeTouched ? codesErrors.google : undefined} />
            ) : null}
            {submitError ? (
              <Alert.Root status="error" data-testid="withdraw-error">
                <Alert.Indicator />
                <Alert.Title>{submitError}</Alert.Title>
              </Alert.Root>
            ) : null}
            <BusyButton type="submit" colorPalette="brand" loading={submitting} disabled={bankMode && !bank} data-testid="withdraw-submit">
              {common.t('confirm')}
            </BusyButton>
          </Stack>
        </StepForm>
      ) : null}

      <AddBankModal
        open={addBankOpen}
        onClose={() => setAddBankOpen(false)}
        onAdded={(id) => {
          setBankId(id)
          // The "choose a bank" error no longer holds.
          setFormError(undefined)
        }}
      />
      <AddAddressModal
        open={addAddressOpen}
        onClose={() => setAddAddressOpen(false)}
        coin={asset && !asset.isFiat ? asset.value : undefined}
        chain={!bankMode ? method : undefined}
      />
    </QueryState>
  )
}
