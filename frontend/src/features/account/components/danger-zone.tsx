import { Box, Button, Card, HStack, Icon, Stack, Text } from '@chakra-ui/react'
import { Link } from '@tanstack/react-router'
import { LuLogOut } from 'react-icons/lu'
import { accountTexts } from '../lib/texts'

/** The bottom of the security page: closing the account, on its own page. */
export function DangerZone() {
  const { t } = accountTexts.useTexts()
  return (
    <Card.Root borderColor="border.error" data-testid="danger-zone" as="section" aria-labelledby="danger-zone-title">
      <Card.Header>
        <Card.Title id="danger-zone-title" color="fg.error">
          {t('danger.title')}
        </Card.Title>
      </Card.Header>
      <Card.Body pt="2">
        <Stack
          direction={{ base: 'column', md: 'row' }}
          align={{ base: 'stretch', md: 'center' }}
          gap={{ base: '3', md: '6' }}
          py="2"
        >
          <HStack gap="3" flex="1" align="flex-start">
            <Box p="2" rounded="md" bg="red.subtle" color="fg.error" flexShrink={0}>
              <Icon as={LuLogOut} boxSize="5" aria-hidden="true" />
            </Box>
            <Stack gap="0.5">
              <Text fontWeight="semibold">{t('danger.closeTitle')}</Text>
              <Text textStyle="sm" color="fg.muted">
                {t('danger.closeDesc')}
              </Text>
            </Stack>
          </HStack>
          <HStack justify={{ base: 'flex-end', md: 'flex-end' }} ps={{ base: '12', md: '0' }}>
            <Button asChild size="sm" variant="outline" colorPalette="red" data-testid="close-account-link">
              <Link to="/profile/close-account">{t('danger.closeAction')}</Link>
            </Button>
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
