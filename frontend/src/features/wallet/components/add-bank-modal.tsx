import { Button, Field, HStack, Input, InputGroup, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type ClipboardEvent } from 'react'
import { LuClipboardPaste } from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'
import { notifyError, notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo, type UserInfo } from '@/lib/session'
import { addBankAccount, bankTitle, getPaymentList, OP, sendSms, walletKeys } from '../api/wallet-api'
import { ibanForSubmit, ibanPasted, ibanTyped, IBAN_PREFIX, validateIbanDigits, type IbanMessage } from '../lib/iban'
import { codeError, GoogleField, SendCodeField } from './code-fields'
import { BusyButton } from '@/components/form/busy-button'
import { notifyFailure, StepForm } from './shared'
import { WalletDialog } from './wallet-dialog'

/** The account holder's name as the server records it: the user's own name. */
export function holderName(user: UserInfo | null | undefined): string {
  if (!user) return ''
  const full = [user.firstName, user.lastName].filter(Boolean).join(' ')
  return user.realName || full || user.nickName || user.email || ''
}

/** The add-bank modal (spec §2, §5): bank, holder (read-only), IBAN with fixed MN, SMS and Google codes. */
export function AddBankModal({
  open,
  onClose,
  onAdded,
}: {
  open: boolean
  onClose: () => void
  onAdded?: (id: string) => void
}) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  return (
    <WalletDialog open={open} onClose={onClose} title={t('addBank.title')} closeLabel={common.t('close')} testId="add-bank-modal">
      <AddBankForm onDone={onClose} onAdded={onAdded} />
    </WalletDialog>
  )
}

