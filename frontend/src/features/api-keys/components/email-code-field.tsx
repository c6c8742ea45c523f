import { HStack } from '@chakra-ui/react'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton, type SendResult } from '@/components/form/send-code-button'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { sendEmailCode } from '../api/api-keys-api'

/**
 * The e-mail code input with its send button (operationType 17, to the
 * bound address), beside the security page's SMS and Google code fields:
 * `t` is the security page's, whose code texts those fields read.
 */
export function EmailCodeField({
  t,
  label,
  value,
  onChange,
  error,
  helper,
}: {
  t: TranslateFn
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  helper?: string
}) {
  const onSend = async (): Promise<SendResult> => {
    const envelope = await sendEmailCode()
    if (!isSuccess(envelope)) {
      const retryAfter = Number((envelope.data as { retryAfter?: unknown } | null)?.retryAfter)
      return { ok: false, retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined }
    }
    notifySuccess(t('codeSent'))
    return { ok: true }
  }
  return (
    <FormField label={label} error={error} helper={helper}>
      <HStack width="full" gap="2">
        <CodeInput name="emailCode" placeholder={t('codePlaceholder')} value={value} onValueChange={onChange} />
        <SendCodeButton
          label={t('sendCode')}
          resendLabel={t('resend')}
          countdownLabel={(seconds) => t('resendIn', { seconds })}
          onSend={onSend}
          data-testid="send-email-code"
        />
      </HStack>
    </FormField>
  )
}
