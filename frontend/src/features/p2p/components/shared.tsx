import { Badge, Box, Center, EmptyState, HStack, IconButton, Image, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { LuCheck, LuCloudOff, LuCopy, LuStore } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import type { TranslateFn } from '@/lib/i18n'
import { fetchMethods, fetchPublicInfo } from '../api/p2p-api'
import { p2pKeys, type AdMethod, type PayKind, type PayMethod, type PublicInfo, type Stats } from '../api/types'
import { fetchOrderImage } from '../api/uploads'
import { statusLabel, statusTone, type StatusLabel } from '../lib/status'
import type { Order } from '../api/types'

/** How long a copy button shows its checkmark (spec §4, §9). */
export const COPIED_MS = 3000

/** What the P2P screens offer (coins, time limits, appeal reasons, payment kinds): read once, kept for the session. */
export function usePublicInfo() {
  return useQuery({ queryKey: p2pKeys.info, queryFn: ({ signal }) => fetchPublicInfo(signal), staleTime: 10 * 60 * 1000, retry: 1 })
}

/** The caller's payment methods. */
export function useMethods(enabled = true) {
  return useQuery({ queryKey: p2pKeys.methods, queryFn: ({ signal }) => fetchMethods(signal), enabled, staleTime: 30 * 1000 })
}

/** Decimal places of a coin's amounts (public_info), 8 until known. */
export function coinPlaces(info: PublicInfo | undefined, coin: string): number {
  return info?.coins.find((c) => c.coinSymbol === coin)?.volumePrecision ?? 8
}

/** A public_info name (a payment kind's, a bank's) in the page's language. */
export function localName(x: { name: string; nameMn?: string }, lan: string | undefined): string {
  return lan === 'mn_MN' ? x.nameMn || x.name : x.name
}

/** A payment kind's name in the page's language. */
export function kindName(kind: string, t: TranslateFn, kinds?: PayKind[], lan?: string): string {
  const k = kinds?.find((x) => x.code === kind)
  if (k) return localName(k, lan)
  return t(`kinds.${kind}`) || kind
}

/**
 * A payment method's title in the page's language: the server names a bank
 * account by its bank in English ("Khan Bank"); in Mongolian the bank's (or
 * the kind's) Mongolian name from public_info is shown instead.
 */
export function methodTitle(m: AdMethod & Partial<Pick<PayMethod, 'titleMn'>>, lan: string | undefined, kinds?: PayKind[]): string {
  if (lan !== 'mn_MN') return m.title
  if (m.titleMn) return m.titleMn
  const kind = kinds?.find((k) => k.code === m.kind)
  const bank = m.bank ? kind?.banks?.find((b) => b.code === m.bank) : undefined
  if (bank?.nameMn) return bank.nameMn
  // QPay and SocialPay are names in either language.
  return m.title
}

/** The payment kinds an ad accepts, each once, as small tags. */
export function KindTags({ kinds, t, testId }: { kinds: string[]; t: TranslateFn; testId?: string }) {
  const unique = [...new Set(kinds)]
  return (
    <HStack gap="1" flexWrap="wrap" data-testid={testId}>
      {unique.map((k) => (
        <Badge key={k} size="sm" variant="outline" colorPalette={k === 'bank' ? 'blue' : k === 'qpay' ? 'purple' : 'teal'}>
          {t(`kinds.${k}`) || k}
        </Badge>
      ))}
    </HStack>
  )
}

/** An order's state as a badge (spec §4 OTC labels). */
export function OrderStatusBadge({ order, t, testId = 'order-status' }: { order: Pick<Order, 'status' | 'appeal'>; t: TranslateFn; testId?: string }) {
  const label = statusLabel(order)
  return <LabelBadge label={label} t={t} testId={testId} status={order.status} />
}

export function LabelBadge({ label, t, testId, status }: { label: StatusLabel; t: TranslateFn; testId?: string; status?: string }) {
  return (
    <Badge colorPalette={statusTone(label)} variant="subtle" data-testid={testId} data-status={status ?? label}>
      {t(`status.${label}`)}
    </Badge>
  )
}

/** A trader's name with the merchant mark, linking to their profile. */
export function TraderName({ uid, name, merchant, t, testId }: { uid: string; name: string; merchant?: boolean; t: TranslateFn; testId?: string }) {
  return (
    <HStack gap="1" minW="0">
      <AppLink href={`/p2p/profile?uid=${encodeURIComponent(uid)}`} fontWeight="semibold" color="brand.fg" truncate data-testid={testId}>
        {name || uid}
      </AppLink>
      {merchant && (
        <Box as="span" color="brand.fg" title={t('profile.merchant')} flexShrink={0}>
          <LuStore aria-label={t('profile.merchant')} />
        </Box>
      )}
    </HStack>
  )
}

/** A merchant's record in one line: completed orders and completion rate. */
export function RecordLine({ stats, t }: { stats?: Partial<Stats>; t: TranslateFn }) {
  if (!stats) return null
  return (
    <Text textStyle="xs" color="fg.muted">
      {t('trading.orders', { count: stats.completeOrders ?? 0 })}
      {' · '}
      {stats.completionRate ? t('trading.completion', { rate: stats.completionRate }) : t('trading.noRate')}
    </Text>
  )
}

/**
 * Copies a value; a checkmark for 3 seconds after copying (spec §4). The
 * clipboard API directly: Chakra's clipboard hook would be a chunk of its
 * own that the other pages' imports would then list too.
 */
export function CopyButton({ value, label, copiedLabel, testId }: { value: string; label: string; copiedLabel: string; testId?: string }) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => {
        setCopied(true)
        window.clearTimeout(timer.current)
        timer.current = window.setTimeout(() => setCopied(false), COPIED_MS)
      },
      () => undefined,
    )
  }
  return (
    <IconButton
      size="xs"
      variant="ghost"
      aria-label={copied ? copiedLabel : label}
      title={copied ? copiedLabel : label}
      onClick={copy}
      data-testid={testId}
      data-copied={copied || undefined}
    >
      {copied ? <LuCheck aria-hidden="true" /> : <LuCopy aria-hidden="true" />}
    </IconButton>
  )
}

