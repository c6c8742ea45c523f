import { Box, Container, Heading, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { AppLink } from '@/components/layout/app-link'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'

/** Information pages reached from the footer and the support menu (/{lan}/{slug}). */
export const INFO_SLUGS = [
  'about',
  'announcements',
  'careers',
  'terms',
  'privacy',
  'risk',
  'aml',
  'support',
  'request',
  'fees',
  'contact',
] as const
export type InfoSlug = (typeof INFO_SLUGS)[number]

/** True when `slug` names an information page. */
export function isInfoSlug(slug: string): slug is InfoSlug {
  return (INFO_SLUGS as readonly string[]).includes(slug)
}

/** One information page; texts come from the content page 'info'. */
export function InfoPage({ slug }: { slug: InfoSlug }) {
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
