import { Button, HStack, Input, InputGroup, Text } from '@chakra-ui/react'
import { useId, type ReactNode } from 'react'
import { FormField } from '@/components/form/form-field'
import { sanitizeAmount } from '@/lib/decimal'

/** Props of {@link AmountInput}. */
export interface AmountInputProps {
  label: string
  value: string
  onChange: (value: string) => void
  coin: string
  /** Why the amount cannot be sent: marks the field and is read with it. */
  error?: string
  /** A note under the field when there is no error. */
  helper?: ReactNode
  /** A shortcut inside the box before the coin (Max, Required): its text, accessible name and action. */
  action?: { text: string; label: string; onClick: () => void; disabled?: boolean; testId: string }
  testId: string
}

/**
 * An amount of the crypto cash forms: the shared labelled field (FormField)
 * with the coin, and optionally a shortcut, inside the box. What is typed
 * keeps only digits and one decimal point (spec §5's amount rule); the other
 * rules are checked as it is typed and said under the field, which is
 * marked invalid and names the message in its description.
 */
export function AmountInput({ label, value, onChange, coin, error, helper, action, testId }: AmountInputProps) {
  const errorId = useId()
  return (
    <FormField label={label} error={error} errorId={errorId} helper={helper}>
      <InputGroup
        endElementProps={{ pe: '2' }}
        endElement={
          <HStack gap="1.5">
            {action ? (
              <Button size="xs" variant="ghost" colorPalette="brand" aria-label={action.label} disabled={action.disabled} onClick={action.onClick} data-testid={action.testId}>
                {action.text}
              </Button>
            ) : null}
            <Text fontSize="sm" color="fg.muted">
              {coin}
            </Text>
          </HStack>
        }
      >
        <Input
          inputMode="decimal"
          autoComplete="off"
          pe={action ? '9.5rem' : '4rem'}
          value={value}
          onChange={(e) => onChange(sanitizeAmount(e.target.value))}
          // The message under the field is read with it (Chakra's field gives the input only aria-errormessage).
          {...(error ? { 'aria-describedby': errorId } : {})}
          fontVariantNumeric="tabular-nums"
          data-testid={testId}
        />
      </InputGroup>
    </FormField>
  )
}
