import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react'
import { useState } from 'react'
import { LuEye, LuEyeOff } from 'react-icons/lu'

/** Props of {@link PasswordInput}. */
export interface PasswordInputProps extends Omit<InputProps, 'type' | 'onChange' | 'value'> {
  value: string
  onValueChange: (value: string) => void
  /** Accessible names of the visibility toggle. */
  showLabel: string
  hideLabel: string
}

/** A password input with a show/hide toggle. */
export function PasswordInput({ value, onValueChange, showLabel, hideLabel, ...rest }: PasswordInputProps) {
  const [visible, setVisible] = useState(false)
  return (
    <InputGroup
      endElement={
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={visible ? hideLabel : showLabel}
          onClick={() => setVisible((v) => !v)}
          me="-2"
        >
          {visible ? <LuEyeOff /> : <LuEye />}
        </IconButton>
      }
    >
      <Input
        {...rest}
        type={visible ? 'text' : 'password'}
        value={value}
        maxLength={rest.maxLength ?? 64}
        onChange={(e) => onValueChange(e.target.value)}
      />
    </InputGroup>
  )
}
