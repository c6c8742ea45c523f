import { Box, HStack, Slider } from '@chakra-ui/react'

/** Marks of the percentage slider. */
export const PERCENT_MARKS = [0, 25, 50, 75, 100] as const

/**
 * The percentage slider of the order forms (spot: a share of the available
 * balance; futures: of the maximum), with marks at 0/25/50/75/100 %. Arrow
 * keys move it by 1 %, Page Up/Down by 10 %, Home/End to either end.
 * `testIds` names the slider, its value and each mark (`${mark}${m}`).
 */
export function PercentSlider({
  value,
  onChange,
  disabled,
  label,
  testIds,
}: {
  value: number
  onChange: (v: number) => void
  disabled: boolean
  label: string
  testIds: { root: string; value: string; mark: string }
}) {
  return (
    <Slider.Root
      size="sm"
      min={0}
      max={100}
      step={1}
      value={[value]}
      onValueChange={(e) => onChange(e.value[0] ?? 0)}
      disabled={disabled}
      colorPalette="brand"
      getAriaValueText={({ value: v }) => `${v}%`}
      data-testid={testIds.root}
    >
      <HStack justify="space-between">
        <Slider.Label fontSize="xs" color="fg.muted" fontWeight="normal">
          {label}
        </Slider.Label>
        <Slider.ValueText fontSize="xs" fontVariantNumeric="tabular-nums" data-testid={testIds.value}>
          {value}%
        </Slider.ValueText>
      </HStack>
      {/* Inset so that the end marks' labels stay inside the form. */}
      <Box px="2">
        <Slider.Control>
          <Slider.Track>
            <Slider.Range />
          </Slider.Track>
          <Slider.Thumbs />
          <Slider.MarkerGroup>
            {PERCENT_MARKS.map((m) => (
              <Slider.Marker key={m} value={m}>
                <Slider.MarkerIndicator />
                {/*
                  A tap on a mark's label sets that share exactly (the keys do so for keyboard users: Home, End, Page Up/Down).
                  It acts on the press and keeps it from the slider's control: the control would otherwise take the press
                  as a drag to the pointer's spot (26 % beside the 25 % label), and when that change moved the layout (an
                  error under a field going away) the label never got the click that corrects it.
                */}
                <Slider.MarkerLabel
                  pointerEvents={disabled ? 'none' : 'auto'}
                  cursor="pointer"
                  px="1"
                  rounded="sm"
                  fontVariantNumeric="tabular-nums"
                  color={m === value ? 'fg' : undefined}
                  _hover={{ color: 'fg' }}
                  onPointerDown={(e) => {
                    e.stopPropagation()
                    e.preventDefault()
                    if (!disabled) onChange(m)
                  }}
                  onClick={() => !disabled && onChange(m)}
                  data-testid={`${testIds.mark}${m}`}
                >
                  {m}%
                </Slider.MarkerLabel>
              </Slider.Marker>
            ))}
          </Slider.MarkerGroup>
        </Slider.Control>
      </Box>
    </Slider.Root>
  )
}
