import { HStack, Input, NativeSelect } from '@chakra-ui/react'
import { useId } from 'react'
import { digitsOnly } from '@/lib/account-validation'
import { COUNTRY_CODES } from '@/lib/country-codes'

/** Props of {@link PhoneInput}. */
export interface PhoneInputProps {
  countryCode: string
  number: string
  onCountryCodeChange: (code: string) => void
  onNumberChange: (number: string) => void
  countryCodeLabel: string
  placeholder?: string
  /** id of the number input, so a Field label can point at it. */
  id?: string
  name?: string
  invalid?: boolean
}

/** Country calling code select plus a digits-only national number (the API takes the code without '+'). */
export function PhoneInput({
  countryCode,
  number,
  onCountryCodeChange,
  onNumberChange,
  countryCodeLabel,
  placeholder,
  id,
  name = 'mobileNumber',
  invalid,
}: PhoneInputProps) {
  // The select gets its own id: inside a Field both controls would otherwise
  // take the field's id, and the field label belongs to the number.
  const selectId = useId()
  return (
    <HStack gap="2" width="full" align="stretch">
      <NativeSelect.Root width="9.5rem" flexShrink={0}>
        <NativeSelect.Field
          id={selectId}
          aria-label={countryCodeLabel}
          name="countryCode"
          value={countryCode}
          onChange={(e) => onCountryCodeChange(e.currentTarget.value)}
        >
          {COUNTRY_CODES.map((c) => (
            <option key={`${c.iso}-${c.code}`} value={c.code}>
              +{c.code} {c.iso}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Input
        id={id}
        name={name}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder={placeholder}
        aria-invalid={invalid || undefined}
        value={number}
        onChange={(e) => onNumberChange(digitsOnly(e.target.value, 14))}
      />
    </HStack>
  )
}
