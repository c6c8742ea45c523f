import { Button, Checkbox, HStack, Input, Link, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { CodeInput } from '@/components/form/code-input'
import { FormField } from '@/components/form/form-field'
import { SendCodeButton, type SendResult } from '@/components/form/send-code-button'
import {
  isClean,
  validateCode,
  validateConfirmation,
  validateNewPassword,
  validationMessage,
} from '@/lib/account-validation'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isChallenge, isSuccess, login, OPERATION, register, retryAfterOf, sendCode } from '../api/auth-api'
import { useCompleteSignIn } from '../use-sign-in'
import { setLoginPrefill } from '../prefill'
import { AccountFields, initialAccount, toAccountRef, validateAccount, type AccountState } from './account-fields'
import { AuthCard } from './auth-card'
import { NewPasswordFields } from './new-password-fields'
import { CodeRow } from './code-row'

type Errors = Partial<Record<'account' | 'code' | 'password' | 'confirmation' | 'agree', string>>

/**
 * /auth/register: e-mail or phone, a code sent to it (90 s resend
 * countdown), a password by the 8–32 letters-and-digits rule and its
 * confirmation, an optional invitation code and the terms. On success the
 * new account is signed in and lands home (or, when it cannot be signed in
 * here, the login form opens with the account filled in).
 */
export function RegisterPage() {
  const { t } = useTexts('register')
  const navigate = useNavigate()
  const complete = useCompleteSignIn(undefined)
  const [account, setAccount] = useState<AccountState>(() => initialAccount())
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [invitedCode, setInvitedCode] = useState('')
  const [agree, setAgree] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [submitting, setSubmitting] = useState(false)

  const clearError = (field: keyof Errors) => setErrors((e) => ({ ...e, [field]: undefined }))
  const lan = getRawLanguage()

  const onSendCode = async (): Promise<SendResult> => {
    const accountError = validationMessage(t, validateAccount(account))
    setErrors((e) => ({ ...e, account: accountError }))
    if (accountError) return { ok: false }
    const envelope = await sendCode(toAccountRef(account), OPERATION.register)
    if (!isSuccess(envelope)) return { ok: false, retryAfter: retryAfterOf(envelope) }
    notifySuccess(t('codeSent'))
    return { ok: true }
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const next: Errors = {
      account: validationMessage(t, validateAccount(account)),
      code: validationMessage(t, validateCode(code)),
      password: validationMessage(t, validateNewPassword(password)),
      confirmation: validationMessage(t, validateConfirmation(password, confirmation)),
      agree: agree ? undefined : t('agreeRequired'),
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const ref = toAccountRef(account)
      const envelope = await register({ account: ref, loginPword: password, code, invitedCode })
      if (!isSuccess(envelope)) return
      // The new account is signed in with what was just typed; only when
      // that cannot be done here (a second factor, a refusal) does the
      // login form open with the account filled in.
      const session = await login(ref, password, { silent: true })
      if (isSuccess(session) && !isChallenge(session.data)) {
        await complete(session.data.token, t('successSignedIn'))
        return
      }
      setLoginPrefill(ref)
      notifySuccess(t('success'))
      await navigate({ to: '/auth/login' })
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <AuthCard
      title={t('title')}
      subtitle={t('subtitle')}
      testId="register-form"
      footer={
        <HStack gap="1" textStyle="sm">
          <Text color="fg.muted">{t('haveAccount')}</Text>
          <Link asChild colorPalette="brand" fontWeight="semibold">
            <RouterLink to="/auth/login">{t('loginLink')}</RouterLink>
          </Link>
        </HStack>
      }
    >
      <form noValidate onSubmit={(e) => void onSubmit(e)}>
        <Stack gap="5">
          <AccountFields
            value={account}
            onChange={(v) => {
              setAccount(v)
              clearError('account')
            }}
            error={errors.account}
            t={t}
            disabled={submitting}
          />
          <FormField label={t('codeLabel')} error={errors.code}>
            <CodeRow>
              <CodeInput
                name="code"
                placeholder={t('codePlaceholder')}
                value={code}
                onValueChange={(v) => {
                  setCode(v)
                  clearError('code')
                }}
              />
              <SendCodeButton
                data-testid="send-code"
                label={t('sendCode')}
                resendLabel={t('resend')}
                countdownLabel={(seconds) => t('resendIn', { seconds })}
                onSend={onSendCode}
              />
            </CodeRow>
          </FormField>
          <NewPasswordFields
            texts={{
              passwordLabel: t('passwordLabel'),
              passwordPlaceholder: t('passwordPlaceholder'),
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
            onPasswordChange={(v) => {
              setPassword(v)
              clearError('password')
            }}
            onConfirmationChange={(v) => {
              setConfirmation(v)
              clearError('confirmation')
            }}
          />
          <FormField label={t('invitedCodeLabel')}>
            <Input
              name="invitedCode"
              maxLength={32}
              autoComplete="off"
              placeholder={t('invitedCodePlaceholder')}
              value={invitedCode}
              onChange={(e) => setInvitedCode(e.target.value.trim())}
            />
          </FormField>
          <Stack gap="1">
            <Checkbox.Root
              checked={agree}
              invalid={!!errors.agree}
              colorPalette="brand"
              alignItems="flex-start"
              onCheckedChange={(d) => {
                setAgree(d.checked === true)
                clearError('agree')
              }}
            >
              <Checkbox.HiddenInput name="agree" />
              <Checkbox.Control mt="0.5" />
              <Checkbox.Label textStyle="sm" fontWeight="normal">
                {t('agreePrefix')}{' '}
                <Link href={footerHref('/terms', lan)} target="_blank" rel="noopener" colorPalette="brand">
                  {t('terms')}
                </Link>{' '}
                {t('and')}{' '}
                <Link href={footerHref('/privacy', lan)} target="_blank" rel="noopener" colorPalette="brand">
                  {t('privacy')}
                </Link>
              </Checkbox.Label>
            </Checkbox.Root>
            {errors.agree && (
              <Text textStyle="sm" color="fg.error" role="alert">
                {errors.agree}
              </Text>
            )}
          </Stack>
          <Button type="submit" colorPalette="brand" size="lg" loading={submitting} width="full">
            {t('submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