function AddBankForm({ onDone, onAdded }: { onDone: () => void; onAdded?: (id: string) => void }) {
  const { t, lan } = useTexts('walletModals')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const payments = useQuery({ queryKey: walletKeys.payments, queryFn: getPaymentList, staleTime: 10 * 60 * 1000 })
  const [payment, setPayment] = useState('')
  const [digits, setDigits] = useState('')
  const [sms, setSms] = useState('')
  const [google, setGoogle] = useState('')
  const [ibanMsg, setIbanMsg] = useState<IbanMessage>()
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitting, setSubmitting] = useState(false)
  const needSms = user?.isOpenMobileCheck === 1
  const needGoogle = user?.googleStatus === 1
  const touch = (name: string) => setTouched((s) => ({ ...s, [name]: true }))

  // Validated on change (spec §5).
  const errors = {
    payment: payment ? undefined : t('errors.required'),
    iban: ibanMsg === 'pasteFormat' || ibanMsg === 'clipboard' ? t(`iban.${ibanMsg}`) : (() => {
      const m = validateIbanDigits(digits)
      return m === 'required' ? t('errors.required') : m ? t(`iban.${m}`) : undefined
    })(),
    sms: needSms ? codeError(t, sms, 'phone') : undefined,
    google: needGoogle ? codeError(t, google, 'google') : undefined,
  }
  const valid = !errors.payment && !errors.iban && !errors.sms && !errors.google

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault()
    applyPaste(e.clipboardData.getData('text'))
  }
  const applyPaste = (text: string) => {
    touch('iban')
    const r = ibanPasted(text)
    if ('error' in r) {
      setIbanMsg(r.error)
      return
    }
    setIbanMsg(undefined)
    setDigits(r.digits)
  }
  const pasteButton = async () => {
    try {
      applyPaste(await navigator.clipboard.readText())
    } catch {
      touch('iban')
      setIbanMsg('clipboard')
      notifyError(t('iban.clipboard'))
    }
  }

  const submit = async () => {
    setTouched({ payment: true, iban: true, sms: true, google: true })
    // Submit proceeds only when bank address, payment and phone code are filled (spec §5).
    if (!valid) return
    setSubmitting(true)
    try {
      const envelope = await addBankAccount({
        account: ibanForSubmit(digits),
        payment,
        userName: holderName(user),
        ...(needSms ? { smsAuthCode: sms } : {}),
        ...(needGoogle ? { googleCode: google } : {}),
      })
      if (isSuccess(envelope)) {
        notifySuccess(t('addBank.success'))
        await queryClient.invalidateQueries({ queryKey: walletKeys.banks })
        onAdded?.(envelope.data?.id ?? '')
        onDone()
      }
    } catch (e) {
      notifyFailure(e)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <StepForm onSubmit={submit}>
      <Stack gap="4">
        <Field.Root invalid={touched.payment && !!errors.payment} required>
          <Field.Label>
            {t('addBank.bank')}
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root disabled={payments.isLoading}>
            <NativeSelect.Field
              name="payment"
              value={payment}
              onChange={(e) => {
                setPayment(e.target.value)
                touch('payment')
              }}
              data-testid="bank-select"
            >
              <option value="">{t('addBank.chooseBank')}</option>
              {(payments.data ?? []).map((p) => (
                <option key={p.payment} value={p.payment}>
                  {bankTitle(p, lan)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {touched.payment && errors.payment ? <Field.ErrorText>{errors.payment}</Field.ErrorText> : null}
          {payments.isError ? (
            // The bank list did not load: say so, rather than offer an empty choice.
            <HStack justify="space-between" width="full" role="alert" data-testid="payments-error">
              <Text color="fg.error" fontSize="sm">
                {common.t('error')}
              </Text>
              <Button size="xs" variant="outline" onClick={() => void payments.refetch()}>
                {common.t('retry')}
              </Button>
            </HStack>
          ) : null}
        </Field.Root>
        <Field.Root readOnly>
          <Field.Label>{t('addBank.holder')}</Field.Label>
          <Input name="userName" value={holderName(user)} readOnly data-testid="bank-holder" />
        </Field.Root>
        <Field.Root invalid={touched.iban && !!errors.iban} required>
          <Field.Label>
            {t('addBank.account')}
            <Field.RequiredIndicator />
          </Field.Label>
          <HStack width="full" gap="2">
            <InputGroup startAddon={IBAN_PREFIX}>
              <Input
                name="account"
                inputMode="numeric"
                autoComplete="off"
                maxLength={18}
                value={digits}
                placeholder={t('addBank.accountPlaceholder')}
                onPaste={onPaste}
                onChange={(e) => {
                  setIbanMsg(undefined)
                  setDigits(ibanTyped(e.target.value))
                  touch('iban')
                }}
                data-testid="bank-iban"
              />
            </InputGroup>
            <Button variant="outline" flexShrink={0} onClick={() => void pasteButton()} aria-label={t('codes.paste')}>
              <LuClipboardPaste aria-hidden="true" />
            </Button>
          </HStack>
          {touched.iban && errors.iban ? (
            <Field.ErrorText data-testid="iban-error">{errors.iban}</Field.ErrorText>
          ) : (
            <Field.HelperText>{t('addBank.accountHelp')}</Field.HelperText>
          )}
        </Field.Root>
        {needSms ? (
          <SendCodeField
            t={t}
            name="smsAuthCode"
            label={t('codes.phone')}
            value={sms}
            onChange={(v) => {
              setSms(v)
              touch('sms')
            }}
            error={touched.sms ? errors.sms : undefined}
            send={() => sendSms(OP.addBankSms)}
            lockKey={`${user?.id ?? ''}:sms:${OP.addBankSms}`}
            testId="send-sms"
          />
        ) : null}
        {needGoogle ? (
          <GoogleField
            t={t}
            value={google}
            onChange={(v) => {
              setGoogle(v)
              touch('google')
            }}
            error={touched.google ? errors.google : undefined}
          />
        ) : null}
        {!needSms && !needGoogle ? (
          <Text fontSize="xs" color="fg.muted">
            {t('addBank.noCodes')}
          </Text>
        ) : null}
        <BusyButton type="submit" colorPalette="brand" loading={submitting} data-testid="add-bank-submit">
          {common.t('confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
