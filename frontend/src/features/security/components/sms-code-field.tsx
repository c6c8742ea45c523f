import { HStack } from '@chakra-ui/react'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import type { SendResult } from '@/components/form/send-code-button'
import { SendCodeButton } from '@/components/form/send-code-button'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess, type ApiEnvelope } from '@/lib/request-client'
import { sendSecuritySms } from '../api/security-api'

/** Props of {@link SmsCodeField}. */
export interface SmsCodeFieldProps {
  t: TranslateFn
  value: string
  onChange: (value: string) => void
  error?: string
  operationType: number
  /** The phone to send to; the bound phone when absent. */
  phone?: { countryCode: string; mobileNumber: string }
  /** Checks the phone before sending; returns false to stop. */
  beforeSend?: () => boolean
  helper?: string
}

function retryAfterOf(envelope: ApiEnvelope): number | undefined {
  const value = Number((envelope.data as { retryAfter?: unknown } | null)?.retryAfter)
  return Number.isFinite(value) && value > 0 ? value : undefined
}

/** SMS code input with its send button and the 90 s resend countdown. */
export function SmsCodeField({
  t,
  value,
  onChange,
  error,
  operationType,
  phone,
  beforeSend,
  helper,
}: SmsCodeFieldProps) {
  const onSend = async (): Promise<SendResult> => {
    if (beforeSend && !beforeSend()) return { ok: false }
    const envelope = await sendSecuritySms(operationType, phone)
    if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
    notifySuccess(t('codeSent'))
    return { ok: true }
  }
  return (
    <FormField label={t('smsCodeLabel')} error={error} helper={helper}>
      <HStack width="full" gap="2">
        <CodeInput name="smsAuthCode" placeholder={t('codePlaceholder')} value={value} onValueChange={onChange} />
        <SendCodeButton
          label={t('sendCode')}
          resendLabel={t('resend')}
          countdownLabel={(seconds) => t('resendIn', { seconds })}
          onSend={onSend}
        />
      </HStack>
    </FormField>
  )
}
