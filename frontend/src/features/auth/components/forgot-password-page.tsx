import { Button, Link, Stack, Steps, Text } from '@chakra-ui/react'
import { Link as RouterLink, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { LuArrowLeft } from 'react-icons/lu'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton } from '@/components/form/send-code-button'
import {
  isClean,
  validateCode,
  validateConfirmation,
  validateNewPassword,
  validationMessage,
} from '@/lib/account-validation'
import { formatPhone } from '@/lib/country-codes'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import {
  isSuccess,
  resetPasswordStepOne,
  resetPasswordStepThree,
  resetPasswordStepTwo,
  retryAfterOf,
} from '../api/auth-api'
import { setLoginPrefill } from '../prefill'
import { AccountFields, initialAccount, toAccountRef, validateAccount, type AccountState } from './account-fields'
import { AuthCard } from './auth-card'
import { NewPasswordFields } from './new-password-fields'
import { CodeRow } from './code-row'

type Step = 0 | 1 | 2
type Errors = Partial<Record<'account' | 'code' | 'password' | 'confirmation', string>>

/**
 * Forgot password in three steps: 1 the account (a code is sent), 2 the code
 * (exchanged for a reset token), 3 the new password. Every session of the
 * user ends on the server; the login form opens with the account filled in.
 */
export function ForgotPasswordPage() {
  const { t } = useTexts('forgotPassword')
  const navigate = useNavigate()
  const [step, setStep] = useState<Step>(0)
  const [account, setAccount] = useState<AccountState>(() => initialAccount())
  const [code, setCode] = useState('')
  const [resetToken, setResetToken] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)

  const clearError = (field: keyof Errors) => setErrors((e) => ({ ...e, [field]: undefined }))
  const titles = [t('step1Title'), t('step2Title'), t('step3Title')]
  const ref = toAccountRef(account)
  const target = ref.kind === 'email' ? ref.email : formatPhone(ref.countryCode, ref.mobileNumber)

  const withBusy = async (work: () => Promise<void>) => {
    setBusy(true)
    try {
      await work()
    } finally {
      setBusy(false)
    }
  }

  const submitAccount = (event: FormEvent) => {
    event.preventDefault()
    const message = validationMessage(t, validateAccount(account))
    setErrors({ account: message })
    if (message) return
    void withBusy(async () => {
      const envelope = await resetPasswordStepOne(ref)
      if (!isSuccess(envelope)) return
      notifySuccess(t('codeSent'))
      setCode('')
      setStep(1)
    })
  }

  const submitCode = (event: FormEvent) => {
    event.preventDefault()
    const message = validationMessage(t, validateCode(code))
    setErrors({ code: message })
    if (message) return
    void withBusy(async () => {
      const envelope = await resetPasswordStepTwo(ref, code)
      if (!isSuccess(envelope) || !envelope.data?.token) return
      setResetToken(envelope.data.token)
      setStep(2)
    })
  }

  const submitPassword = (event: FormEvent) => {
    event.preventDefault()
    const next: Errors = {
      password: validationMessage(t, validateNewPassword(password)),
      confirmation: validationMessage(t, validateConfirmation(password, confirmation)),
    }
    setErrors(next)
    if (!isClean(next)) return
    void withBusy(async () => {
      const envelope = await resetPasswordStepThree(resetToken, password)
      if (!isSuccess(envelope)) return
      setLoginPrefill(ref)
      notifySuccess(t('success'))
      await navigate({ to: '/auth/login' })
    })
  }

  return (
    <AuthCard
      title={t('title')}
      testId="forgot-password"
      footer={
        <Link asChild textStyle="sm" colorPalette="brand">
          <RouterLink to="/auth/login">{t('backToLogin')}</RouterLink>
        </Link>
      }
    >
      <Stack gap="6">
        <Steps.Root step={step} count={3} size="sm" colorPalette="brand" linear>
          <Steps.List>
            {titles.map((title, index) => (
              <Steps.Item key={index} index={index}>
                <Steps.Indicator />
                <Steps.Title hideBelow="md">{title}</Steps.Title>
                <Steps.Separator />
              </Steps.Item>
            ))}
          </Steps.List>
        </Steps.Root>
        <Stack gap="1">
          <Text textStyle="xs" color="fg.muted" data-testid="forgot-step">
            {t('stepOf', { step: step + 1 })}
          </Text>
          <Text fontWeight="semibold">{titles[step]}</Text>
        </Stack>

        {step === 0 && (
          <form noValidate onSubmit={submitAccount}>
            <Stack gap="5">
              <Text textStyle="sm" color="fg.muted">
                {t('step1Hint')}
              </Text>
              <AccountFields
                value={account}
                onChange={(v) => {
                  setAccount(v)
                  clearError('account')
                }}
                error={errors.account}
                t={t}
                disabled={busy}
              />
              <Button type="submit" colorPalette="brand" size="lg" loading={busy} width="full">
                {t('next')}
              </Button>
            </Stack>
          </form>
        )}

        {step === 1 && (
          <form noValidate onSubmit={submitCode}>
            <Stack gap="5">
              <Text textStyle="sm" color="fg.muted">
                {t('step2Hint', { target })}
              </Text>
              <FormField label={t('codeLabel')} error={errors.code}>
                <CodeRow>
                  <CodeInput
                    name="code"
                    autoFocus
                    placeholder={t('codePlaceholder')}
                    value={code}
                    onValueChange={(v) => {
                      setCode(v)
                      clearError('code')
                    }}
                  />
                  <SendCodeButton
                    startRunning
                    label={t('resend')}
                    resendLabel={t('resend')}
                    countdownLabel={(seconds) => t('resendIn', { seconds })}
                    onSend={async () => {
                      const envelope = await resetPasswordStepOne(ref)
                      if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
                      notifySuccess(t('codeSent'))
                      return { ok: true }
                    }}
                  />
                </CodeRow>
              </FormField>
              <Button type="submit" colorPalette="brand" size="lg" loading={busy} width="full">
                {t('next')}
              </Button>
              <Button variant="ghost" onClick={() => setStep(0)} disabled={busy}>
                <LuArrowLeft />
                {t('back')}
              </Button>
            </Stack>
          </form>
        )}

        {step === 2 && (
          <form noValidate onSubmit={submitPassword}>
            <Stack gap="5">
              <Text textStyle="sm" color="fg.muted">
                {t('step3Hint')}
              </Text>
              <NewPasswordFields
                texts={{
                  passwordLabel: t('newPasswordLabel'),
                  passwordPlaceholder: t('newPasswordPlaceholder'),
                  passwordHint: t('passwordHint'),
                  confirmLabel: t('confirmPasswordLabel'),
                  confirmPlaceholder: t('confirmPasswordPlaceholder'),
                  show: t('showPassword'),
                  hide: t('hidePassword'),
                  strengthLabel: (level) => t('strengthLabel', { level }),
                  strengthLevels: { weak: t('strengthWeak'), fair: t('strengthFair'), strong: t('strengthStrong') },
                  mismatch: t('passwordMismatch'),
                }}
                password={password}
                confirmation={confirmation}
                errors={errors}
                autoFocus
                onPasswordChange={(v) => {
                  setPassword(v)
                  clearError('password')
                }}
                onConfirmationChange={(v) => {
                  setConfirmation(v)
                  clearError('confirmation')
                }}
              />
              <Button type="submit" colorPalette="brand" size="lg" loading={busy} width="full">
                {t('submit')}
              </Button>
            </Stack>
          </form>
        )}
      </Stack>
    </AuthCard>
  )
}
