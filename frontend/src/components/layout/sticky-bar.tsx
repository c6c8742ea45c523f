import { Box, CloseButton, Flex, Link as ChakraLink, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { LuMegaphone } from 'react-icons/lu'
import { closeStickyBar, getRawLanguage, isStickyBarClosed } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'
import { AppLink } from './app-link'

/** Dismissible announcement bar above the desktop navbar; closing it sets the stickyBar cookie. */
export function StickyBar() {
  const { t } = useTexts('navbar')
  const [open, setOpen] = useState(() => !isStickyBarClosed())
  if (!open) return null
  return (
    <Box
      as="section"
      aria-label={t('announcement.label')}
      hideBelow="lg"
      bg="brand.solid"
      color="brand.contrast"
      data-testid="sticky-bar"
      // Toasts sit below it (TOP_BAR_ATTR of the toaster), clear of its close button.
      data-top-bar=""
    >
      <Flex maxW="1440px" mx="auto" px="6" py="1.5" align="center" gap="3" textStyle="sm">
        <LuMegaphone aria-hidden="true" />
        <Text flex="1">
          {t('announcement.text')}{' '}
          <ChakraLink asChild color="inherit" textDecoration="underline" fontWeight="semibold">
            <AppLink href={footerHref('/announcements', getRawLanguage())}>{t('announcement.link')}</AppLink>
          </ChakraLink>
        </Text>
        <CloseButton
          size="2xs"
          variant="plain"
          color="inherit"
          aria-label={t('announcement.close')}
          data-testid="sticky-bar-close"
          onClick={() => {
            closeStickyBar()
            setOpen(false)
          }}
        />
      </Flex>
    </Box>
  )
}
