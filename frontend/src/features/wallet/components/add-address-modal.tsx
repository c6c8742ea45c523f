import { Field, Input, Stack, Switch, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { addWithdrawAddress, getAssets, getVerifyAddress, OP, sendSms, validateWithdrawAddress, walletKeys, type AssetEntry } from '../api/wallet-api'
import { joinAddressMemo } from '../lib/format'
import { AssetPicker } from './asset-picker'
import { codeError, GoogleField, SendCodeField } from './code-fields'
import { BusyButton } from '@/components/form/busy-button'
import { ChainButtons, failureText, InfoRow, notifyFailure, StepForm } from './shared'
import { WalletDialog } from './wallet-dialog'

/** Add-address resend lock (spec §4, §9). */
export const ADD_ADDRESS_RESEND_SECONDS = 60
const LABEL_MAX = 30

/** Chains offered when adding an address: every chain except the one named bank (spec §2). */
export function addressChains(asset: AssetEntry | undefined) {
  return (asset?.chains ?? []).filter((c) => c.name.toLowerCase() !== 'bank')
}

/** The add-address modal: step 1 details, step 2 verification codes (spec §2, §4, §5). */
export function AddAddressModal({
  open,
  onClose,
  coin,
  chain,
}: {
  open: boolean
  onClose: () => void
  coin?: string
  chain?: string
}) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const [step, setStep] = useState<1 | 2>(1)
  useEffect(() => {
    if (open) setStep(1)
  }, [open])
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={t('addAddress.title')}
      closeLabel={common.t('close')}
      backLabel={common.t('back')}
      onBack={step === 2 ? () => setStep(1) : undefined}
      testId="add-address-modal"
    >
      <AddAddressForm coin={coin} chain={chain} step={step} setStep={setStep} onDone={onClose} />
    </WalletDialog>
  )
}

