import { Button, HStack, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState, type FormEvent } from 'react'
import { LuArrowLeft, LuShieldCheck, LuSmartphone } from 'react-icons/lu'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton } from '@/components/form/send-code-button'
import { validateCode, validateGoogleCode, validationMessage } from '@/lib/account-validation'
import { RESEND_SECONDS } from '@/lib/use-countdown'
import { confirmLogin, isSuccess, type LoginChallenge } from '../api/auth-api'
import { CodeRow } from './code-row'

/** Props of {@link SecondFactorForm}. */
export interface SecondFactorFormProps {
  challenge: LoginChallenge
  t: (key: string, vars?: Record<string, string | number>) => string
  onBack: () => void
  /** Asks for a new SMS code (signs in again); resolves whether it was sent. */
  onResend: () => Promise<boolean>
  onSignedIn: (token: string) => Promise<void>
}

/**
 * The second sign-in step: the Google authenticator code, or the SMS code the
 * server sent with the challenge (resend after 90 s).
 */
export function SecondFactorForm({ challenge, t, onBack, onResend, onSignedIn }: SecondFactorFormProps) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const [submitting, setSubmitting] = useState(false)
  const isGoogle = challenge.type === 'google'

  // A new challenge (after a resend) needs a new code.
  useEffect(() => setCode(''), [challenge.token])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const message = validationMessage(t, isGoogle ? validateGoogleCode(code) : validateCode(code))
    setError(message)
    if (message) return
    setSubmitting(true)
    try {
      const envelope = await confirmLogin(challenge.token, code)
      if (isSuccess(envelope)) await onSignedIn(envelope.data.token)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)}>
      <Stack gap="5">
        <HStack gap="3" align="flex-start" color="fg.muted">
          {isGoogle ? <LuShieldCheck size="20" /> : <LuSmartphone size="20" />}
          <Text textStyle="sm">{isGoogle ? t('googleHint') : t('smsHint')}</Text>
        </HStack>
        <FormField label={isGoogle ? t('googleCodeLabel') : t('smsCodeLabel')} error={error}>
          {isGoogle ? (
            <CodeInput
              name="authCode"
              autoFocus
              placeholder={t('codePlaceholder')}
              value={code}
              onValueChange={(v) => {
                setCode(v)
                setError(undefined)
              }}
            />
          ) : (
            <CodeRow>
              <CodeInput
                name="authCode"
                autoFocus
                placeholder={t('codePlaceholder')}
                value={code}
                onValueChange={(v) => {
                  setCode(v)
                  setError(undefined)
                }}
              />
              <ResendButton t={t} onResend={onResend} />
            </CodeRow>
          )}
        </FormField>
        <Button type="submit" colorPalette="brand" size="lg" loading={submitting} width="full">
          {t('confirm')}
        </Button>
        <BackButton label={t('back')} onBack={onBack} disabled={submitting} />
      </Stack>
    </form>
  )
}

/** The SMS resend button; the server sent the first code, so it starts counting at once. */
function ResendButton({ t, onResend }: Pick<SecondFactorFormProps, 't' | 'onResend'>) {
  return (
    <SendCodeButton
      startRunning
      label={t('resend')}
      resendLabel={t('resend')}
      countdownLabel={(seconds) => t('resendIn', { seconds })}
      seconds={RESEND_SECONDS}
      onSend={async () => ({ ok: await onResend() })}
    />
  )
}

/** Back to the step before, on the sign-in's second steps. */
export function BackButton({ label, onBack, disabled }: { label: string; onBack: () => void; disabled: boolean }) {
  return (
    <Button variant="ghost" onClick={onBack} disabled={disabled}>
      <LuArrowLeft />
      {label}
    </Button>
  )
}
