import { Button, Container, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react'
import { Link } from '@tanstack/react-router'
import { LuArrowLeft, LuConstruction, LuTrophy } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'

/** /maintenance: futures trading is not live yet; every futures link except the competition lands here. */
export function MaintenancePage() {
  const { t } = useTexts('maintenance')
  return (
    <Container maxW="2xl" py={{ base: '14', md: '24' }}>
      <Stack gap="5" align="center" textAlign="center" data-testid="maintenance-page">
        <Icon as={LuConstruction} boxSize="16" color="orange.500" aria-hidden="true" />
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {t('title')}
        </Heading>
        <Text fontSize="lg">{t('body')}</Text>
        <Text color="fg.muted">{t('details')}</Text>
        <Text color="fg.muted">{t('competitionHint')}</Text>
        <HStack gap="3" wrap="wrap" justify="center" pt="2">
          <Button asChild colorPalette="brand">
            <Link to="/">
              <LuArrowLeft aria-hidden="true" />
              {t('back')}
            </Link>
          </Button>
          <Button asChild variant="outline">
            <AppLink href="/futureBonus">
              <LuTrophy aria-hidden="true" />
              {t('competition')}
            </AppLink>
          </Button>
          <Button asChild variant="ghost">
            <AppLink href="/market">{t('markets')}</AppLink>
          </Button>
        </HStack>
      </Stack>
    </Container>
  )
}
