import { chakra, Field, HStack, Input, Text, VisuallyHidden } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import type { TranslateFn } from '@/lib/i18n'
import { useNumberInput } from '@/lib/number-input'

/** Props of {@link NumberField}. */
export interface NumberFieldProps {
  label: string
  value: string
  onChange: (v: string) => void
  /** The coin or unit after the number. */
  unit: string
  /** Decimals the field keeps (0: whole numbers, with a numeric keyboard on phones). */
  places: number
  error?: string
  /** A muted note under the field (read out with it). */
  hint?: ReactNode
  /** A small control inside the box before the unit (the futures price's "Last" button). */
  end?: ReactNode
  testId: string
  /** The texts the notice is in: a catalogue with form.input.* keys (the trade and futures texts). */
  t: TranslateFn
}

/**
 * A number input of the order forms (spot and futures), compact as on the
 * big exchanges: its label at the start of the box, the number at the end
 * and the unit after it. It never holds an invalid number: what is typed or
 * pasted is cleaned (digits and one point, the field's decimals), and when
 * that changed it a short note under the field says why ("Only digits and
 * one decimal point", "At most 2 decimals"). The note stays while the value
 * is the one it explains and goes with the next change; it is the field's
 * helper text (so the input is described by it) and is also read out at
 * once through a live region that is always there (one added with its
 * words is not reliably announced).
 */
export function NumberField({ label, value, onChange, unit, places, error, hint, end, testId, t }: NumberFieldProps) {
  const { noticeText, onInput, onBlur } = useNumberInput(value, places, onChange, t)
  return (
    <Field.Root invalid={!!error} gap="1">
      <HStack
        w="full"
        h="9"
        px="2.5"
        gap="2"
        borderWidth="1px"
        borderColor={error ? 'border.error' : 'border'}
        rounded="l2"
        _focusWithin={{ borderColor: error ? 'border.error' : 'brand.focusRing', outline: '1px solid', outlineColor: error ? 'border.error' : 'brand.focusRing' }}
      >
        <Field.Label fontSize="xs" color="fg.muted" fontWeight="normal" flexShrink={0} whiteSpace="nowrap" m="0">
          {label}
        </Field.Label>
        <Input
          unstyled
          flex="1"
          minW="0"
          h="full"
          bg="transparent"
          outline="none"
          textAlign="end"
          fontSize="sm"
          inputMode={places === 0 ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={value}
          data-testid={testId}
          onChange={(e) => onInput(e.target.value)}
          onBlur={onBlur}
          fontVariantNumeric="tabular-nums"
        />
        {end}
        <Text fontSize="xs" color="fg.muted" flexShrink={0}>
          {unit}
        </Text>
      </HStack>
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
      {(noticeText || hint) && (
        <Field.HelperText data-testid={`${testId}-hint`}>
          {noticeText && (
            <chakra.span display="block" data-testid={`${testId}-notice`}>
              {noticeText}
            </chakra.span>
          )}
          {hint}
        </Field.HelperText>
      )}
      <VisuallyHidden aria-live="polite" data-testid={`${testId}-notice-live`}>
        {noticeText}
      </VisuallyHidden>
    </Field.Root>
  )
}
