import { Flex } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/**
 * A verification code input with its send/resend button on one row that
 * wraps: the input keeps at least 9rem, and when the countdown label is too
 * long for the rest of the row (mn_MN "85 секундын дараа дахин илгээх" on a
 * 390 px phone) the button moves under the input at full width instead of
 * running past the card's edge and squeezing the input.
 */
export function CodeRow({ children }: { children: ReactNode }) {
  return (
    <Flex
      width="full"
      gap="2"
      flexWrap="wrap"
      data-testid="code-row"
      css={{
        '& > input': { flex: '1 1 9rem', minWidth: 0 },
        '& > button': { flex: '1 0 auto', maxWidth: '100%' },
      }}
    >
      {children}
    </Flex>
  )
}
