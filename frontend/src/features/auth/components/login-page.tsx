import { Alert, Button, HStack, Link, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import { validateRequired, validationMessage } from '@/lib/account-validation'
import { useTexts } from '@/lib/i18n'
import { failureText } from '@/lib/request-client'
import { isChallenge, isSuccess, login, type LoginChallenge } from '../api/auth-api'
import { clearLoginPrefill, peekLoginPrefill } from '../prefill'
import { useCompleteSignIn } from '../use-sign-in'
import { AccountFields, initialAccount, toAccountRef, validateAccount, type AccountState } from './account-fields'
import { AuthCard } from './auth-card'
import { AuthenticatorResetForm } from './authenticator-reset-form'
import { SecondFactorForm } from './second-factor-form'

/** Props of {@link LoginPage}. */
export interface LoginPageProps {
  /** The raw ?redirect= value; sanitised before use. */
  redirect?: unknown
}

/**
 * /auth/login: e-mail or phone with password; when the account has the
 * Google authenticator or the SMS check on, a second step asks for the code.
 * On success the user lands on the ?redirect= path (same-site only) or home.
 */
export function LoginPage({ redirect }: LoginPageProps) {
  const { t } = useTexts('login')
  const [account, setAccount] = useState<AccountState>(() => initialAccount(peekLoginPrefill()))
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({})
  // A refusal of the credentials, shown in the form rather than a toast.
  const [refusal, setRefusal] = useState<string>()
  const [submitting, setSubmitting] = useState(false)
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null)
  const [resetting, setResetting] = useState(false)

  useEffect(() => clearLoginPrefill(), [])

  const complete = useCompleteSignIn(redirect)
  const finish = (token: string) => complete(token, t('success'))

  /** Submits the credentials; resolves the challenge (if any) for resends. */
  const submitCredentials = async (): Promise<LoginChallenge | null> => {
    const envelope = await login(toAccountRef(account), password, { silent: true })
    if (!isSuccess(envelope)) {
      setRefusal(failureText(envelope))
      return null
    }
    if (isChallenge(envelope.data)) {
      setChallenge(envelope.data)
      return envelope.data
    }
    await finish(envelope.data.token)
    return null
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const next = {
      account: validationMessage(t, validateAccount(account)),
      password: validationMessage(t, validateRequired(password)),
    }
    setErrors(next)
    if (next.account || next.password) return
    setSubmitting(true)
    try {
      await submitCredentials()
    } finally {
      setSubmitting(false)
    }
  }

  if (challenge && resetting) {
    return (
      <AuthCard title={t('resetTitle')} testId="login-reset-authenticator">
        <AuthenticatorResetForm challenge={challenge} t={t} onBack={() => setResetting(false)} onSignedIn={(token) => complete(token, t('resetDone'))} />
      </AuthCard>
    )
  }

  if (challenge) {
    return (
      <AuthCard title={t('verifyTitle')} testId="login-verify">
        <SecondFactorForm
          challenge={challenge}
          t={t}
          onBack={() => setChallenge(null)}
          onResend={async () => !!(await submitCredentials())}
          onSignedIn={finish}
        />
        {challenge.type === 'google' && (
          <Link as="button" textStyle="sm" colorPalette="brand" mt="4" onClick={() => setResetting(true)} data-testid="lost-authenticator">
            {t('lostAuthenticator')}
          </Link>
        )}
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title={t('title')}
      subtitle={t('subtitle')}
      testId="login-form"
      footer={
        <HStack gap="1" textStyle="sm">
          <Text color="fg.muted">{t('noAccount')}</Text>
          <Link asChild colorPalette="brand" fontWeight="semibold">
            <RouterLink to="/auth/register">{t('registerLink')}</RouterLink>
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
              setErrors((e) => ({ ...e, account: undefined }))
              setRefusal(undefined)
            }}
            error={errors.account}
            t={t}
            disabled={submitting}
          />
          <FormField label={t('passwordLabel')} error={errors.password}>
            <PasswordInput
              name="password"
              autoComplete="current-password"
              placeholder={t('passwordPlaceholder')}
              showLabel={t('showPassword')}
              hideLabel={t('hidePassword')}
              value={password}
              onValueChange={(v) => {
                setPassword(v)
                setErrors((e) => ({ ...e, password: undefined }))
                setRefusal(undefined)
              }}
            />
          </FormField>
          {refusal && (
            <Alert.Root status="error" size="sm" data-testid="login-refusal" aria-live="assertive">
              <Alert.Indicator />
              <Alert.Title>{refusal}</Alert.Title>
            </Alert.Root>
          )}
          <HStack justify="flex-end" mt="-2">
            <Link asChild textStyle="sm" colorPalette="brand">
              <RouterLink to="/auth/forgot-password">{t('forgotPassword')}</RouterLink>
            </Link>
          </HStack>
          <Button type="submit" colorPalette="brand" size="lg" loading={submitting} width="full">
            {t('submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  )
}
