import { Box, HStack, Text } from '@chakra-ui/react'
import { FormField } from '@/components/form/form-field'
import { PasswordInput } from '@/components/form/password-input'
import { passwordStrength, typedMismatch, type PasswordStrength } from '@/lib/account-validation'

/** Texts the fields need, already translated by the page. */
export interface NewPasswordTexts {
  passwordLabel: string
  passwordPlaceholder: string
  passwordHint: string
  confirmLabel: string
  confirmPlaceholder: string
  show: string
  hide: string
  /** "Password strength: {level}" and the three levels. */
  strengthLabel: (level: string) => string
  strengthLevels: Record<Exclude<PasswordStrength, 'none'>, string>
  /** The mismatch text, shown as the confirmation is typed. */
  mismatch: string
}

const STRENGTH_BARS: Record<PasswordStrength, { filled: number; color: string }> = {
  none: { filled: 0, color: 'border' },
  weak: { filled: 1, color: 'red.solid' },
  fair: { filled: 2, color: 'orange.solid' },
  strong: { filled: 3, color: 'green.solid' },
}

/** Three bars and the level's name, updated as the password is typed. */
function StrengthMeter({ level, texts }: { level: PasswordStrength; texts: NewPasswordTexts }) {
  if (level === 'none') return null
  const { filled, color } = STRENGTH_BARS[level]
  const label = texts.strengthLabel(texts.strengthLevels[level])
  return (
    <HStack gap="2" data-testid="password-strength" data-level={level} aria-live="polite">
      <HStack gap="1" flex="1" maxW="40" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <Box key={i} h="1" flex="1" rounded="full" bg={i < filled ? color : 'border'} />
        ))}
      </HStack>
      <Text textStyle="xs" color="fg.muted">
        {label}
      </Text>
    </HStack>
  )
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
 * page's validation). As they are typed, the password's strength shows
 * under it and a confirmation that can no longer match is marked.
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
  const mismatch = errors.confirmation ?? (typedMismatch(password, confirmation) ? texts.mismatch : undefined)
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
      <StrengthMeter level={passwordStrength(password)} texts={texts} />
      <FormField label={texts.confirmLabel} error={mismatch}>
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
