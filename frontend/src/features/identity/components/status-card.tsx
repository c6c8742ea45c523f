import { Alert, Badge, Box, Button, Card, HStack, Icon, Link, List, Spinner, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { LuClock, LuExternalLink, LuLifeBuoy, LuShieldAlert, LuShieldCheck, LuShieldX } from 'react-icons/lu'
import type { IconType } from 'react-icons'
import { AppLink } from '@/components/layout/app-link'
import type { TranslateFn } from '@/lib/i18n'
import type { LevelList, LevelStatus } from '../api/get-level-list'
import { formatUsdt } from '../lib/format'
import {
  canVerify,
  heldLevel,
  identityState,
  levelTitle,
  nextLevel,
  rejectLabelTexts,
  STATUS_COLOR,
  targetLevel,
  type IdentityState,
} from '../lib/status'

const ICON: Record<IdentityState, IconType> = {
  unverified: LuShieldAlert,
  pending: LuClock,
  verified: LuShieldCheck,
  rejected: LuShieldX,
  final: LuShieldX,
}

const BADGE: Record<IdentityState, LevelStatus> = {
  unverified: 'unverified',
  pending: 'pending',
  verified: 'verified',
  rejected: 'rejected',
  final: 'rejected',
}

/** Props of {@link StatusCard}. */
export interface StatusCardProps {
  list: LevelList
  t: TranslateFn
  /** Starts (or resumes, or retries) verification. */
  onVerify: () => void
  /** The flow is being opened. */
  starting: boolean
  /** The support page, when the app has one. */
  supportHref?: string
  /** Something to show under the text (the simulator's link). */
  notice?: ReactNode
}

/**
 * The user's verification: the state with what it means for the daily
 * withdrawal limit; for a rejection the reviewer's comment and labels (in
 * the reader's language where known) and Retry, or, when it is final, the
 * way to support; the Verify button; and the limit now.
 */
export function StatusCard({ list, t, onVerify, starting, supportHref, notice }: StatusCardProps) {
  const state = identityState(list)
  const held = heldLevel(list)
  const next = nextLevel(list)
  const target = targetLevel(list)
  const heldName = held ? levelTitle(t, held.levelName) : ''
  const limit = formatUsdt(list.withdrawDailyUsdt)
  const verifiable = canVerify(list)

  let title: string
  let body: string
  switch (state) {
    case 'unverified':
      title = t('status.unverifiedTitle')
      body = t('status.unverifiedBody', {
        limit: formatUsdt(list.unverifiedWithdrawDailyUsdt || list.withdrawDailyUsdt),
        next: formatUsdt(target?.withdrawDailyUsdt),
      })
      break
    case 'pending':
      title = t('status.pendingTitle')
      body = t('status.pendingBody')
      break
    case 'verified':
      title = t('status.verifiedTitle')
      body = t('status.verifiedBody', { level: heldName, limit })
      break
    case 'rejected':
      title = t('status.rejectedTitle')
      body = t('status.rejectedBody')
      break
    case 'final':
      title = t('status.finalTitle')
      body = t('status.finalBody')
      break
  }

  const labels = state === 'rejected' || state === 'final' ? rejectLabelTexts(t, list.rejectLabels) : []
  const resuming = state === 'unverified' && list.reviewStatus === 'init' && !!list.currentLevel
  let verifyLabel = t('verify')
  if (state === 'rejected') verifyLabel = t('retry')
  else if (resuming) verifyLabel = t('continue')
  else if (held && target) verifyLabel = t('verifyLevel', { level: levelTitle(t, target.levelName) })
  const showVerify = verifiable && (state !== 'verified' || !!next)
  const palette = STATUS_COLOR[BADGE[state]]

  return (
    <Card.Root data-testid="identity-status" data-state={state}>
      <Card.Body>
        <Stack gap="5">
          <HStack gap={{ base: '3', md: '4' }} align="flex-start">
            <Box p={{ base: '2', md: '3' }} rounded="full" bg={`${palette}.subtle`} color={`${palette}.fg`} flexShrink={0}>
              <Icon as={ICON[state]} boxSize={{ base: '5', md: '6' }} aria-hidden="true" />
            </Box>
            <Stack gap="2" flex="1" minW="0">
              <HStack gap="3" flexWrap="wrap">
                <Badge size="lg" variant="subtle" colorPalette={palette} data-testid="identity-status-badge">
                  {t(`statusLabel.${BADGE[state]}`)}
                </Badge>
                {state === 'pending' && (
                  <HStack gap="2" color="fg.muted" role="status" aria-live="polite">
                    <Spinner size="xs" />
                    <Text textStyle="sm">{t('status.checking')}</Text>
                  </HStack>
                )}
              </HStack>
              <Text as="h2" textStyle={{ base: 'lg', md: 'xl' }} fontWeight="semibold" data-testid="identity-status-title">
                {title}
              </Text>
              <Text color="fg.muted">{body}</Text>
              {held && state !== 'verified' && (
                <Text color="fg.muted" data-testid="identity-held-note">
                  {t('status.verifiedBelow', { level: heldName, limit })}
                </Text>
              )}
              {state === 'verified' && next && showVerify && (
                <Text color="fg.muted">
                  {t('status.higherBody', { level: levelTitle(t, next.levelName), limit: formatUsdt(next.withdrawDailyUsdt) })}
                </Text>
              )}
            </Stack>
          </HStack>

          {(list.rejectReason || labels.length > 0) && (
            <Alert.Root status={state === 'final' ? 'error' : 'warning'} variant="subtle" alignItems="flex-start" data-testid="identity-reject">
              <Alert.Indicator />
              <Alert.Content gap="3">
                {list.rejectReason && (
                  <Stack gap="1">
                    <Alert.Title>{t('status.reasonTitle')}</Alert.Title>
                    <Alert.Description data-testid="identity-reject-reason">{list.rejectReason}</Alert.Description>
                  </Stack>
                )}
                {labels.length > 0 && (
                  <Stack gap="1">
                    <Alert.Title id="identity-reject-labels-title">{t('status.labelsTitle')}</Alert.Title>
                    <List.Root ps="5" gap="1" aria-labelledby="identity-reject-labels-title" data-testid="identity-reject-labels">
                      {labels.map((label) => (
                        <List.Item key={label}>{label}</List.Item>
                      ))}
                    </List.Root>
                  </Stack>
                )}
              </Alert.Content>
            </Alert.Root>
          )}

          {notice}

          {!list.provider && state !== 'verified' && state !== 'final' && (
            <Alert.Root status="info" data-testid="identity-unavailable">
              <Alert.Indicator />
              <Alert.Title fontWeight="normal">{t('unavailable')}</Alert.Title>
            </Alert.Root>
          )}

          <Stack
            direction={{ base: 'column', md: 'row' }}
            gap="4"
            align={{ base: 'stretch', md: 'center' }}
            justify="space-between"
            borderTopWidth="1px"
            pt="4"
          >
            <Stack gap="0.5">
              <Text textStyle="sm" color="fg.muted">
                {t('status.dailyLimit')}
              </Text>
              <Text textStyle="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" data-testid="identity-daily-limit">
                {t('usdtAmount', { amount: limit })}
              </Text>
              <Link asChild colorPalette="brand" color="colorPalette.fg" textStyle="sm" data-testid="identity-limits-link">
                <RouterLink to="/profile/limits">{t('status.seeLimits')}</RouterLink>
              </Link>
            </Stack>
            <HStack gap="3" flexWrap="wrap" justify={{ base: 'stretch', md: 'flex-end' }}>
              {state === 'final' && supportHref && (
                <Button asChild variant="outline" flex={{ base: '1', md: 'initial' }} data-testid="identity-support">
                  <AppLink href={supportHref}>
                    <LuLifeBuoy aria-hidden="true" />
                    {t('status.contactSupport')}
                  </AppLink>
                </Button>
              )}
              {showVerify && (
                <Button
                  colorPalette="brand"
                  onClick={onVerify}
                  loading={starting}
                  loadingText={t('starting')}
                  flex={{ base: '1', md: 'initial' }}
                  data-testid={state === 'rejected' ? 'retry-identity' : 'verify-identity'}
                >
                  {verifyLabel}
                </Button>
              )}
            </HStack>
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

/** The simulator's page opened in another tab, with a link to open it again. */
export function SimulatorNotice({ url, t }: { url: string; t: TranslateFn }) {
  return (
    <Alert.Root status="info" variant="subtle" data-testid="identity-simulator-notice">
      <Alert.Indicator />
      <Alert.Content gap="1">
        <Alert.Description>{t('simulator.opened')}</Alert.Description>
        <Link href={url} target="_blank" rel="noopener" colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
          {t('simulator.reopen')}
          <LuExternalLink aria-hidden="true" />
        </Link>
      </Alert.Content>
    </Alert.Root>
  )
}
