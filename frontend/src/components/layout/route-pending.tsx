import { Center, Spinner, Stack, Text } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'

/**
 * What a page shows while the router waits for it (the sign-in check of a
 * protected page, a page's code on a slow network): the layout stays, and
 * its body says it is loading instead of leaving the screen blank.
 */
export function RoutePending() {
  const { t } = useTexts('common')
  return (
    <Center py={{ base: '16', md: '24' }} data-testid="route-pending">
      <Stack align="center" gap="3" role="status" aria-live="polite">
        <Spinner size="lg" color="brand.solid" />
        <Text color="fg.muted">{t('loading')}</Text>
      </Stack>
    </Center>
  )
}
