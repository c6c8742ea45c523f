import { Alert, Stack } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { getCapitalStatus, OP, sendEmail, sendSms, setCapitalPassword, walletKeys } from '../api/wallet-api'
import { codeError, GoogleField, SendCodeField } from './code-fields'
import { BusyButton } from '@/components/form/busy-button'
import { notifyFailure, StepForm } from './shared'
import { WalletDialog } from './wallet-dialog'

/** Trade-password rule of the server: 8–32 characters with letters and digits. */
export function tradePasswordError(t: (k: string) => string, value: string): string | undefined {
  if (!value) return t('errors.required')
  if (value.length < 8 || value.length > 32 || !/[A-Za-z]/.test(value) || !/\d/.test(value)) return t('tradePassword.rule')
  return undefined
}

/** The trade-password modal (spec §2, §5): password, confirmation, phone code, Google code when on. */
export function TradePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  // A user who already has a trade password is changing it: the title says so.
  const status = useQuery({ queryKey: walletKeys.capital, queryFn: getCapitalStatus, enabled: open })
  const isSet = status.data?.isCapitalPwordSet === 1
  // Only replacing a password starts the 24-hour withdrawal ban (the first one locks nothing):
  // warn when one is set, and when the status could not be read (it may be a change).
  const warn = isSet || status.isError
  return (
    <WalletDialog
      open={open}
      onClose={onClose}
      title={t(isSet ? 'tradePassword.changeTitle' : 'tradePassword.title')}
      closeLabel={common.t('close')}
      testId="trade-password-modal"
    >
      <TradePasswordForm onDone={onClose} isSet={isSet} warn={warn} />
    </WalletDialog>
  )
}

function TradePasswordForm({ onDone, isSet, warn }: { onDone: () => void; isSet: boolean; warn: boolean }) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const queryClient = useQueryClient()
  const { user } = useUserInfo()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [code, setCode] = useState('')
  const [google, setGoogle] = useState('')
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitting, setSubmitting] = useState(false)
  const hasPhone = !!user?.mobileNumber
  const needGoogle = user?.googleStatus === 1
  const touch = (k: string) => setTouched((s) => ({ ...s, [k]: true }))

  // Validated on change (spec §5).
  const errors = {
    password: tradePasswordError(t, password),
    confirm: !confirm ? t('errors.required') : confirm !== password ? t('errors.mismatch') : undefined,
    code: codeError(t, code, 'phone'),
    google: needGoogle ? codeError(t, google, 'google') : undefined,
  }

  const submit = async () => {
    setTouched({ password: true, confirm: true, code: true, google: true })
    if (!password || !confirm || !code) return
    if (errors.password || errors.confirm || errors.code || errors.google) return
    setSubmitting(true)
    try {
      const envelope = await setCapitalPassword({
        newCapitalPwd: password,
        confirmCapitalPwd: confirm,
        ...(hasPhone ? { smsAuthCode: code } : { emailCode: code }),
        ...(needGoogle ? { googleCode: google } : {}),
      })
      if (isSuccess(envelope)) {
        notifySuccess(t(isSet ? 'tradePassword.changed' : 'tradePassword.success'))
        await queryClient.invalidateQueries({ queryKey: walletKeys.all })
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
        {warn ? (
          <Alert.Root status="warning" data-testid="trade-password-warning">
            <Alert.Indicator />
            <Alert.Description>{t('tradePassword.warning')}</Alert.Description>
          </Alert.Root>
        ) : null}
        <FormField label={t('tradePassword.new')} error={touched.password ? errors.password : undefined} required>
          <PasswordInput
            name="newCapitalPwd"
            value={password}
            autoComplete="new-password"
            showLabel={t('tradePassword.show')}
            hideLabel={t('tradePassword.hide')}
            onValueChange={(v) => {
              setPassword(v)
              touch('password')
            }}
          />
        </FormField>
        <FormField label={t('tradePassword.confirm')} error={touched.confirm ? errors.confirm : undefined} required>
          <PasswordInput
            name="confirmCapitalPwd"
            value={confirm}
            autoComplete="new-password"
            showLabel={t('tradePassword.show')}
            hideLabel={t('tradePassword.hide')}
            onValueChange={(v) => {
              setConfirm(v)
              touch('confirm')
            }}
          />
        </FormField>
        <SendCodeField
          t={t}
          name={hasPhone ? 'smsAuthCode' : 'emailCode'}
          label={hasPhone ? t('codes.phone') : t('codes.email')}
          value={code}
          onChange={(v) => {
            setCode(v)
            touch('code')
          }}
          error={touched.code ? errors.code : undefined}
          send={() => (hasPhone ? sendSms(OP.tradePassword) : sendEmail(OP.tradePassword))}
          lockKey={`${user?.id ?? ''}:${hasPhone ? 'sms' : 'email'}:${OP.tradePassword}`}
          testId="send-code"
        />
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
        <BusyButton type="submit" colorPalette="brand" loading={submitting} data-testid="trade-password-submit">
          {common.t('confirm')}
        </BusyButton>
      </Stack>
    </StepForm>
  )
}