/** What a P2P page shows until its texts and data are in. */
export function PageSkeleton({ label, testId = 'p2p-loading', rows = 3 }: { label: string; testId?: string; rows?: number }) {
  return (
    <Stack gap="4" role="status" aria-live="polite" aria-label={label} data-testid={testId}>
      <Skeleton height="8" width="14rem" maxW="full" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height="5rem" rounded="l2" />
      ))}
    </Stack>
  )
}

/** A list with nothing in it: what it would hold, and what to do. */
export function Empty({ title, hint, action, testId, icon }: { title: string; hint?: string; action?: ReactNode; testId?: string; icon?: ReactNode }) {
  return (
    <EmptyState.Root borderWidth="1px" rounded="lg" data-testid={testId}>
      <EmptyState.Content>
        {icon && <EmptyState.Indicator>{icon}</EmptyState.Indicator>}
        <Stack textAlign="center" align="center" gap="1">
          <EmptyState.Title>{title}</EmptyState.Title>
          {hint && <EmptyState.Description>{hint}</EmptyState.Description>}
        </Stack>
        {action}
      </EmptyState.Content>
    </EmptyState.Root>
  )
}

/**
 * An image of an order (sent in its chat, or appeal evidence) by either
 * side, read with the session and shown from a data: URL (the site's CSP
 * takes those).
 */
export function UploadImage({ orderId, id, alt, unavailable, size = '32' }: { orderId: string; id: string; alt: string; unavailable: string; size?: string }) {
  const query = useQuery({
    queryKey: p2pKeys.upload(id),
    queryFn: ({ signal }) => fetchOrderImage(orderId, id, signal),
    staleTime: Infinity,
    gcTime: 5 * 60 * 1000,
    retry: false,
  })
  if (query.isError) {
    return (
      <Center boxSize={size} borderWidth="1px" rounded="md" color="fg.muted" title={unavailable} data-testid="p2p-image-unavailable">
        <LuCloudOff aria-label={unavailable} />
      </Center>
    )
  }
  if (!query.data) return <Skeleton boxSize={size} rounded="md" />
  return <Image src={query.data} alt={alt} maxW="full" maxH="60" w="auto" objectFit="contain" rounded="md" borderWidth="1px" data-testid="p2p-image" />
}

/** The texts of a list's pager. */
export function pagerLabels(t: TranslateFn) {
  return {
    nav: t('pager.nav'),
    prev: t('pager.prev'),
    next: t('pager.next'),
    page: (p: number) => t('pager.page', { page: p }),
    status: (p: number, pages: number) => t('pager.pageOf', { page: p, pages }),
  }
}
