import { Button, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useTexts } from '@/lib/i18n'
import { isNetworkError } from '@/lib/request-client'

/**
 * Whether a page failed because the exchange could not be reached: a
 * request with no answer, or the page's code that could not be fetched.
 */
export function isUnreachableError(error: unknown): boolean {
  if (isNetworkError(error)) return true
  return error instanceof TypeError && /failed to fetch|dynamically imported module|importing a module script/i.test(error.message)
}

/** Error boundary page of the router: explains, offers retry and home. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTexts('common')
  const router = useRouter()
  const unreachable = isUnreachableError(error)
  return (
    <Container maxW="lg" py={{ base: '16', md: '24' }} textAlign="center" role="alert">
      <Stack gap="4" align="center">
        <Heading as="h1" size="xl">
          {t(unreachable ? 'routeError.unreachableTitle' : 'routeError.title')}
        </Heading>
        <Text color="fg.muted">{t(unreachable ? 'routeError.unreachableBody' : 'routeError.body')}</Text>
        <HStack>
          <Button
            colorPalette="brand"
            onClick={() => {
              reset()
              void router.invalidate()
            }}
          >
            {t('retry')}
          </Button>
          <Button asChild variant="outline">
            <Link to="/">{t('backHome')}</Link>
          </Button>
        </HStack>
      </Stack>
    </Container>
  )
}
