import { useState } from 'react'
import { FormField } from '@/components/form/form-field'
import { PhoneInput } from '@/components/form/phone-input'
import { isClean, validateCode, validateGoogleCode, validatePhone, validationMessage } from '@/lib/account-validation'
import { DEFAULT_COUNTRY_CODE } from '@/lib/country-codes'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { savePhone, SECURITY_OPERATION } from '../api/security-api'
import { FormDialog } from './form-dialog'
import { GoogleCodeField } from './google-code-field'
import { SmsCodeField } from './sms-code-field'
import { useSecurityRefresh } from './use-security-refresh'

/** Props of {@link PhoneDialog}. */
export interface PhoneDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  t: TranslateFn
}

/**
 * Binding a first phone or changing it: the new number proven by an SMS code
 * sent to it (operationType 4 to bind, 5 to change), plus the Google code
 * when the authenticator is on.
 */
export function PhoneDialog({ open, onOpenChange, t }: PhoneDialogProps) {
  const { user } = useUserInfo()
  const refresh = useSecurityRefresh()
  const replacing = !!user?.mobileNumber
  const needsGoogle = user?.googleStatus === 1
  const [countryCode, setCountryCode] = useState(DEFAULT_COUNTRY_CODE)
  const [mobileNumber, setMobileNumber] = useState('')
  const [smsCode, setSmsCode] = useState('')
  const [googleCode, setGoogleCode] = useState('')
  const [errors, setErrors] = useState<{ phone?: string; sms?: string; google?: string }>({})
  const [submitting, setSubmitting] = useState(false)

  const phoneError = () => validationMessage(t, validatePhone(countryCode, mobileNumber))

  const submit = async () => {
    const next = {
      phone: phoneError(),
      sms: validationMessage(t, validateCode(smsCode)),
      google: needsGoogle ? validationMessage(t, validateGoogleCode(googleCode)) : undefined,
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const envelope = await savePhone(
        { countryCode, mobileNumber, smsAuthCode: smsCode, googleCode: needsGoogle ? googleCode : undefined },
        replacing,
      )
      if (!isSuccess(envelope)) return
      notifySuccess(t('phoneBound'))
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
      title={replacing ? t('changePhoneTitle') : t('bindPhoneTitle')}
      onSubmit={() => void submit()}
      submitting={submitting}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      testId="phone-dialog"
    >
      <FormField label={t('phoneLabel')} error={errors.phone}>
        <PhoneInput
          countryCode={countryCode}
          number={mobileNumber}
          countryCodeLabel={t('countryCodeLabel')}
          placeholder={t('phonePlaceholder')}
          invalid={!!errors.phone}
          onCountryCodeChange={setCountryCode}
          onNumberChange={(v) => {
            setMobileNumber(v)
            setErrors((e) => ({ ...e, phone: undefined }))
          }}
        />
      </FormField>
      <SmsCodeField
        t={t}
        value={smsCode}
        onChange={(v) => {
          setSmsCode(v)
          setErrors((e) => ({ ...e, sms: undefined }))
        }}
        error={errors.sms}
        operationType={replacing ? SECURITY_OPERATION.changeTarget : SECURITY_OPERATION.bindPhone}
        phone={{ countryCode, mobileNumber }}
        beforeSend={() => {
          const message = phoneError()
          setErrors((e) => ({ ...e, phone: message }))
          return !message
        }}
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
