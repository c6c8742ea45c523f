import { Button, Stack, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton } from '@/components/form/send-code-button'
import { validateCode, validationMessage } from '@/lib/account-validation'
import type { TranslateFn } from '@/lib/i18n'
import { isSuccess, resetAuthenticator, retryAfterOf, sendAuthenticatorResetCodes, type LoginChallenge } from '../api/auth-api'
import { CodeRow } from './code-row'
import { BackButton } from './second-factor-form'

/** Props of {@link AuthenticatorResetForm}. */
export interface AuthenticatorResetFormProps {
  challenge: LoginChallenge
  t: TranslateFn
  onBack: () => void
  /** Completes the sign-in (its toast says withdrawals are locked for 24 hours). */
  onSignedIn: (token: string) => Promise<void>
}

/**
 * The way back in for a user who lost the authenticator, on the Google step
 * of the sign-in (the password is proven): a code to the account's e-mail
 * and one to its phone; with both the authenticator is turned off, the user
 * signed in and withdrawals locked for 24 hours (the server enforces it).
 */
export function AuthenticatorResetForm({ challenge, t, onBack, onSignedIn }: AuthenticatorResetFormProps) {
  const [emailCode, setEmailCode] = useState('')
  const [smsCode, setSmsCode] = useState('')
  const [errors, setErrors] = useState<{ email?: string; sms?: string }>({})
  const [sentTo, setSentTo] = useState<string>()
  const [submitting, setSubmitting] = useState(false)

  const onSend = async () => {
    const envelope = await sendAuthenticatorResetCodes(challenge.token)
    if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
    setSentTo(t('resetSent', { email: envelope.data.email, mobile: envelope.data.mobile }))
    return { ok: true }
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const next = { email: validationMessage(t, validateCode(emailCode)), sms: validationMessage(t, validateCode(smsCode)) }
    setErrors(next)
    if (next.email || next.sms) return
    setSubmitting(true)
    try {
      const envelope = await resetAuthenticator(challenge.token, emailCode, smsCode)
      if (!isSuccess(envelope)) return
      await onSignedIn(envelope.data.token)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} data-testid="authenticator-reset">
      <Stack gap="5">
        <Text textStyle="sm" color="fg.muted">
          {t('resetHint')}
        </Text>
        <SendCodeButton
          data-testid="reset-send-codes"
          label={t('resetSendCodes')}
          resendLabel={t('resend')}
          countdownLabel={(seconds) => t('resendIn', { seconds })}
          onSend={onSend}
        />
        {sentTo && (
          <Text textStyle="sm" data-testid="reset-sent-to" aria-live="polite">
            {sentTo}
          </Text>
        )}
        <FormField label={t('resetEmailCode')} error={errors.email}>
          <CodeRow>
            <CodeInput
              name="emailCode"
              placeholder={t('codePlaceholder')}
              value={emailCode}
              onValueChange={(v) => {
                setEmailCode(v)
                setErrors((e) => ({ ...e, email: undefined }))
              }}
            />
          </CodeRow>
        </FormField>
        <FormField label={t('resetSmsCode')} error={errors.sms}>
          <CodeRow>
            <CodeInput
              name="smsCode"
              placeholder={t('codePlaceholder')}
              value={smsCode}
              onValueChange={(v) => {
                setSmsCode(v)
                setErrors((e) => ({ ...e, sms: undefined }))
              }}
            />
          </CodeRow>
        </FormField>
        <Button type="submit" colorPalette="brand" size="lg" loading={submitting} width="full">
          {t('resetConfirm')}
        </Button>
        <BackButton label={t('back')} onBack={onBack} disabled={submitting} />
      </Stack>
    </form>
  )
}
