import { Badge, Box, Button, Container, Heading, HStack, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react'
import { LuArrowRight } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'

/** Market figures shown under the hero once the server lists markets. */
export interface HeroFigures {
  pairCount: number
  coinCount: number
  /** Route symbol of the first listed pair, the target of "Start trading". */
  firstSymbol?: string
}

/** Home hero: headline, sign-up or trade calls to action and a few live figures. */
export function Hero({ figures }: { figures?: HeroFigures }) {
  const { t } = useTexts('home')
  const { user, isSignedIn } = useUserInfo()
  const firstPair = figures?.firstSymbol ?? 'BTC_USDT'
  const name = user?.nickName || user?.firstName
  // Figures appear only once the server lists markets; no stand-in numbers.
  const counts = figures && figures.pairCount > 0 ? figures : undefined
  return (
    <Box
      as="section"
      aria-labelledby="hero-title"
      bgGradient="to-br"
      gradientFrom={{ base: 'brand.50', _dark: 'brand.950' }}
      gradientTo={{ base: 'bg', _dark: 'bg' }}
      borderBottomWidth="1px"
    >
      <Container maxW="6xl" py={{ base: '12', md: '20' }}>
        <Stack gap="6" maxW="3xl">
          <Badge alignSelf="start" colorPalette="brand" variant="subtle" size="lg">
            {isSignedIn ? t('hero.welcome', { name: name ? `, ${name}` : '' }) : t('hero.eyebrow')}
          </Badge>
          <Heading as="h1" id="hero-title" size={{ base: '3xl', md: '5xl' }} lineHeight="1.1">
            {t('hero.title')}
          </Heading>
          <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted">
            {t('hero.subtitle')}
          </Text>
          <HStack gap="3" wrap="wrap">
            {isSignedIn ? (
              <Button asChild size="lg" colorPalette="brand">
                <AppLink href={`/trade/${firstPair}`} data-testid="hero-trade">
                  {t('hero.trade')}
                  <LuArrowRight aria-hidden="true" />
                </AppLink>
              </Button>
            ) : (
              <>
                <Button asChild size="lg" colorPalette="brand">
                  <AppLink href="/auth/register" data-testid="hero-signup">
                    {t('hero.signUp')}
                    <LuArrowRight aria-hidden="true" />
                  </AppLink>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <AppLink href="/auth/login" data-testid="hero-login">
                    {t('hero.login')}
                  </AppLink>
                </Button>
              </>
            )}
            <Button asChild size="lg" variant="ghost">
              <a href="#markets">{t('hero.markets')}</a>
            </Button>
          </HStack>
        </Stack>
        <SimpleGrid columns={{ base: 3 }} gap="4" mt="12" maxW="xl">
          {counts && (
            <>
              <Stat.Root>
                <Stat.Label>{t('hero.stats.pairs')}</Stat.Label>
                <Stat.ValueText data-testid="stat-pairs">{counts.pairCount}</Stat.ValueText>
              </Stat.Root>
              <Stat.Root>
                <Stat.Label>{t('hero.stats.coins')}</Stat.Label>
                <Stat.ValueText>{counts.coinCount}</Stat.ValueText>
              </Stat.Root>
            </>
          )}
          <Stat.Root>
            <Stat.Label>{t('hero.stats.support')}</Stat.Label>
            <Stat.ValueText>{t('hero.stats.supportValue')}</Stat.ValueText>
          </Stat.Root>
        </SimpleGrid>
      </Container>
    </Box>
  )
}
