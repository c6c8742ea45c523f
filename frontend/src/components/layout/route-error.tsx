import { Button, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { useTexts } from '@/lib/i18n'

/** Error boundary page of the router: explains, offers retry and home. */
export function RouteError({ reset }: ErrorComponentProps) {
  const { t } = useTexts('common')
  const router = useRouter()
  return (
    <Container maxW="lg" py={{ base: '16', md: '24' }} textAlign="center" role="alert">
      <Stack gap="4" align="center">
        <Heading as="h1" size="xl">
          {t('routeError.title')}
        </Heading>
        <Text color="fg.muted">{t('routeError.body')}</Text>
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
