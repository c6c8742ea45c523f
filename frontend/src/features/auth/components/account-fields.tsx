import { Input, Stack, Tabs } from '@chakra-ui/react'
import { LuMail, LuSmartphone } from 'react-icons/lu'
import { FormField } from '@/components/form/form-field'
import { PhoneInput } from '@/components/form/phone-input'
import { validateEmail, validatePhone, type ValidationKey } from '@/lib/account-validation'
import { DEFAULT_COUNTRY_CODE } from '@/lib/country-codes'
import type { AccountRef } from '../api/auth-api'

/** The e-mail/phone choice of a sign-in form, with both values kept while switching tabs. */
export interface AccountState {
  kind: 'email' | 'phone'
  email: string
  countryCode: string
  mobileNumber: string
}

export function initialAccount(prefill?: AccountRef): AccountState {
  const base: AccountState = { kind: 'email', email: '', countryCode: DEFAULT_COUNTRY_CODE, mobileNumber: '' }
  if (prefill?.kind === 'email') return { ...base, email: prefill.email }
  if (prefill?.kind === 'phone')
    return { ...base, kind: 'phone', countryCode: prefill.countryCode, mobileNumber: prefill.mobileNumber }
  return base
}

export function toAccountRef(state: AccountState): AccountRef {
  return state.kind === 'email'
    ? { kind: 'email', email: state.email.trim() }
    : { kind: 'phone', countryCode: state.countryCode, mobileNumber: state.mobileNumber }
}

export function validateAccount(state: AccountState): ValidationKey | undefined {
  return state.kind === 'email' ? validateEmail(state.email) : validatePhone(state.countryCode, state.mobileNumber)
}

/** Props of {@link AccountFields}. */
export interface AccountFieldsProps {
  value: AccountState
  onChange: (value: AccountState) => void
  /** Message for the active field. */
  error?: string
  t: (key: string) => string
  disabled?: boolean
}

/** E-mail or phone tabs with the matching input (country code select + number for phones). */
export function AccountFields({ value, onChange, error, t, disabled }: AccountFieldsProps) {
  return (
    <Stack gap="4">
      <Tabs.Root
        value={value.kind}
        onValueChange={(d) => onChange({ ...value, kind: d.value === 'phone' ? 'phone' : 'email' })}
        variant="enclosed"
        fitted
        size="sm"
      >
        <Tabs.List>
          <Tabs.Trigger value="email" disabled={disabled}>
            <LuMail />
            {t('tabEmail')}
          </Tabs.Trigger>
          <Tabs.Trigger value="phone" disabled={disabled}>
            <LuSmartphone />
            {t('tabPhone')}
          </Tabs.Trigger>
        </Tabs.List>
      </Tabs.Root>
      {value.kind === 'email' ? (
        <FormField label={t('emailLabel')} error={error}>
          <Input
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            placeholder={t('emailPlaceholder')}
            value={value.email}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, email: e.target.value })}
          />
        </FormField>
      ) : (
        <FormField label={t('phoneLabel')} error={error}>
          <PhoneInput
            countryCode={value.countryCode}
            number={value.mobileNumber}
            countryCodeLabel={t('countryCodeLabel')}
            placeholder={t('phonePlaceholder')}
            invalid={!!error}
            onCountryCodeChange={(countryCode) => onChange({ ...value, countryCode })}
            onNumberChange={(mobileNumber) => onChange({ ...value, mobileNumber })}
          />
        </FormField>
      )}
    </Stack>
  )
}
