import { chakra, Field, HStack, Input, Text, VisuallyHidden } from '@chakra-ui/react'
import { useState, type ReactNode } from 'react'
import { cleanNumberInput, finishedNumber } from '@/features/trade/lib/order-form'
import { futuresTexts } from '../lib/texts'

/** The text key (futures texts) that says why a typed number changed. */
function noticeKey(notice: 'chars' | 'places', places: number): string {
  if (notice === 'chars') return 'form.input.chars'
  return places === 0 ? 'form.input.whole' : places === 1 ? 'form.input.placesOne' : 'form.input.places'
}

/**
 * A number input of the futures forms, compact as the spot form's: the
 * label at the start of the box, the number at the end, the unit after it.
 * What is typed or pasted is cleaned (digits and one point, `places`
 * decimals; whole contracts take none) and a note under the field says why
 * when that changed it; the note is also read out through a live region.
 */
export function NumberField({
  label,
  value,
  onChange,
  unit,
  places,
  error,
  hint,
  end,
  testId,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  unit: string
  places: number
  error?: string
  hint?: ReactNode
  /** A small control inside the box before the unit (the price's "Last" button). */
  end?: ReactNode
  testId: string
}) {
  const { t } = futuresTexts.useTexts()
  const [notice, setNotice] = useState<{ value: string; key: string } | null>(null)
  const noticeText = notice && notice.value === value ? t(notice.key, { places }) : ''
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
          onChange={(e) => {
            const cleaned = cleanNumberInput(e.target.value, places)
            setNotice(cleaned.notice ? { value: cleaned.value, key: noticeKey(cleaned.notice, places) } : null)
            onChange(cleaned.value)
          }}
          onBlur={() => {
            if (finishedNumber(value) !== value) onChange(finishedNumber(value))
          }}
          fontVariantNumeric="tabular-nums"
        />
        {end}
        <Text fontSize="xs" color="fg.muted" flexShrink={0}>
          {unit}
        </Text>
      </HStack>
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
      {(noticeText || hint) && (
        <Field.HelperText data-testid={`${testId}-hint`} mt="0">
          {noticeText && (
            <chakra.span display="block" data-testid={`${testId}-notice`}>
              {noticeText}
            </chakra.span>
          )}
          {hint}
        </Field.HelperText>
      )}
      <VisuallyHidden aria-live="polite">{noticeText}</VisuallyHidden>
    </Field.Root>
  )
}
