import { Box, Button, Container, Heading, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { lazy, Suspense } from 'react'
import { LuLifeBuoy } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { RoutePending } from '@/components/layout/route-pending'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'
import { INFO_SLUGS, OPEN_API_SLUG, type ArticleSlug, type InfoSlug } from '../lib/info-slugs'

// The Open API page is long and has its own texts (content page 'openApi'):
// its code and its texts are chunks of their own, loaded when it is shown.
const OpenApiPage = lazy(() => import('./open-api-page').then((mod) => mod.loadOpenApiPage()))

/** One information page: the Open API documentation or a text page. */
export function InfoPage({ slug }: { slug: InfoSlug }) {
  if (slug === OPEN_API_SLUG) {
    return (
      <Suspense fallback={<RoutePending />}>
        <OpenApiPage />
      </Suspense>
    )
  }
  return <InfoArticle slug={slug} />
}

/** A text page; texts come from the content page 'info'. */
function InfoArticle({ slug }: { slug: ArticleSlug }) {
  const { t } = useTexts('info')
  const lan = getRawLanguage()
  return (
    <Container maxW="3xl" py={{ base: '10', md: '16' }}>
      <Stack as="article" gap="5" data-testid={`info-page-${slug}`}>
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }}>
          {t(`${slug}.title`)}
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          {t(`${slug}.lead`)}
        </Text>
        {(['p1', 'p2', 'p3'] as const).map((p) => (
          <Text key={p} lineHeight="tall">
            {t(`${slug}.${p}`)}
          </Text>
        ))}
        {(slug === 'request' || slug === 'support') && (
          // Signed-in users write to support from their profile (visitors sign in first).
          <Button asChild colorPalette="brand" alignSelf="flex-start" data-testid="info-ticket-link">
            <AppLink href={slug === 'request' ? '/profile/support/new' : '/profile/support'}>
              <LuLifeBuoy aria-hidden="true" />
              {t(slug === 'request' ? 'tickets.open' : 'tickets.mine')}
            </AppLink>
          </Button>
        )}
      </Stack>
      <Box as="nav" aria-labelledby="info-related" mt="14" pt="6" borderTopWidth="1px">
        <Heading as="h2" id="info-related" size="md" mb="3">
          {t('related')}
        </Heading>
        <SimpleGrid columns={{ base: 2, md: 3 }} gap="2">
          {INFO_SLUGS.filter((s) => s !== slug).map((other) => (
            <ChakraLink key={other} asChild color="fg.muted" textStyle="sm">
              <AppLink href={footerHref(`/${other}`, lan)}>{t(`${other}.title`)}</AppLink>
            </ChakraLink>
          ))}
        </SimpleGrid>
      </Box>
    </Container>
  )
}
