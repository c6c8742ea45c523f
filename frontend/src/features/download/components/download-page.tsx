import { Box, Button, Card, Container, Heading, List, QrCode, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { FaAndroid, FaApple } from 'react-icons/fa'
import { LuCheck, LuCopy } from 'react-icons/lu'
import { useTexts } from '@/lib/i18n'

/** Platform section opened from the home download buttons (?platform=). */
export type Platform = 'ios' | 'android'

/** /download: install the web app on a phone (QR code to this site, steps per platform). */
export function DownloadPage({ platform }: { platform?: Platform }) {
  const { t } = useTexts('download')
  const url = typeof window !== 'undefined' ? window.location.origin : ''
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied(true)
      // Copy buttons show a checkmark for 3 seconds (spec §4).
      window.setTimeout(() => setCopied(false), 3000)
    } catch {
      setCopied(false)
    }
  }
  const platforms: { id: Platform; icon: React.ReactNode }[] = [
    { id: 'ios', icon: <FaApple aria-hidden="true" /> },
    { id: 'android', icon: <FaAndroid aria-hidden="true" /> },
  ]
  return (
    <Container maxW="5xl" py={{ base: '10', md: '16' }}>
      <Stack gap="3" maxW="2xl" mb="10">
        <Heading as="h1" size={{ base: '2xl', md: '4xl' }}>
          {t('title')}
        </Heading>
        <Text fontSize="lg" color="fg.muted">
          {t('lead')}
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="6">
        <Card.Root>
          <Card.Body alignItems="center" textAlign="center" gap="3">
            <Card.Title as="h2">{t('qrTitle')}</Card.Title>
            <QrCode.Root value={url} size="xl" aria-label={t('qrLabel', { url })} role="img" bg="white" p="2" rounded="md">
              <QrCode.Frame>
                <QrCode.Pattern />
              </QrCode.Frame>
            </QrCode.Root>
            <Text textStyle="sm" color="fg.muted">
              {t('qrBody')}
            </Text>
            <Button size="sm" variant="outline" onClick={() => void copy()} aria-live="polite">
              {copied ? <LuCheck aria-hidden="true" /> : <LuCopy aria-hidden="true" />}
              {copied ? t('copied') : t('copyLink')}
            </Button>
          </Card.Body>
        </Card.Root>
        {platforms.map((p) => (
          <Card.Root
            key={p.id}
            id={p.id}
            borderColor={platform === p.id ? 'brand.solid' : undefined}
            borderWidth={platform === p.id ? '2px' : undefined}
            data-testid={`download-${p.id}-steps`}
          >
            <Card.Body gap="3">
              <Card.Title as="h2" display="flex" alignItems="center" gap="2">
                {p.icon}
                {t(`${p.id}.title`)}
              </Card.Title>
              <List.Root as="ol" gap="2" ps="5">
                {(['step1', 'step2', 'step3'] as const).map((s) => (
                  <List.Item key={s}>{t(`${p.id}.${s}`)}</List.Item>
                ))}
              </List.Root>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
      <Box mt="12">
        <Heading as="h2" size="lg" mb="3">
          {t('benefits.title')}
        </Heading>
        <List.Root gap="2" variant="plain">
          {(['alerts', 'secure', 'light'] as const).map((b) => (
            <List.Item key={b} alignItems="center">
              <List.Indicator asChild color="green.500">
                <LuCheck />
              </List.Indicator>
              {t(`benefits.${b}`)}
            </List.Item>
          ))}
        </List.Root>
      </Box>
    </Container>
  )
}
