import { Badge, Box, Button, chakra, Container, HStack, Menu, Portal, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { LuChevronDown, LuCircleUser, LuReceiptText, LuUsers } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { fixed } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { fetchOrders } from '../api/p2p-api'
import { p2pKeys, type Order } from '../api/types'
import { trimZeros } from '../lib/amounts'
import { orderHref } from '../lib/search-values'
import { OrderStatusBadge } from './shared'

/** The processing-orders popover's page (spec §9: page 1, 20 a page). */
export const PROCESSING_PAGE_SIZE = 20
/** How often the red dot's count is read while a P2P page is open. */
export const PROCESSING_REFRESH_MS = 30_000
/** Hover delays of the orders popover. */
const OPEN_DELAY_MS = 120
const CLOSE_DELAY_MS = 250

/** The "More" menu of the sub-navigation (spec §2), in order; Blacklist is shown disabled. */
export const MORE_LINKS = [
  { id: 'payment-method', textKey: 'nav.paymentMethod', href: '/p2p/payment-method' },
  { id: 'publish-ad', textKey: 'nav.publishAd', href: '/p2p/publish-ad' },
  { id: 'my-advertising', textKey: 'nav.myAds', href: '/p2p/my-advertising' },
  { id: 'blacklist', textKey: 'nav.blacklist', href: '', disabled: true },
  // The fund password is the wallet's trade password; its form lives there.
  { id: 'fund-password', textKey: 'nav.fundPassword', href: '/wallet?modal=tradePassword' },
  { id: 'apply-merchant', textKey: 'nav.applyMerchant', href: '/p2p/apply-merchant' },
  { id: 'express', textKey: 'nav.express', href: '/p2p/express' },
] as const

/** The caller's processing orders, page 1 (the popover and its red dot). */
export function useProcessingOrders(enabled: boolean) {
  return useQuery({
    queryKey: p2pKeys.orderList('processing', 1, PROCESSING_PAGE_SIZE),
    queryFn: ({ signal }) => fetchOrders('processing', 1, PROCESSING_PAGE_SIZE, signal),
    enabled,
    refetchInterval: PROCESSING_REFRESH_MS,
  })
}

/** A menu trigger's chevron; left out on a phone, where the four items must fit 390 px (Mongolian labels are long). */
function Chevron() {
  return (
    <chakra.span display={{ base: 'none', sm: 'inline-flex' }}>
      <LuChevronDown aria-hidden="true" />
    </chakra.span>
  )
}

function NavLink({ href, active, icon, children, testId }: { href: string; active: boolean; icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Button asChild variant="ghost" size="sm" px={{ base: '2', md: '3' }} fontWeight={active ? 'semibold' : 'medium'} color={active ? 'brand.fg' : undefined} flexShrink={0}>
      <AppLink href={href} aria-current={active ? 'page' : undefined} data-testid={testId}>
        <chakra.span display={{ base: 'none', md: 'inline-flex' }}>{icon}</chakra.span>
        {children}
      </AppLink>
    </Button>
  )
}

/**
 * The P2P sub-navigation (spec §2): P2P (trading); P2P Order, whose popover
 * (on hover or click) lists the caller's processing orders and is read again
 * each time it opens, with a red dot while there are any; My Profile; More
 * (payment methods, publish an ad, my ads, the blacklist that is not
 * offered, the fund password, merchant application).
 */
export function P2PSubNav({ t }: { t: TranslateFn }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const href = useRouterState({ select: (s) => s.location.href })
  const { user } = useUserInfo()
  const signedIn = !!user
  // Someone else's profile (?uid= of another user) is not "My Profile".
  const ownProfile = pathname === '/p2p/profile' && (!/[?&]uid=/.test(href) || (!!user && new RegExp(`[?&]uid=${user.id}(&|$)`).test(href)))
  const orders = useProcessingOrders(signedIn)
  const count = orders.data?.count ?? 0

  return (
    <Box as="nav" aria-label={t('nav.label')} borderBottomWidth="1px" bg="bg.panel" data-testid="p2p-subnav">
      <Container maxW="7xl" px={{ base: '2', md: '6' }}>
        <HStack gap={{ base: '0', md: '1' }} py="1.5" overflowX="auto" css={{ scrollbarWidth: 'none' }}>
          <NavLink href="/p2p/trading" active={pathname === '/p2p/trading'} icon={<LuUsers aria-hidden="true" />} testId="p2p-nav-trading">
            {t('nav.trading')}
          </NavLink>
          <OrdersPopover t={t} signedIn={signedIn} count={count} orders={orders} loginTo={loginHref(href)} />
          <NavLink href="/p2p/profile" active={ownProfile} icon={<LuCircleUser aria-hidden="true" />} testId="p2p-nav-profile">
            {t('nav.profile')}
          </NavLink>
          <MoreMenu t={t} pathname={pathname} />
        </HStack>
      </Container>
    </Box>
  )
}

/**
 * The processing orders under "P2P Order": a menu (the navbar's menus are
 * already loaded; a popover would be a chunk of its own) opened by hover or
 * click, its rows links to the orders.
 */
function OrdersPopover({
  t,
  signedIn,
  count,
  orders,
  loginTo,
}: {
  t: TranslateFn
  signedIn: boolean
  count: number
  orders: ReturnType<typeof useProcessingOrders>
  loginTo: string
}) {
  const [open, setOpen] = useState(false)
  const timer = useRef<number | undefined>(undefined)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const { refetch } = orders
  useEffect(() => () => window.clearTimeout(timer.current), [])
  // A route change closes it.
  useEffect(() => setOpen(false), [pathname])
  const change = (next: boolean) => {
    window.clearTimeout(timer.current)
    setOpen(next)
    // The list is read again each time it opens (spec §4).
    if (next && signedIn) void refetch()
  }
  const later = (next: boolean) => {
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => change(next), next ? OPEN_DELAY_MS : CLOSE_DELAY_MS)
  }
  const hover = { onMouseEnter: () => later(true), onMouseLeave: () => later(false) }
  const list = orders.data?.orderList ?? []

  return (
    <Menu.Root open={open} onOpenChange={(d) => change(d.open)} positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px={{ base: '2', md: '3' }} fontWeight={pathname === '/order/otc' ? 'semibold' : 'medium'} color={pathname === '/order/otc' ? 'brand.fg' : undefined} flexShrink={0} data-testid="p2p-nav-orders" {...hover}>
          <chakra.span display={{ base: 'none', md: 'inline-flex' }}>
            <LuReceiptText aria-hidden="true" />
          </chakra.span>
          {t('nav.orders')}
          {count > 0 && (
            <chakra.span
              display="inline-block"
              boxSize="2"
              rounded="full"
              bg="red.solid"
              aria-label={t('nav.processingCount', { count })}
              role="img"
              data-testid="p2p-orders-dot"
            />
          )}
          <Chevron />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content w={{ base: 'calc(100vw - 1rem)', sm: '26rem' }} p="2" data-testid="p2p-orders-popover" {...hover}>
            <HStack justify="space-between" px="2" pt="1" pb="2">
              <Text fontWeight="semibold" textStyle="sm">
                {t('nav.processing')}
              </Text>
              {signedIn && count > 0 && (
                <Badge colorPalette="red" variant="solid" size="sm">
                  {count}
                </Badge>
              )}
            </HStack>
            {!signedIn ? (
              <>
                <Text px="2" pb="2" textStyle="sm" color="fg.muted">
                  {t('nav.signInOrders')}
                </Text>
                <Menu.Item value="login" asChild>
                  <AppLink href={loginTo} color="brand.fg" fontWeight="medium" _hover={{ textDecoration: 'none' }}>
                    {t('signIn')}
                  </AppLink>
                </Menu.Item>
              </>
            ) : orders.isPending ? (
              <Stack gap="2" px="2" aria-label={t('loading')} role="status">
                <Skeleton h="12" />
                <Skeleton h="12" />
              </Stack>
            ) : orders.isError && !orders.data ? (
              <Text px="2" py="2" textStyle="sm" color="fg.error">
                {t('nav.ordersError')}
              </Text>
            ) : list.length === 0 ? (
              <Text px="2" py="2" textStyle="sm" color="fg.muted" data-testid="p2p-orders-empty">
                {t('nav.ordersEmpty')}
              </Text>
            ) : (
              // At most 300 px tall, scrolling inside (spec §9).
              <Box maxH="300px" overflowY="auto" data-testid="p2p-orders-list">
                {list.map((o) => (
                  <ProcessingRow key={o.id} order={o} t={t} />
                ))}
              </Box>
            )}
            {signedIn && (
              <>
                <Menu.Separator />
                <Menu.Item value="all" asChild justifyContent="flex-end">
                  <AppLink href="/order/otc" color="brand.fg" fontWeight="medium" _hover={{ textDecoration: 'none' }} data-testid="p2p-orders-all">
                    {t('nav.allOrders')}
                  </AppLink>
                </Menu.Item>
              </>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

function ProcessingRow({ order, t }: { order: Order; t: TranslateFn }) {
  const buy = order.side === 'BUY'
  return (
    <Menu.Item value={order.id} asChild display="block" py="2" h="auto">
      <AppLink href={orderHref(order.id)} _hover={{ textDecoration: 'none' }} data-testid="p2p-processing-row">
      <HStack justify="space-between" gap="2">
        <Text fontWeight="semibold" color={buy ? 'green.fg' : 'red.fg'}>
          {t(`side.${order.side}`)} {order.coinSymbol}
        </Text>
        <OrderStatusBadge order={order} t={t} testId="p2p-processing-status" />
      </HStack>
      <HStack justify="space-between" gap="2" textStyle="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
        <Text>
          {t('order.total')}: <chakra.span color="fg">{fixed(order.totalPrice, 2)} {order.paySymbol}</chakra.span>
        </Text>
        <Text>
          {trimZeros(order.volume)} {order.coinSymbol} @ {fixed(order.price, 2)}
        </Text>
      </HStack>
      </AppLink>
    </Menu.Item>
  )
}

function MoreMenu({ t, pathname }: { t: TranslateFn; pathname: string }) {
  const active = MORE_LINKS.some((l) => l.href && pathname === l.href)
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px={{ base: '2', md: '3' }} fontWeight={active ? 'semibold' : 'medium'} color={active ? 'brand.fg' : undefined} flexShrink={0} data-testid="p2p-nav-more">
          {t('nav.more')}
          <Chevron />
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56" data-testid="p2p-more-menu">
            {MORE_LINKS.map((link) =>
              'disabled' in link && link.disabled ? (
                <Menu.Item key={link.id} value={link.id} disabled data-testid={`p2p-more-${link.id}`}>
                  <Text flex="1">{t(link.textKey)}</Text>
                  <Badge size="xs" variant="subtle">
                    {t('nav.soon')}
                  </Badge>
                </Menu.Item>
              ) : (
                <Menu.Item key={link.id} value={link.id} asChild data-testid={`p2p-more-${link.id}`}>
                  <AppLink href={link.href} _hover={{ textDecoration: 'none' }} aria-current={pathname === link.href ? 'page' : undefined}>
                    {t(link.textKey)}
                  </AppLink>
                </Menu.Item>
              ),
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}
