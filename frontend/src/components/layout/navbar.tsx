import { Box, Button, Flex, HStack, Icon, IconButton, Menu, Portal, Separator, Stack, Text } from '@chakra-ui/react'
import { Link } from '@tanstack/react-router'
import { LuChevronDown, LuCircleUser, LuGlobe, LuLogOut } from 'react-icons/lu'
import { ColorModeButton } from '@/components/ui/color-mode'
import { getConfig } from '@/lib/config'
import { CURRENCIES, getCurrency, getLanguage, LANGUAGES, type Currency, type Language } from '@/lib/cookies'
import { useTexts } from '@/lib/i18n'
import { logout, useUserInfo } from '@/lib/session'
import { AppLink } from './app-link'
import { useLinkResolver } from './link-target'
import { Logo } from './logo'
import { MENU_SECTIONS, menuHref, USER_LINKS, USER_MENU, type MenuSection } from './menu-items'
import { isSoon, SoonBadge } from './soon-badge'
import { changeCurrency, changeLanguage } from './preference-pickers'

function ProductMenu({ section }: { section: MenuSection }) {
  const { t } = useTexts('navbar')
  const flags = getConfig().flags
  const resolve = useLinkResolver()
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" fontWeight="medium" px={{ base: '2', xl: '3' }} data-testid={`nav-${section.id}`}>
          {t(`menu.${section.id}`)}
          <LuChevronDown aria-hidden="true" />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="72" p="2" aria-label={t(`menu.${section.id}`)}>
            {section.items.map((item) => {
              const href = menuHref(item, flags, resolve)
              const soon = isSoon(href)
              return (
                <Menu.Item key={item.id} value={item.id} asChild py="2" data-testid={`nav-item-${item.id}`}>
                  <AppLink
                    href={href}
                    _hover={{ textDecoration: 'none' }}
                    aria-label={soon ? t('soonLabel', { name: t(item.textKey) }) : undefined}
                  >
                    <Icon as={item.icon} boxSize="5" color={soon ? 'fg.muted' : 'brand.fg'} aria-hidden="true" />
                    <Stack gap="0" flex="1" minW="0">
                      <HStack gap="2">
                        <Text fontWeight="medium" color={soon ? 'fg.muted' : undefined}>
                          {t(item.textKey)}
                        </Text>
                        {soon && <SoonBadge />}
                      </HStack>
                      <Text textStyle="xs" color="fg.muted">
                        {t(`${item.textKey}Desc`)}
                      </Text>
                    </Stack>
                  </AppLink>
                </Menu.Item>
              )
            })}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

function UserMenu() {
  const { t } = useTexts('navbar')
  const { user } = useUserInfo()
  const resolve = useLinkResolver()
  if (!user) return null
  const name = user.nickName || user.email || (user.countryCode && user.mobileNumber ? `+${user.countryCode} ${user.mobileNumber}` : '')
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <IconButton variant="ghost" size="sm" aria-label={t('user.accountMenu')} data-testid="user-menu-trigger">
          <LuCircleUser />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="60" data-testid="user-menu">
            <Box px="3" py="2">
              <Text fontWeight="semibold" truncate data-testid="user-menu-name">
                {name}
              </Text>
              <Text textStyle="xs" color="fg.muted">
                {t('user.uid', { id: user.id })}
              </Text>
            </Box>
            <Menu.Separator />
            {/* Futures orders only once futures are live (the page is their maintenance notice until then). */}
            {USER_MENU.filter((link) => link.id !== 'futuresOrders' || getConfig().flags.futuresLive).map((link) => (
              <Menu.Item key={link.id} value={link.id} asChild>
                <AppLink href={resolve(USER_LINKS[link.id])} data-testid={`user-menu-${link.id}`}>
                  <link.icon aria-hidden="true" />
                  {t(link.textKey)}
                </AppLink>
              </Menu.Item>
            ))}
            <Menu.Separator />
            <Menu.Item value="logout" data-testid="logout" onSelect={() => void logout()}>
              <LuLogOut aria-hidden="true" />
              {t('user.logout')}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

function PreferencesMenu() {
  const nav = useTexts('navbar')
  const common = useTexts('common')
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={nav.t('picker.language')} data-testid="preferences-trigger">
          <LuGlobe aria-hidden="true" />
          {/* Below 1280 px the globe alone leaves room for the menus. */}
          <Box as="span" hideBelow="xl">
            {getLanguage() === 'mn_MN' ? 'MN' : 'EN'} / {getCurrency()}
          </Box>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            <Menu.RadioItemGroup
              value={getLanguage()}
              onValueChange={(e) => changeLanguage(e.value as Language)}
            >
              <Menu.ItemGroupLabel>{nav.t('mobile.language')}</Menu.ItemGroupLabel>
              {LANGUAGES.map((lan) => (
                <Menu.RadioItem key={lan} value={lan} data-testid={`language-${lan}`}>
                  {common.t(`languages.${lan}`)}
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
            <Menu.Separator />
            <Menu.RadioItemGroup
              value={getCurrency()}
              onValueChange={(e) => changeCurrency(e.value as Currency)}
            >
              <Menu.ItemGroupLabel>{nav.t('mobile.currency')}</Menu.ItemGroupLabel>
              {CURRENCIES.map((c) => (
                <Menu.RadioItem key={c} value={c} data-testid={`currency-${c}`}>
                  {c}
                  <Text as="span" color="fg.muted" textStyle="xs">
                    {common.t(`currencies.${c}`)}
                  </Text>
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

/** Desktop navbar (lg, 1024 px, and up): logo, product menus, account actions and preferences. */
export function Navbar() {
  const { t } = useTexts('navbar')
  const common = useTexts('common')
  const { isSignedIn, isLoading } = useUserInfo()
  const { walletLive } = getConfig().flags
  return (
    <Box
      as="header"
      hideBelow="lg"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg"
      borderBottomWidth="1px"
      data-testid="desktop-navbar"
      // Toasts sit below it (TOP_BAR_ATTR of the toaster), clear of the account and preference buttons.
      data-top-bar=""
    >
      <Flex h="16" px={{ base: '4', xl: '6' }} align="center" gap={{ base: '2', xl: '4' }} maxW="1440px" mx="auto">
        <Link to="/" aria-label={t('logoAlt')}>
          <Logo />
        </Link>
        <Box as="nav" aria-label={t('mainNav')} flex="1">
          <HStack gap={{ base: '0', xl: '1' }}>
            {MENU_SECTIONS.map((section) => (
              <ProductMenu key={section.id} section={section} />
            ))}
          </HStack>
        </Box>
        <HStack gap={{ base: '1', xl: '2' }} flexShrink={0}>
          {isLoading ? null : isSignedIn ? (
            <>
              {walletLive && (
                <Button asChild size="sm" colorPalette="brand">
                  <AppLink href={USER_LINKS.deposit}>{t('user.deposit')}</AppLink>
                </Button>
              )}
              <UserMenu />
            </>
          ) : (
            <>
              <Button asChild size="sm" variant="ghost" data-testid="nav-login">
                <AppLink href="/auth/login">{t('user.login')}</AppLink>
              </Button>
              <Button asChild size="sm" colorPalette="brand" data-testid="nav-signup">
                <AppLink href="/auth/register">{t('user.signup')}</AppLink>
              </Button>
            </>
          )}
          <Separator orientation="vertical" h="6" />
          <PreferencesMenu />
          <ColorModeButton label={common.t('theme.toggle')} data-testid="theme-toggle" />
        </HStack>
      </Flex>
    </Box>
  )
}
