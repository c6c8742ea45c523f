import { ChakraProvider } from '@chakra-ui/react'
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { system } from '@/components/ui/theme'
import { PhoneInput } from './phone-input'

function Field() {
  const [number, setNumber] = useState('')
  return (
    <ChakraProvider value={system}>
      <PhoneInput
        id="phone"
        countryCode="976"
        number={number}
        onCountryCodeChange={() => {}}
        onNumberChange={setNumber}
        countryCodeLabel="Country code"
        placeholder="Phone number"
      />
    </ChakraProvider>
  )
}

describe('PhoneInput', () => {
  it('keeps the digits of a pasted number with spaces and brackets, then cuts to 14 (no maxLength cutting first)', () => {
    render(<Field />)
    const input = screen.getByPlaceholderText('Phone number') as HTMLInputElement
    // The browser applies maxLength before onChange sees the value; there must be none.
    expect(input.hasAttribute('maxlength')).toBe(false)
    fireEvent.change(input, { target: { value: '(8811) 22-33 44' } })
    expect(input.value).toBe('8811223344')
    fireEvent.change(input, { target: { value: '1234 5678 9012 3456' } })
    expect(input.value).toBe('12345678901234')
  })
})
