import { ChakraProvider } from '@chakra-ui/react'
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { system } from '@/components/ui/theme'
import { CodeInput } from './code-input'

function Field() {
  const [value, setValue] = useState('')
  return (
    <ChakraProvider value={system}>
      <CodeInput aria-label="Code" value={value} onValueChange={setValue} />
    </ChakraProvider>
  )
}

describe('CodeInput', () => {
  it('removes non-digits before cutting to six (no maxLength cutting first)', () => {
    render(<Field />)
    const input = screen.getByRole('textbox', { name: 'Code' }) as HTMLInputElement
    // The browser applies maxLength before onChange sees the value; there must be none.
    expect(input.hasAttribute('maxlength')).toBe(false)
    fireEvent.change(input, { target: { value: '12ab34cd56' } })
    expect(input.value).toBe('123456')
    fireEvent.change(input, { target: { value: ' 053216 ' } })
    expect(input.value).toBe('053216')
    fireEvent.change(input, { target: { value: '1234567890' } })
    expect(input.value).toBe('123456')
  })
})
