import { Box, Card, Container, Heading, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'

/** Props of {@link AuthCard}. */
export interface AuthCardProps {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  footer?: ReactNode
  testId?: string
}

/** The centred card every sign-in screen sits in; full width on phones. */
export function AuthCard({ title, subtitle, children, footer, testId }: AuthCardProps) {
  return (
    <Box
      bgGradient="to-b"
      gradientFrom={{ base: 'brand.subtle', _dark: 'bg' }}
      gradientTo="bg"
      minH="full"
      py={{ base: '6', md: '16' }}
    >
      <Container maxW="md" px={{ base: '4', md: '6' }}>
        <Card.Root variant="elevated" size={{ base: 'md', md: 'lg' }} data-testid={testId}>
          <Card.Header>
            <Stack gap="1">
              <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
                {title}
              </Heading>
              {subtitle && (
                <Text color="fg.muted" textStyle="sm">
                  {subtitle}
                </Text>
              )}
            </Stack>
          </Card.Header>
          <Card.Body>{children}</Card.Body>
          {footer && <Card.Footer justifyContent="center">{footer}</Card.Footer>}
        </Card.Root>
      </Container>
    </Box>
  )
}
