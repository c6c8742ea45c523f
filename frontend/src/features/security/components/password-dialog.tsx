import { useState } from 'react'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import {
  isClean,
  validateConfirmation,
  validateGoogleCode,
  validateNewPassword,
  validateRequired,
  validationMessage,
} from '@/lib/account-validation'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { updatePassword } from '../api/security-api'
import { FormDialog } from './form-dialog'
import { GoogleCodeField } from './google-code-field'
import { useSecurityRefresh } from './use-security-refresh'

type Field = 'old' | 'password' | 'confirmation' | 'google'

/** Changing the login password; the server ends every other session. */
export function PasswordDialog({
  open,
  onOpenChange,
  t,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  t: TranslateFn
}) {
  const { user } = useUserInfo()
  const refresh = useSecurityRefresh()
  const needsGoogle = user?.googleStatus === 1
  const [values, setValues] = useState<Record<Field, string>>({ old: '', password: '', confirmation: '', google: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [submitting, setSubmitting] = useState(false)

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  const submit = async () => {
    const next = {
      old: validationMessage(t, validateRequired(values.old)),
      password: validationMessage(t, validateNewPassword(values.password)),
      confirmation: validationMessage(t, validateConfirmation(values.password, values.confirmation)),
      google: needsGoogle ? validationMessage(t, validateGoogleCode(values.google)) : undefined,
    }
    setErrors(next)
    if (!isClean(next)) return
    setSubmitting(true)
    try {
      const envelope = await updatePassword(values.old, values.password, needsGoogle ? values.google : undefined)
      if (!isSuccess(envelope)) return
      notifySuccess(t('passwordChanged'))
      await refresh()
      onOpenChange(false)
    } finally {
      setSubmitting(false)
    }
  }

  const passwordProps = { showLabel: t('showPassword'), hideLabel: t('hidePassword') }
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('changePasswordTitle')}
      onSubmit={() => void submit()}
      submitting={submitting}
      submitLabel={t('confirm')}
      cancelLabel={t('cancel')}
      testId="password-dialog"
    >
      <FormField label={t('oldPasswordLabel')} error={errors.old}>
        <PasswordInput
          name="loginPword"
          autoComplete="current-password"
          value={values.old}
          onValueChange={set('old')}
          {...passwordProps}
        />
      </FormField>
      <FormField label={t('newPasswordLabel')} error={errors.password} helper={t('passwordHint')}>
        <PasswordInput
          name="newLoginPword"
          autoComplete="new-password"
          value={values.password}
          onValueChange={set('password')}
          {...passwordProps}
        />
      </FormField>
      <FormField label={t('confirmPasswordLabel')} error={errors.confirmation}>
        <PasswordInput
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmation}
          onValueChange={set('confirmation')}
          {...passwordProps}
        />
      </FormField>
      {needsGoogle && <GoogleCodeField t={t} value={values.google} onChange={set('google')} error={errors.google} />}
    </FormDialog>
  )
}