function AddAddressForm({
  coin,
  chain: initialChain,
  step,
  setStep,
  onDone,
}: {
  coin?: string
  chain?: string
  step: 1 | 2
  setStep: (s: 1 | 2) => void
  onDone: () => void
}) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const assets = useQuery({ queryKey: walletKeys.assets('withdraw'), queryFn: () => getAssets('withdraw') })
  const list = useMemo(() => (assets.data ?? []).filter((a) => addressChains(a).length > 0), [assets.data])
  const verifyQuery = useQuery({ queryKey: walletKeys.verifyAddress, queryFn: getVerifyAddress })
  const [value, setValue] = useState('')
  const [chain, setChain] = useState('')
  const [address, setAddress] = useState('')
  const [label, setLabel] = useState('')
  const [memo, setMemo] = useState('')
  const [verify, setVerify] = useState<boolean | undefined>(undefined)
  const [sms, setSms] = useState('')
  const [google, setGoogle] = useState('')
  const [touched, setTouched] = useState(false)
  const [codesTouched, setCodesTouched] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  // The server's verdict on the address (and memo), asked before any code is sent.
  const [addressRefused, setAddressRefused] = useState<string>()
  const [checking, setChecking] = useState(false)
  const asset = list.find((a) => a.value === value)
  const chains = addressChains(asset)
  const tagChain = chains.find((c) => c.name === chain)?.tagType ?? 0
  const needSms = user?.isOpenMobileCheck === 1
  const needGoogle = user?.googleStatus === 1
  const verifyOn = verify ?? verifyQuery.data ?? false

  useEffect(() => {
    if (value || list.length === 0) return
    const a = (coin && list.find((x) => x.value === coin || x.code === coin)) || list[0]
    setValue(a.value)
    const cs = addressChains(a)
    setChain((initialChain && cs.find((c) => c.name === initialChain)?.name) || cs[0]?.name || '')
  }, [list, coin, initialChain, value])

  const chooseChain = (name: string) => {
    setChain(name)
    setAddressRefused(undefined)
    // The memo field is cleared when switching to a chain without a tag type (spec §5).
    if (!(chains.find((c) => c.name === name)?.tagType ?? 0)) setMemo('')
  }

  const errors = {
    address: address.trim() ? addressRefused : t('errors.required'),
    label: !label.trim() ? t('errors.required') : label.trim().length > LABEL_MAX ? t('addAddress.labelLong', { n: LABEL_MAX }) : undefined,
  }
  const codeErrors = {
    sms: needSms ? codeError(t, sms, 'phone') : undefined,
    google: needGoogle ? codeError(t, google, 'google') : undefined,
  }

  // Step 1 → 2: the address is checked by the same validity call as a withdrawal, so a
  // mistyped address is refused here rather than after the codes were sent.
  const next = async () => {
    setTouched(true)
    if (!address.trim() || errors.label || !asset || !chain) return
    setChecking(true)
    try {
      const target = joinAddressMemo(address.trim(), tagChain ? memo.trim() : '')
      const envelope = await validateWithdrawAddress(asset.value, chain, target)
      if (!isSuccess(envelope)) {
        setAddressRefused(envelope.msg || t('withdraw.invalidAddress'))
        return
      }
      setAddressRefused(undefined)
      setStep(2)
    } catch (e) {
      setAddressRefused(failureText(e, common.t('serverUnreachable')))
    } finally {
      setChecking(false)
    }
  }

  const submit = async () => {
    setCodesTouched(true)
    if (codeErrors.sms || codeErrors.google || !asset) return
    setSubmitting(true)
    try {
      const envelope = await addWithdrawAddress({
        address: address.trim(),
        coinSymbol: asset.value,
        chain,
        trustType: chain,
        label: label.trim(),
        memo: tagChain ? memo.trim() : '',
        verify: verifyOn ? 1 : 0,
        ...(needSms ? { smsValidCode: sms } : {}),
        ...(needGoogle ? { googleCode: google } : {}),
      })
      // Failures show the server message (global toast) and keep the modal open (spec §8).
      if (isSuccess(envelope)) {
        notifySuccess(t('addAddress.success'))
        await queryClient.invalidateQueries({ queryKey: walletKeys.all })
        onDone()
      }
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
    }
  }

  if (assets.isLoading) return <Text color="fg.muted">{common.t('loading')}</Text>
  if (assets.isError) return <Text color="fg.error">{common.t('error')}</Text>

  // Each step is a form: Enter in a field goes on like its button.
  if (step === 2) {
    return (
      <StepForm onSubmit={submit} busy={submitting}>
        <Stack gap="4" data-testid="add-address-step-2">
          <Stack gap="1.5" borderWidth="1px" rounded="md" p="3">
            <InfoRow label={t('asset')}>{asset?.value}</InfoRow>
            <InfoRow label={t('addAddress.chain')}>{chain}</InfoRow>
            <InfoRow label={t('addAddress.address')}>
              <Text fontFamily="mono" fontSize="xs">
                {address}
              </Text>
            </InfoRow>
            {tagChain && memo ? <InfoRow label={t('addAddress.memo')}>{memo}</InfoRow> : null}
            <InfoRow label={t('addAddress.label')}>{label}</InfoRow>
          </Stack>
          {needSms ? (
            <SendCodeField
              t={t}
              name="smsValidCode"
              label={t('codes.phone')}
              value={sms}
              onChange={setSms}
              error={codesTouched ? codeErrors.sms : undefined}
              send={() => sendSms(OP.other)}
              lockKey={`${user?.id ?? ''}:sms:${OP.other}`}
              seconds={ADD_ADDRESS_RESEND_SECONDS}
              sentLabel={t('codes.sentLabel')}
              testId="send-sms"
            />
          ) : null}
          {needGoogle ? (
            <GoogleField t={t} value={google} onChange={setGoogle} error={codesTouched ? codeErrors.google : undefined} />
          ) : null}
          <BusyButton type="submit" colorPalette="brand" loading={submitting} data-testid="add-address-submit">
            {common.t('confirm')}
          </BusyButton>
        </Stack>
      </StepForm>
    )
  }

  return (
    <StepForm onSubmit={next} busy={checking}>
      <Stack gap="4" data-testid="add-address-step-1">
        <AssetPicker
          assets={list}
          value={value}
          onChange={(a) => {
            setValue(a.value)
            setAddressRefused(undefined)
            const first = addressChains(a)[0]
            setChain(first?.name ?? '')
            if (!first?.tagType) setMemo('')
          }}
          label={t('asset')}
          searchLabel={t('searchAsset')}
          emptyLabel={t('noMatch')}
        />
        <ChainButtons chains={chains} value={chain} onChange={chooseChain} label={t('addAddress.chain')} bankLabel={t('bankMethod')} />
        <Field.Root invalid={touched && !!errors.address} required>
          <Field.Label>{t('addAddress.address')}</Field.Label>
          <Input
            name="address"
            value={address}
            onChange={(e) => {
              setAddress(e.target.value.trim())
              setAddressRefused(undefined)
            }}
            fontFamily="mono"
            autoComplete="off"
            data-testid="add-address-address"
          />
          {touched && errors.address ? <Field.ErrorText>{errors.address}</Field.ErrorText> : null}
        </Field.Root>
        {tagChain ? (
          <Field.Root>
            <Field.Label>{t('addAddress.memo')}</Field.Label>
            <Input
              name="memo"
              value={memo}
              onChange={(e) => {
                setMemo(e.target.value.trim())
                setAddressRefused(undefined)
              }}
              data-testid="add-address-memo"
            />
          </Field.Root>
        ) : null}
        <Field.Root invalid={touched && !!errors.label} required>
          <Field.Label>{t('addAddress.label')}</Field.Label>
          <Input name="label" value={label} maxLength={LABEL_MAX} onChange={(e) => setLabel(e.target.value)} data-testid="add-address-label" />
          {touched && errors.label ? <Field.ErrorText>{errors.label}</Field.ErrorText> : null}
        </Field.Root>
        <Switch.Root checked={verifyOn} onCheckedChange={(d) => setVerify(d.checked)} data-testid="verify-switch">
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>
            <Stack gap="0">
              <Text fontSize="sm">{t('addAddress.verify')}</Text>
              <Text fontSize="xs" color="fg.muted">
                {t('addAddress.verifyHelp')}
              </Text>
            </Stack>
          </Switch.Label>
        </Switch.Root>
        <BusyButton type="submit" colorPalette="brand" loading={checking} data-testid="add-address-next">
          {common.t('confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
