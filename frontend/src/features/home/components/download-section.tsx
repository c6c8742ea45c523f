import { Box, Button, Container, Flex, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react'
import { FaApple, FaAndroid } from 'react-icons/fa'
import { LuSmartphone } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useTexts } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'

/** App download block and, for visitors, the closing sign-up call to action. */
export function DownloadSection() {
  const { t } = useTexts('home')
  const { isSignedIn } = useUserInfo()
  return (
    <Box as="section" aria-labelledby="download-title">
      <Container maxW="6xl" py={{ base: '12', md: '16' }}>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          gap="8"
          align="center"
          justify="space-between"
          borderWidth="1px"
          rounded="2xl"
          p={{ base: '6', md: '10' }}
          bg="brand.subtle"
        >
          <Stack gap="3" maxW="xl">
            <Heading as="h2" id="download-title" size="2xl">
              {t('download.title')}
            </Heading>
            <Text color="fg.muted">{t('download.body')}</Text>
            <HStack gap="3" wrap="wrap" pt="2">
              <Button asChild variant="solid" colorPalette="gray">
                <AppLink href="/download?platform=ios" data-testid="download-ios">
                  <FaApple aria-hidden="true" />
                  {t('download.ios')}
                </AppLink>
              </Button>
              <Button asChild variant="solid" colorPalette="gray">
                <AppLink href="/download?platform=android" data-testid="download-android">
                  <FaAndroid aria-hidden="true" />
                  {t('download.android')}
                </AppLink>
              </Button>
              <Button asChild variant="plain" colorPalette="brand">
                <AppLink href="/download">{t('download.more')}</AppLink>
              </Button>
            </HStack>
          </Stack>
          <Icon as={LuSmartphone} boxSize={{ base: '20', md: '32' }} color="brand.fg" aria-hidden="true" />
        </Flex>
        {!isSignedIn && (
          <Stack align="center" textAlign="center" gap="3" mt="14">
            <Heading as="h2" size="xl">
              {t('cta.title')}
            </Heading>
            <Text color="fg.muted">{t('cta.body')}</Text>
            <Button asChild size="lg" colorPalette="brand">
              <AppLink href="/auth/register">{t('cta.button')}</AppLink>
            </Button>
          </Stack>
        )}
      </Container>
    </Box>
  )
}
