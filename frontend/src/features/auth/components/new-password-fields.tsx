import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'

/** Texts the fields need, already translated by the page. */
export interface NewPasswordTexts {
  passwordLabel: string
  passwordPlaceholder: string
  passwordHint: string
  confirmLabel: string
  confirmPlaceholder: string
  show: string
  hide: string
}

export interface NewPasswordFieldsProps {
  texts: NewPasswordTexts
  password: string
  confirmation: string
  errors: { password?: string; confirmation?: string }
  onPasswordChange: (value: string) => void
  onConfirmationChange: (value: string) => void
  autoFocus?: boolean
}

/**
 * The new password and its confirmation, as registration and the third step
 * of the password reset ask for them (spec §8 rule and mismatch text are the
 * page's validation).
 */
export function NewPasswordFields({
  texts,
  password,
  confirmation,
  errors,
  onPasswordChange,
  onConfirmationChange,
  autoFocus,
}: NewPasswordFieldsProps) {
  return (
    <>
      <FormField label={texts.passwordLabel} error={errors.password} helper={texts.passwordHint}>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          autoFocus={autoFocus}
          placeholder={texts.passwordPlaceholder}
          showLabel={texts.show}
          hideLabel={texts.hide}
          value={password}
          onValueChange={onPasswordChange}
        />
      </FormField>
      <FormField label={texts.confirmLabel} error={errors.confirmation}>
        <PasswordInput
          name="confirmPassword"
          autoComplete="new-password"
          placeholder={texts.confirmPlaceholder}
          showLabel={texts.show}
          hideLabel={texts.hide}
          value={confirmation}
          onValueChange={onConfirmationChange}
        />
      </FormField>
    </>
  )
}
