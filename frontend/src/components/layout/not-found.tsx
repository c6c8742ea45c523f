import { Button, Container, Heading, Stack, Text } from '@chakra-ui/react'
import { Link } from '@tanstack/react-router'
import { useTexts } from '@/lib/i18n'

/** 404 page for unknown paths. */
export function NotFound() {
  const { t } = useTexts('common')
  return (
    <Container maxW="lg" py={{ base: '16', md: '24' }} textAlign="center">
      <Stack gap="4" align="center">
        <Text fontSize="5xl" fontWeight="bold" color="brand.fg">
          {t('notFound.code')}
        </Text>
        <Heading as="h1" size="xl">
          {t('notFound.title')}
        </Heading>
        <Text color="fg.muted">{t('notFound.body')}</Text>
        <Button asChild colorPalette="brand">
          <Link to="/">{t('backHome')}</Link>
        </Button>
      </Stack>
    </Container>
  )
}
