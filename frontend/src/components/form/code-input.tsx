import { Input, type InputProps } from '@chakra-ui/react'
import { CODE_LENGTH, digitsOnly } from '@/lib/account-validation'

/** Props of {@link CodeInput}. */
export interface CodeInputProps extends Omit<InputProps, 'onChange' | 'value'> {
  value: string
  onValueChange: (value: string) => void
}

/**
 * A verification code input: digits only, at most six, with the numeric
 * keyboard on phones and one-time-code autofill. There is no maxLength: the
 * browser would cut a typed or pasted value to six characters before the
 * non-digits are removed (' 053216 ' would give '05321'), so the value is
 * stripped to digits first and then cut to six.
 */
export function CodeInput({ value, onValueChange, ...rest }: CodeInputProps) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="one-time-code"
      letterSpacing="0.2em"
      _placeholder={{ letterSpacing: 'normal' }}
      {...rest}
      value={value}
      onChange={(e) => onValueChange(digitsOnly(e.target.value, CODE_LENGTH))}
    />
  )
}
