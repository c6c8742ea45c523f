import { HStack } from '@chakra-ui/react'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton, type SendResult } from '@/components/form/send-code-button'
import { maskPhone } from '@/lib/country-codes'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess, type ApiEnvelope } from '@/lib/request-client'
import type { UserInfo } from '@/lib/session'
import { EMAIL_OPERATION, sendEmailCode } from '../api/send-email-code'
import { sendSmsCode, SMS_SECURITY_OPERATION } from '../api/send-sms-code'

/** Seconds a rate-limited send answer asks to wait (data.retryAfter), if any. */
export function retryAfterOf(envelope: ApiEnvelope): number | undefined {
  const value = Number((envelope.data as { retryAfter?: unknown } | null)?.retryAfter)
  return Number.isFinite(value) && value > 0 ? value : undefined
}

/** Props of {@link CodeField}. */
export interface CodeFieldProps {
  /** The account page texts (code labels, send and resend). */
  t: TranslateFn
  label: string
  name: string
  value: string
  onChange: (value: string) => void
  error?: string
  helper?: string
  /** Sends the code; absent for the authenticator's code, which nothing sends. */
  send?: () => Promise<ApiEnvelope>
  /** Checks what the send needs (the new address) first; false stops it. */
  beforeSend?: () => boolean
  /** data-testid of the send button. */
  sendTestId?: string
}

/**
 * A verification code input, with its send button and the 90 s resend
 * countdown when the code is one the exchange sends (e-mail, SMS).
 */
export function CodeField({ t, label, name, value, onChange, error, helper, send, beforeSend, sendTestId }: CodeFieldProps) {
  const onSend = async (): Promise<SendResult> => {
    if (!send || (beforeSend && !beforeSend())) return { ok: false }
    const envelope = await send()
    if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
    notifySuccess(t('codeSent'))
    return { ok: true }
  }
  const input = <CodeInput name={name} placeholder={t('codePlaceholder')} value={value} onValueChange={onChange} />
  return (
    <FormField label={label} error={error} helper={helper}>
      {send ? (
        <HStack width="full" gap="2">
          {input}
          <SendCodeButton
            label={t('sendCode')}
            resendLabel={t('resend')}
            countdownLabel={(seconds) => t('resendIn', { seconds })}
            onSend={onSend}
            data-testid={sendTestId}
          />
        </HStack>
      ) : (
        input
      )}
    </FormField>
  )
}

/** Which of the account's own codes a form asks for. */
export interface OwnCodesNeeded {
  email: boolean
  sms: boolean
  google: boolean
}

/** Props of {@link OwnCodeFields}. */
export interface OwnCodeFieldsProps {
  /** The account page texts. */
  t: TranslateFn
  user: Pick<UserInfo, 'email' | 'countryCode' | 'mobileNumber'>
  need: OwnCodesNeeded
  values: { email: string; sms: string; google: string }
  /** Each field's message, already translated. */
  errors: { email?: string; sms?: string; google?: string }
  onChange: (code: keyof OwnCodesNeeded, value: string) => void
  /** The e-mail field's label, name and send button where the form has a second e-mail code. */
  email?: { label: string; name: string; sendTestId: string }
}

/**
 * The codes that prove the account's owner, as a withdrawal asks for them:
 * one sent to the account's own e-mail, one by SMS to its phone, and the
 * authenticator's, each shown only when the form needs it.
 */
export function OwnCodeFields({ t, user, need, values, errors, onChange, email }: OwnCodeFieldsProps) {
  return (
    <>
      {need.email && (
        <CodeField
          t={t}
          label={email?.label ?? t('emailCodeLabel')}
          name={email?.name ?? 'emailCode'}
          value={values.email}
          onChange={(v) => onChange('email', v)}
          error={errors.email}
          helper={user.email ? t('sentToEmail', { email: user.email }) : undefined}
          send={() => sendEmailCode(EMAIL_OPERATION.ownAddress)}
          sendTestId={email?.sendTestId ?? 'send-email-code'}
        />
      )}
      {need.sms && (
        <CodeField
          t={t}
          label={t('smsCodeLabel')}
          name="smsAuthCode"
          value={values.sms}
          onChange={(v) => onChange('sms', v)}
          error={errors.sms}
          helper={t('sentToPhone', { phone: maskPhone(user.countryCode, user.mobileNumber) })}
          send={() => sendSmsCode(SMS_SECURITY_OPERATION)}
          sendTestId="send-sms-code"
        />
      )}
      {need.google && (
        <CodeField
          t={t}
          label={t('googleCodeLabel')}
          name="googleCode"
          value={values.google}
          onChange={(v) => onChange('google', v)}
          error={errors.google}
        />
      )}
    </>
  )
}
