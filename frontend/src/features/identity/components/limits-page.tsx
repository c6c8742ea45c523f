import { Alert, Badge, Box, Button, Card, HStack, Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { Link as RouterLink, useNavigate, useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'
import { LuArrowRight } from 'react-icons/lu'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { loginHref } from '@/lib/auth-guard'
import { compareDecimals } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { identityKeys, type LevelList } from '../api/get-level-list'
import { fetchWithdrawLimit, type WithdrawLimit } from '../api/get-withdraw-limit'
import { formatUsdt } from '../lib/format'
import { canVerify, heldLevel, identityState, levelTitle, nextLevel, STATUS_COLOR } from '../lib/status'
import { accountLimitsTexts, identityTexts } from '../lib/texts'
import { levelRows } from './levels-card'
import { PageSkeleton } from './page-skeleton'
import { useLevelList } from './use-level-list'

/** The share of the limit used, 0–100 (0 when either is not a number). */
export function usedPercent(used: string, limit: string): number {
  const u = Number(used)
  const l = Number(limit)
  if (!Number.isFinite(u) || !Number.isFinite(l) || l <= 0) return 0
  return Math.min(100, Math.max(0, (u / l) * 100))
}

/**
 * /profile/limits (spec §2 profile account limits): the user's daily
 * withdrawal limit with what the last 24 hours used and what is left (the
 * withdrawal's cost call), the level it comes from, the limit of every
 * level, and the way to verify for more.
 */
export function LimitsPage() {
  const { t, ready: ownReady } = accountLimitsTexts.useTexts()
  const identity = identityTexts.useTexts()
  const ready = ownReady && identity.ready
  const { user: liveUser } = useUserInfo()
  const navigate = useNavigate()
  const router = useRouter()

  useEffect(() => {
    if (liveUser === null) void navigate({ href: loginHref(router.state.location.href), replace: true })
  }, [liveUser, router, navigate])

  const levels = useLevelList(identity.t)
  const list = levels.data
  const usage = useQuery({
    queryKey: identityKeys.withdrawLimit,
    queryFn: ({ signal }) => fetchWithdrawLimit(signal),
    refetchOnWindowFocus: true,
  })
  // The limit follows the level: when the level list changes, the usage's limit is read again.
  const { refetch: refetchUsage } = usage
  const listLimit = list?.withdrawDailyUsdt
  useEffect(() => {
    if (listLimit !== undefined) void refetchUsage()
  }, [listLimit, refetchUsage])

  if (!ready) return <PageSkeleton testId="limits-loading" withHeading />
  return (
    <PageFrame title={t('title')} subtitle={t('subtitle')} testId="limits-page">
      {levels.isPending && <PageSkeleton testId="limits-loading" />}

      {levels.isError && !list && (
        <LoadError
          title={t('loadError')}
          retryLabel={t('retryLoad')}
          onRetry={() => void levels.refetch()}
          retrying={levels.isFetching}
          testId="limits-error"
        />
      )}

      {list && (
        <>
          <DailyLimitCard
            list={list}
            usage={usage.data}
            usageLoading={usage.isPending}
            usageError={usage.isError && !usage.data}
            onRetryUsage={() => void usage.refetch()}
            t={t}
            it={identity.t}
          />
          <LevelTable list={list} t={t} it={identity.t} />
        </>
      )}
    </PageFrame>
  )
}

interface DailyLimitCardProps {
  list: LevelList
  usage?: WithdrawLimit
  usageLoading: boolean
  usageError: boolean
  onRetryUsage: () => void
  /** Texts of this page, and of the identity page (statuses, level names). */
  t: TranslateFn
  it: TranslateFn
}

/** The limit now, what the last 24 hours used and what is left, the level it comes from, and the way up. */
function DailyLimitCard({ list, usage, usageLoading, usageError, onRetryUsage, t, it }: DailyLimitCardProps) {
  const state = identityState(list)
  const held = heldLevel(list)
  const next = nextLevel(list)
  // The level list is the one truth of the limit (it follows the level at once); the cost call's agrees once read again.
  const limit = list.withdrawDailyUsdt || usage?.limit || ''
  const percent = usage ? usedPercent(usage.used, limit) : 0
  const full = usage ? compareDecimals(usage.left || '0', '0') <= 0 && compareDecimals(limit || '0', '0') > 0 : false
  const levelNote: Partial<Record<typeof state, string>> = {
    pending: t('level.pending'),
    rejected: t('level.rejected'),
    final: t('level.final'),
  }
  const showCta = !!next && canVerify(list)

  return (
    <Card.Root data-testid="limit-summary">
      <Card.Header>
        <Card.Title as="h2">{t('daily.title')}</Card.Title>
        <Card.Description>{t('daily.hint')}</Card.Description>
      </Card.Header>
      <Card.Body>
        <Stack gap="6">
          <Stack direction={{ base: 'column', md: 'row' }} gap={{ base: '5', md: '10' }} align={{ base: 'stretch', md: 'flex-end' }}>
            <Stack gap="1" flex="1">
              <Text textStyle="sm" color="fg.muted">
                {t('daily.limit')}
              </Text>
              <Text textStyle={{ base: '2xl', md: '3xl' }} fontWeight="bold" fontVariantNumeric="tabular-nums" data-testid="limit-total">
                {t('usdt', { amount: formatUsdt(limit) })}
              </Text>
              <HStack gap="2" flexWrap="wrap">
                <Badge
                  variant="subtle"
                  colorPalette={held ? STATUS_COLOR.verified : STATUS_COLOR.unverified}
                  data-testid="limit-level"
                >
                  {held ? t('level.verifiedAt', { level: levelTitle(it, held.levelName) }) : t('level.none')}
                </Badge>
                {state === 'pending' && (
                  <Badge variant="subtle" colorPalette={STATUS_COLOR.pending}>
                    {it('statusLabel.pending')}
                  </Badge>
                )}
              </HStack>
            </Stack>
            <UsageFigures usage={usage} loading={usageLoading} error={usageError} onRetry={onRetryUsage} t={t} />
          </Stack>

          {usage && (
            <Stack gap="1">
              <Box
                role="progressbar"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(percent)}
                aria-valuetext={t('daily.usageLabel', { used: formatUsdt(usage.used), limit: formatUsdt(limit) })}
                aria-label={t('daily.used')}
                h="2"
                rounded="full"
                bg="bg.emphasized"
                overflow="hidden"
                data-testid="limit-bar"
              >
                <Box h="full" w={`${percent}%`} bg={full ? 'red.solid' : 'brand.solid'} rounded="full" transition="width 0.3s" />
              </Box>
              <Text textStyle="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                {t('daily.usageLabel', { used: formatUsdt(usage.used), limit: formatUsdt(limit) })}
              </Text>
            </Stack>
          )}

          {levelNote[state] && (
            <Alert.Root status={state === 'pending' ? 'info' : state === 'final' ? 'error' : 'warning'} data-testid="limit-level-note">
              <Alert.Indicator />
              <Alert.Title fontWeight="normal">{levelNote[state]}</Alert.Title>
              {state !== 'pending' && (
                <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium" flexShrink={0} alignSelf="center">
                  <RouterLink to="/profile/identity">{t('cta.details')}</RouterLink>
                </Link>
              )}
            </Alert.Root>
          )}

          {!next && held && (
            <Text color="fg.muted" data-testid="limit-top">
              {t('level.top')}
            </Text>
          )}

          {showCta && next && state !== 'rejected' && (
            <Stack
              direction={{ base: 'column', md: 'row' }}
              gap="4"
              align={{ base: 'stretch', md: 'center' }}
              justify="space-between"
              p="4"
              rounded="l2"
              bg="brand.subtle"
              data-testid="limit-cta"
            >
              <Stack gap="0.5">
                <Text fontWeight="semibold" color="brand.fg">
                  {t('cta.title', { limit: formatUsdt(next.withdrawDailyUsdt) })}
                </Text>
                <Text textStyle="sm" color="fg.muted">
                  {t('cta.body', { level: levelTitle(it, next.levelName) })}
                </Text>
              </Stack>
              <Button asChild colorPalette="brand" flexShrink={0} data-testid="limit-verify">
                <RouterLink to="/profile/identity">
                  {t('cta.button')}
                  <LuArrowRight aria-hidden="true" />
                </RouterLink>
              </Button>
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

/** Used and left in the last 24 hours (or their loading and error states). */
function UsageFigures({
  usage,
  loading,
  error,
  onRetry,
  t,
}: {
  usage?: WithdrawLimit
  loading: boolean
  error: boolean
  onRetry: () => void
  t: TranslateFn
}) {
  if (error) {
    return (
      <Stack gap="2" flex="1" align="flex-start" data-testid="limit-usage-error">
        <Text textStyle="sm" color="fg.error">
          {t('daily.usageError')}
        </Text>
        <Button size="xs" variant="outline" onClick={onRetry}>
          {t('daily.retryUsage')}
        </Button>
      </Stack>
    )
  }
  const figure = (label: string, value: string | undefined, testId: string) => (
    <Stack gap="1" flex="1">
      <Text textStyle="sm" color="fg.muted">
        {label}
      </Text>
      {loading || value === undefined ? (
        <Skeleton height="7" width="8rem" />
      ) : (
        <Text textStyle="xl" fontWeight="semibold" fontVariantNumeric="tabular-nums" data-testid={testId}>
          {t('usdt', { amount: formatUsdt(value) })}
        </Text>
      )}
    </Stack>
  )
  return (
    <Stack direction="row" gap={{ base: '4', md: '10' }} flex="1.4">
      {figure(t('daily.used'), usage?.used, 'limit-used')}
      {figure(t('daily.left'), usage?.left, 'limit-left')}
    </Stack>
  )
}

interface LevelRowView {
  id: string
  title: string
  limit: string
  status: string
  statusColor: string
  yours: boolean
}

/**
 * The limit of every level, the user's marked: a plain table of two
 * columns (the level with its status, its limit), which fits a phone.
 */
function LevelTable({ list, t, it }: { list: LevelList; t: TranslateFn; it: TranslateFn }) {
  const rows: LevelRowView[] = levelRows(list, it).map((r) => {
    const status = r.status ?? 'unverified'
    return {
      id: r.id,
      title: r.title,
      limit: r.limit,
      status: r.id === 'unverified' ? '' : it(`statusLabel.${status}`),
      statusColor: STATUS_COLOR[status],
      yours: r.yours,
    }
  })
  return (
    <Card.Root data-testid="limit-levels">
      <Card.Header>
        <Card.Title as="h2" id="limit-levels-title">
          {t('levels.title')}
        </Card.Title>
      </Card.Header>
      <Card.Body pt="2">
        <Table.ScrollArea>
          <Table.Root size="sm" aria-label={t('levels.listLabel')} data-testid="limit-level-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('levels.level')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('levels.limit')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((r) => (
                <Table.Row key={r.id} data-testid={`limit-row-${r.id}`} bg={r.yours ? 'bg.muted' : undefined}>
                  <Table.Cell>
                    <HStack gap="2" flexWrap="wrap">
                      <Text as="span" fontWeight="medium">
                        {r.title}
                      </Text>
                      {r.yours && (
                        <Badge size="sm" variant="solid" colorPalette="brand">
                          {t('levels.yours')}
                        </Badge>
                      )}
                      {r.status && (
                        <Badge size="sm" variant="subtle" colorPalette={r.statusColor}>
                          {r.status}
                        </Badge>
                      )}
                    </HStack>
                  </Table.Cell>
                  <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" data-testid="limit-level-limit">
                    {t('usdt', { amount: formatUsdt(r.limit) })}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </Card.Body>
    </Card.Root>
  )
}
