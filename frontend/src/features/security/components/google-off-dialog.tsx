import { Alert } from '@chakra-ui/react'
import { useState } from 'react'
import { isClean, validateCode, validateGoogleCode, validationMessage } from '@/lib/account-validation'
import { maskPhone } from '@/lib/country-codes'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { disableGoogle, SECURITY_OPERATION } from '../api/security-api'
import { FormDialog } from './form-dialog'
import type { GoogleDialogProps } from './google-on-dialog'
import { GoogleCodeField } from './google-code-field'
import { SmsCodeField } from './sms-code-field'
import { useSecurityRefresh } from './use-security-refresh'

/** Turning the Google authenticator off: a current code, plus an SMS code while the SMS check is on. */
export function GoogleOffDialog({ open, onOpenChange, t }: GoogleDialogProps) {
  const { user } = useUserInfo()
  const refresh = useSecurityRefresh()
  const needsSms = user?.isOpenMobileCheck === 1
  const [googleCode, setGoogleCode] = useState('')
  const [smsCode, setSmsCode] = useState('')
  const [errors, setErrors] = useState<{ google?: string; sms?: string }>({})
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const next = {
      google: validationMessage(t, validateGoogleCode(googleCode)),
      sms: needsSms ? validationMessage(t, validateCode(smsCode)) : undefined,
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const envelope = await disableGoogle(googleCode, needsSms ? smsCode : undefined)
      if (!isSuccess(envelope)) return
      notifySuccess(t('googleDisabled'))
      await refresh()
      onOpenChange(false)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('googleOffTitle')}
      onSubmit={() => void submit()}
      submitting={submitting}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      testId="google-off-dialog"
    >
      <Alert.Root status="warning" size="sm">
        <Alert.Indicator />
        <Alert.Title>{t('googleOffWarning')}</Alert.Title>
      </Alert.Root>
      {needsSms && (
        <SmsCodeField
          t={t}
          value={smsCode}
          onChange={(v) => {
            setSmsCode(v)
            setErrors((e) => ({ ...e, sms: undefined }))
          }}
          error={errors.sms}
          operationType={SECURITY_OPERATION.security}
          helper={t('smsToBound', { phone: maskPhone(user?.countryCode, user?.mobileNumber) })}
        />
      )}
      <GoogleCodeField
        t={t}
        value={googleCode}
        onChange={(v) => {
          setGoogleCode(v)
          setErrors((e) => ({ ...e, google: undefined }))
        }}
        error={errors.google}
      />
    </FormDialog>
  )
}
