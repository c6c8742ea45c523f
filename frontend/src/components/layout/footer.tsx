import { Box, Container, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useRouterState } from '@tanstack/react-router'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref, isFooterHidden } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'
import { AppLink } from './app-link'
import { useLinkResolver } from './link-target'
import { Logo } from './logo'

/** Footer columns; every link is prefixed with the language code (spec §2). */
export const FOOTER_COLUMNS = [
  { id: 'company', links: ['about', 'announcements', 'careers'] },
  { id: 'legal', links: ['terms', 'privacy', 'risk', 'aml'] },
  { id: 'support', links: ['help', 'request', 'fees', 'contact', 'api'] },
] as const

/** Path of a footer link before the language prefix. */
export function footerPath(link: string): string {
  return link === 'help' ? '/support' : `/${link}`
}

/** Site footer; hidden on login, register, trade, wallet, futureBonus and p2p paths. */
export function Footer() {
  const { t } = useTexts('footer')
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const resolve = useLinkResolver()
  if (isFooterHidden(pathname)) return null
  const lan = getRawLanguage()
  return (
    <Box as="footer" aria-label={t('label')} borderTopWidth="1px" bg="bg.subtle" data-testid="site-footer">
      <Container maxW="6xl" py={{ base: '10', md: '14' }}>
        <SimpleGrid columns={{ base: 1, sm: 2, md: 4 }} gap="8">
          <Stack gap="3">
            <Logo />
            <Text color="fg.muted" textStyle="sm">
              {t('tagline')}
            </Text>
          </Stack>
          {FOOTER_COLUMNS.map((column) => (
            <Stack key={column.id} gap="2" as="nav" aria-label={t(`columns.${column.id}`)}>
              <Text as="h2" fontWeight="semibold">
                {t(`columns.${column.id}`)}
              </Text>
              {column.links.map((link) => (
                <ChakraLink key={link} asChild color="fg.muted" textStyle="sm" _hover={{ color: 'fg' }}>
                  <AppLink href={resolve(footerHref(footerPath(link), lan))} data-testid={`footer-link-${link}`}>
                    {t(`links.${link}`)}
                  </AppLink>
                </ChakraLink>
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <Stack mt="10" pt="6" borderTopWidth="1px" gap="1" textStyle="xs" color="fg.muted">
          <Text>{t('riskWarning')}</Text>
          <Text>{t('copyright', { year: new Date().getFullYear() })}</Text>
        </Stack>
      </Container>
    </Box>
  )
}
