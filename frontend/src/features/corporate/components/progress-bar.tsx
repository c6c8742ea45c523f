import { Box } from '@chakra-ui/react'

/**
 * A thin progress bar (an ARIA progressbar). Chakra's Progress would do,
 * but using it from a lazily loaded page pulls every default recipe of
 * Chakra's theme into the first load (about 16 KB gzipped, measured with
 * the size budget), so the pages draw their own.
 */
export function ProgressBar({ value, label, colorPalette = 'brand', testId }: { value: number; label: string; colorPalette?: string; testId?: string }) {
  const v = Math.max(0, Math.min(100, Math.round(value)))
  return (
    <Box
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={v}
      h="1.5"
      w="full"
      rounded="full"
      bg="bg.emphasized"
      overflow="hidden"
      colorPalette={colorPalette}
      data-testid={testId}
    >
      <Box h="full" w={`${v}%`} bg="colorPalette.solid" rounded="full" transition="width 0.2s" />
    </Box>
  )
}
