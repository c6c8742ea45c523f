import { Button, HStack } from '@chakra-ui/react'
import { LuClipboardPaste } from 'react-icons/lu'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton, type SendResult } from '@/components/form/send-code-button'
import { digitsOnly, CODE_LENGTH } from '@/lib/account-validation'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess, type ApiEnvelope } from '@/lib/request-client'

function retryAfterOf(envelope: ApiEnvelope): number | undefined {
  const value = Number((envelope.data as { retryAfter?: unknown } | null)?.retryAfter)
  return Number.isFinite(value) && value > 0 ? value : undefined
}

/**
 * A code input with its send button: a successful send starts the
 * countdown (90 s by default, spec §4); a failed send shows the server's
 * message (the request client's toast, spec §8).
 */
export function SendCodeField({
  t,
  name,
  label,
  value,
  onChange,
  error,
  send,
  seconds,
  sentLabel,
  lockKey,
  testId,
}: {
  t: TranslateFn
  name: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  send: () => Promise<ApiEnvelope>
  seconds?: number
  /** Shown on the button while it is locked (add address: 'Code sent'). */
  sentLabel?: string
  /** Keeps the resend countdown across steps and reopenings (see SendCodeButton). */
  lockKey?: string
  testId?: string
}) {
  const onSend = async (): Promise<SendResult> => {
    const envelope = await send()
    if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
    notifySuccess(t('codes.sent'))
    return { ok: true }
  }
  return (
    <FormField label={label} error={error}>
      {/* A long countdown ('89 секундын дараа дахин илгээх') moves the button under the input instead of squeezing it. */}
      <HStack width="full" gap="2" flexWrap="wrap">
        <CodeInput name={name} placeholder={t('codes.placeholder')} value={value} onValueChange={onChange} aria-label={label} flex="1 1 8rem" />
        <SendCodeButton
          data-testid={testId}
          label={t('codes.send')}
          resendLabel={t('codes.resend')}
          countdownLabel={(s) => (sentLabel ? `${sentLabel} (${s}s)` : t('codes.resendIn', { seconds: s }))}
          onSend={onSend}
          seconds={seconds}
          lockKey={lockKey}
        />
      </HStack>
    </FormField>
  )
}

/** The Google authenticator code input with a paste button. */
export function GoogleField({
  t,
  value,
  onChange,
  error,
}: {
  t: TranslateFn
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  const paste = async () => {
    try {
      onChange(digitsOnly(await navigator.clipboard.readText(), CODE_LENGTH))
    } catch {
      // Clipboard access denied: the user types the code instead.
    }
  }
  return (
    <FormField label={t('codes.google')} error={error}>
      <HStack width="full" gap="2">
        <CodeInput
          name="googleCode"
          placeholder={t('codes.placeholder')}
          value={value}
          onValueChange={onChange}
          aria-label={t('codes.google')}
        />
        <Button variant="outline" flexShrink={0} minW="8.5rem" onClick={() => void paste()}>
          <LuClipboardPaste aria-hidden="true" />
          {t('codes.paste')}
        </Button>
      </HStack>
    </FormField>
  )
}

/** Code validation (spec §8): required, then exactly six digits. */
export function codeError(t: TranslateFn, value: string, kind: 'phone' | 'google' | 'email'): string | undefined {
  if (value.trim() === '') return t('errors.required')
  if (!/^\d{6}$/.test(value)) return kind === 'google' ? t('errors.googleLength', { n: 6 }) : t('errors.codeLength')
  return undefined
}
