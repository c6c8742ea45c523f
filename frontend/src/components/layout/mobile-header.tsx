import { Box, Button, chakra, CloseButton, Drawer, Flex, HStack, Icon, IconButton, Portal, Separator, Stack, Switch, Text } from '@chakra-ui/react'
import { Link, useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { LuChevronRight, LuDownload, LuLifeBuoy, LuLogOut, LuMenu } from 'react-icons/lu'
import { useColorMode } from '@/components/ui/color-mode'
import { getConfig } from '@/lib/config'
import { getRawLanguage } from '@/lib/cookies'
import { footerHref } from '@/lib/footer-visibility'
import { useTexts } from '@/lib/i18n'
import { logout, useUserInfo } from '@/lib/session'
import { AppLink } from './app-link'
import { useLinkResolver } from './link-target'
import { Logo } from './logo'
import { MENU_SECTIONS, menuHref, SUPPORT_LINKS, USER_LINKS, USER_MENU } from './menu-items'
import { isSoon, SoonBadge } from './soon-badge'
import { CurrencyPicker, LanguagePicker } from './preference-pickers'

/** Height of the fixed mobile top bar; the layout pads the page by it. */
export const MOBILE_HEADER_HEIGHT = '14'

function MenuLink({ href, children, testId }: { href: string; children: React.ReactNode; testId?: string }) {
  return (
    <AppLink
      href={href}
      display="flex"
      alignItems="center"
      gap="3"
      py="2.5"
      px="2"
      rounded="md"
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
      data-testid={testId}
    >
      {children}
    </AppLink>
  )
}

/** The full-screen slide-in menu of spec §2. */
function MobileMenu({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTexts('navbar')
  const { user, isSignedIn } = useUserInfo()
  const { colorMode, setColorMode } = useColorMode()
  const flags = getConfig().flags
  const lan = getRawLanguage()
  const resolve = useLinkResolver()
  return (
    <Drawer.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} size="full" placement="end">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="mobile-menu" aria-label={t('mobile.menuTitle')}>
            <Drawer.Header borderBottomWidth="1px" py="3" px="4">
              <Flex justify="space-between" align="center" w="full">
                <Drawer.Title asChild>
                  <Box>
                    <Logo />
                    <Text srOnly>{t('mobile.menuTitle')}</Text>
                  </Box>
                </Drawer.Title>
                <Drawer.CloseTrigger asChild position="static">
                  <CloseButton size="sm" aria-label={t('mobile.closeMenu')} data-testid="mobile-menu-close" />
                </Drawer.CloseTrigger>
              </Flex>
            </Drawer.Header>
            <Drawer.Body px="4" py="4">
              <Stack gap="5">
                {isSignedIn && user ? (
                  <Stack gap="1" data-testid="mobile-menu-account">
                    <Text fontWeight="semibold" truncate px="2">
                      {user.nickName || user.email || user.mobileNumber}
                    </Text>
                    {/* Futures orders only once futures are live (the page is their maintenance notice until then). */}
                    {USER_MENU.filter((link) => link.id !== 'futuresOrders' || flags.futuresLive).map((link) => (
                      <MenuLink key={link.id} href={resolve(USER_LINKS[link.id])} testId={`mobile-menu-${link.id}`}>
                        <link.icon aria-hidden="true" />
                        {t(link.id === 'profile' ? 'user.profile' : link.textKey)}
                      </MenuLink>
                    ))}
                  </Stack>
                ) : (
                  <HStack gap="3">
                    <Button asChild flex="1" variant="outline" data-testid="mobile-menu-login">
                      <AppLink href="/auth/login">{t('user.login')}</AppLink>
                    </Button>
                    <Button asChild flex="1" colorPalette="brand" data-testid="mobile-menu-signup">
                      <AppLink href="/auth/register">{t('user.signup')}</AppLink>
                    </Button>
                  </HStack>
                )}
                <Separator />
                <Box as="nav" aria-label={t('mainNav')}>
                  <Stack gap="4">
                    {MENU_SECTIONS.map((section, index) => {
                      // The second title is a plain heading (spec §2); others link when they have a page.
                      const titleLink = index === 1 ? undefined : section.link
                      return (
                        <Stack key={section.id} gap="0" data-testid={`mobile-section-${section.id}`}>
                          {titleLink ? (
                            <AppLink
                              href={resolve(titleLink)}
                              fontWeight="bold"
                              px="2"
                              py="1"
                              display="flex"
                              alignItems="center"
                              justifyContent="space-between"
                              rounded="md"
                              _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
                              data-testid={`mobile-section-title-${section.id}`}
                            >
                              {t(`menu.${section.id}`)}
                              <LuChevronRight aria-hidden="true" />
                            </AppLink>
                          ) : (
                            <Text
                              as="h2"
                              fontWeight="bold"
                              px="2"
                              py="1"
                              data-testid={`mobile-section-title-${section.id}`}
                            >
                              {t(`menu.${section.id}`)}
                            </Text>
                          )}
                          {section.items.map((item) => {
                            const href = menuHref(item, flags, resolve)
                            const soon = isSoon(href)
                            return (
                              <MenuLink key={item.id} href={href} testId={`mobile-item-${item.id}`}>
                                <Icon as={item.icon} color={soon ? 'fg.muted' : 'brand.fg'} aria-hidden="true" />
                                <chakra.span color={soon ? 'fg.muted' : undefined}>{t(item.textKey)}</chakra.span>
                                {soon && <SoonBadge />}
                              </MenuLink>
                            )
                          })}
                        </Stack>
                      )
                    })}
                  </Stack>
                </Box>
                <Separator />
                <Switch.Root
                  checked={colorMode === 'dark'}
                  onCheckedChange={(e) => setColorMode(e.checked ? 'dark' : 'light')}
                  display="flex"
                  justifyContent="space-between"
                  px="2"
                  data-testid="mobile-theme-toggle"
                >
                  <Switch.Label>{t('mobile.darkMode')}</Switch.Label>
                  <Switch.HiddenInput />
                  <Switch.Control />
                </Switch.Root>
                <MenuLink href="/download" testId="mobile-menu-download">
                  <LuDownload aria-hidden="true" />
                  {t('mobile.downloadApp')}
                </MenuLink>
                <Stack gap="3" px="2">
                  <LanguagePicker id="mobile-language" />
                  <CurrencyPicker id="mobile-currency" />
                </Stack>
                <Separator />
                <Stack gap="0" data-testid="mobile-menu-support">
                  <Text as="h2" fontWeight="bold" px="2" py="1">
                    {t('mobile.support')}
                  </Text>
                  {SUPPORT_LINKS.map((link) => (
                    <MenuLink key={link.id} href={resolve(footerHref(link.path, lan))} testId={`mobile-support-${link.id}`}>
                      <LuLifeBuoy aria-hidden="true" />
                      {t(link.textKey)}
                    </MenuLink>
                  ))}
                </Stack>
                {isSignedIn && (
                  <Button variant="outline" colorPalette="red" onClick={() => void logout()} data-testid="mobile-logout">
                    <LuLogOut aria-hidden="true" />
                    {t('user.logout')}
                  </Button>
                )}
              </Stack>
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  )
}

/** Fixed mobile top bar (below lg, 1024 px: the desktop bar needs that width for its six menus and account actions): logo, deposit or sign-up, menu button. */
export function MobileHeader() {
  const { t } = useTexts('navbar')
  const { isSignedIn, isLoading } = useUserInfo()
  const [open, setOpen] = useState(false)
  const href = useRouterState({ select: (s) => s.location.href })
  const { walletLive } = getConfig().flags

  // The menu closes on route change (spec §2).
  useEffect(() => {
    setOpen(false)
  }, [href])

  return (
    <Box
      as="header"
      hideFrom="lg"
      position="fixed"
      top="0"
      insetX="0"
      h={MOBILE_HEADER_HEIGHT}
      zIndex="sticky"
      bg="bg"
      borderBottomWidth="1px"
      data-testid="mobile-header"
      // Toasts sit below it (TOP_BAR_ATTR of the toaster), clear of the logo and the menu button.
      data-top-bar=""
    >
      <Flex h="full" px="4" align="center" justify="space-between">
        <Link to="/" aria-label={t('logoAlt')}>
          <Logo height={6} />
        </Link>
        <HStack gap="2">
          {isLoading ? null : isSignedIn ? (
            walletLive && (
              <Button asChild size="xs" colorPalette="brand" data-testid="mobile-deposit">
                <AppLink href={USER_LINKS.deposit}>{t('user.deposit')}</AppLink>
              </Button>
            )
          ) : (
            <Button asChild size="xs" colorPalette="brand" data-testid="mobile-signup">
              <AppLink href="/auth/register">{t('user.signup')}</AppLink>
            </Button>
          )}
          <IconButton
            variant="ghost"
            size="sm"
            aria-label={t('mobile.openMenu')}
            aria-expanded={open}
            aria-haspopup="dialog"
            onClick={() => setOpen(true)}
            data-testid="mobile-menu-button"
          >
            <LuMenu />
          </IconButton>
        </HStack>
      </Flex>
      <MobileMenu open={open} onOpenChange={setOpen} />
    </Box>
  )
}
