import { Button, HStack, Input, InputGroup, Text } from '@chakra-ui/react'
import { useId } from 'react'
import { FormField } from '@/components/form/form-field'
import { sanitizeAmount } from '@/lib/decimal'

/** Props of {@link AmountField}. */
export interface AmountFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  coin: string
  /** Why the amount cannot be sent: marks the field and is read with it. */
  error?: string
  /** The Max shortcut: its text, its accessible name and what it does. */
  maxText: string
  maxLabel: string
  onMax: () => void
  maxDisabled?: boolean
  testId: string
}

/**
 * The amount of the savings dialogs: the shared labelled field (FormField)
 * with the coin and a Max shortcut inside the box. What is typed keeps only
 * digits and one decimal point (spec §5's amount rule, as the wallet's
 * fields do); every other rule (above 0, the coin's decimals, the limits) is
 * checked as it is typed and said under the field, which is marked invalid.
 */
export function AmountField({ label, value, onChange, coin, error, maxText, maxLabel, onMax, maxDisabled, testId }: AmountFieldProps) {
  const errorId = useId()
  return (
    <FormField label={label} error={error} errorId={errorId}>
      <InputGroup
        endElementProps={{ pe: '2' }}
        endElement={
          <HStack gap="1.5">
            <Button size="xs" variant="ghost" colorPalette="brand" aria-label={maxLabel} disabled={maxDisabled} onClick={onMax} data-testid={`${testId}-max`}>
              {maxText}
            </Button>
            <Text fontSize="sm" color="fg.muted">
              {coin}
            </Text>
          </HStack>
        }
      >
        <Input
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          pe="8.5rem"
          value={value}
          onChange={(e) => onChange(sanitizeAmount(e.target.value))}
          // The message under the field is read with it.
          aria-describedby={error ? errorId : undefined}
          fontVariantNumeric="tabular-nums"
          data-testid={testId}
        />
      </InputGroup>
    </FormField>
  )
}
