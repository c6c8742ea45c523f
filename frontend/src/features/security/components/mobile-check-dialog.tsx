import { useState } from 'react'
import { isClean, validateCode, validateGoogleCode, validationMessage } from '@/lib/account-validation'
import { maskPhone } from '@/lib/country-codes'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { closeMobileCheck, openMobileCheck, SECURITY_OPERATION } from '../api/security-api'
import { FormDialog } from './form-dialog'
import { GoogleCodeField } from './google-code-field'
import { SmsCodeField } from './sms-code-field'
import { useSecurityRefresh } from './use-security-refresh'

/** Props of {@link MobileCheckDialog}. */
export interface MobileCheckDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  t: TranslateFn
}

/**
 * Turns the SMS check at sign-in on or off with a code sent to the bound
 * phone (operationType 11); turning it off also needs the Google code when on.
 */
export function MobileCheckDialog({ open, onOpenChange, t }: MobileCheckDialogProps) {
  const { user } = useUserInfo()
  const refresh = useSecurityRefresh()
  const turningOn = user?.isOpenMobileCheck !== 1
  const needsGoogle = !turningOn && user?.googleStatus === 1
  const [smsCode, setSmsCode] = useState('')
  const [googleCode, setGoogleCode] = useState('')
  const [errors, setErrors] = useState<{ sms?: string; google?: string }>({})
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const next = {
      sms: validationMessage(t, validateCode(smsCode)),
      google: needsGoogle ? validationMessage(t, validateGoogleCode(googleCode)) : undefined,
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const envelope = turningOn
        ? await openMobileCheck(smsCode)
        : await closeMobileCheck(smsCode, needsGoogle ? googleCode : undefined)
      if (!isSuccess(envelope)) return
      notifySuccess(turningOn ? t('mobileCheckOn') : t('mobileCheckOff'))
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
      title={turningOn ? t('mobileCheckOnTitle') : t('mobileCheckOffTitle')}
      onSubmit={() => void submit()}
      submitting={submitting}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      testId="mobile-check-dialog"
    >
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
      {needsGoogle && (
        <GoogleCodeField
          t={t}
          value={googleCode}
          onChange={(v) => {
            setGoogleCode(v)
            setErrors((e) => ({ ...e, google: undefined }))
          }}
          error={errors.google}
        />
      )}
    </FormDialog>
  )
}
