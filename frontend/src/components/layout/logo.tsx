import { Box, HStack, Text } from '@chakra-ui/react'
import { useColorMode } from '@/components/ui/color-mode'

/** The Tenger logo; the light variant has dark lettering, the dark variant light lettering. */
export function Logo({ height = 7 }: { height?: number }) {
  const { colorMode } = useColorMode()
  const variant = colorMode === 'dark' ? 'dark' : 'light'
  return (
    <HStack gap="2" data-testid={`logo-${variant}`} data-variant={variant} aria-hidden="true">
      <Box as="span" display="inline-flex" boxSize={height}>
        <svg viewBox="0 0 32 32" width="100%" height="100%" role="presentation">
          <rect width="32" height="32" rx="8" fill={variant === 'dark' ? '#3f83f8' : '#0b63e5'} />
          <path d="M7 10h18v3h-7.5v12h-3V13H7z" fill="#fff" />
        </svg>
      </Box>
      <Text
        as="span"
        fontWeight="extrabold"
        letterSpacing="wider"
        fontSize="lg"
        color={variant === 'dark' ? 'white' : 'gray.900'}
      >
        TENGER
      </Text>
    </HStack>
  )
}
