import { Badge, Box, Button, Center, HStack, Progress, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { AppLink } from '@/components/layout/app-link'
import { CoinIcon } from '@/features/wallet/components/shared'
import { loginHref } from '@/lib/auth-guard'
import { formatFixed, groupThousands, truncateTrim } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { StakingProject } from '../api/staking-api'
import { percentOf } from '../lib/amounts'

/** A limit as quoted: grouped, without trailing zeros ('50,000', '0.01'). */
export function limitText(value: string, precision: number): string {
  return groupThousands(truncateTrim(value, precision) || '0')
}

/** One figure of a card: its label over its value. */
function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap="0" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="sm" fontWeight="medium" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  )
}

/** How full a product's total cap is: a bar, with the staked amount and the cap in words. */
function CapBar({ t, p }: { t: TranslateFn; p: StakingProject }) {
  if (!p.totalCap) {
    return (
      <Text fontSize="xs" color="fg.muted" data-testid={`staking-pool-${p.id}`}>
        {t('products.staked', { amount: limitText(p.staked, p.precision), coin: p.coinSymbol })}
      </Text>
    )
  }
  const pct = percentOf(p.staked, p.totalCap) || '0'
  return (
    <Progress.Root value={Math.min(100, Number(pct))} size="sm" colorPalette="brand" data-testid={`staking-pool-${p.id}`}>
      <HStack justify="space-between" gap="2" mb="1" fontSize="xs">
        <Progress.Label color="fg.muted" fontWeight="normal">
          {t('products.pool')}
        </Progress.Label>
        <Text fontVariantNumeric="tabular-nums" color="fg.muted">
          {`${formatFixed(pct, 2)}%`}
        </Text>
      </HStack>
      <Progress.Track rounded="full">
        <Progress.Range />
      </Progress.Track>
      <Text fontSize="xs" color="fg.muted" mt="1" fontVariantNumeric="tabular-nums">
        {t('products.poolOf', {
          staked: limitText(p.staked, p.precision),
          cap: limitText(p.totalCap, p.precision),
          coin: p.coinSymbol,
        })}
      </Text>
    </Progress.Root>
  )
}

/**
 * The staking products, one card each (two or three to a row from md up,
 * one on phones): coin, term, APR, how rewards are paid, minimum, caps and
 * how full the pool is; Stake opens the stake dialog (a visitor signs in).
 */
export function ProductCards({
  t,
  projects,
  isLoading,
  error,
  signedIn,
  onStake,
}: {
  t: TranslateFn
  projects: StakingProject[]
  isLoading: boolean
  error?: { text: string; retryText: string; onRetry: () => void }
  signedIn: boolean
  onStake: (project: StakingProject) => void
}) {
  if (isLoading) {
    return (
      <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4" data-testid="staking-products-loading">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h="64" rounded="lg" />
        ))}
      </SimpleGrid>
    )
  }
  if (error && projects.length === 0) {
    return (
      <Stack align="center" py="8" gap="3" role="alert" data-testid="staking-products-error">
        <Text color="fg.error">{error.text}</Text>
        <Button size="sm" variant="outline" onClick={error.onRetry}>
          {error.retryText}
        </Button>
      </Stack>
    )
  }
  if (projects.length === 0) {
    return (
      <Center borderWidth="1px" borderStyle="dashed" rounded="lg" py="10" px="4" data-testid="staking-products-empty">
        <Text color="fg.muted">{t('products.empty')}</Text>
      </Center>
    )
  }
  return (
    <SimpleGrid as="ul" role="list" aria-label={t('products.label')} columns={{ base: 1, md: 2, lg: 3 }} gap="4" listStyleType="none" m="0" p="0" data-testid="staking-products">
      {projects.map((p) => {
        const name = p.showName || p.coinSymbol
        const nameId = `staking-product-${p.id}`
        return (
          <Box as="li" key={p.id} borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} display="flex" flexDirection="column" gap="4" data-testid={`staking-product-${p.id}`}>
            <HStack justify="space-between" align="flex-start" gap="2">
              <HStack gap="2" minW="0">
                <CoinIcon coin={p.coinSymbol} src={p.logo} size="sm" />
                <Stack gap="0" minW="0">
                  <Text fontWeight="semibold" id={nameId}>
                    {name}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {p.coinSymbol}
                  </Text>
                </Stack>
              </HStack>
              <Badge colorPalette={p.open ? 'green' : 'gray'} variant="subtle" flexShrink={0}>
                {p.open ? t('products.open') : t('products.closed')}
              </Badge>
            </HStack>
            <HStack justify="space-between" align="flex-end" gap="3">
              <Stack gap="0">
                <Text fontSize="xs" color="fg.muted">
                  {t('products.apr')}
                </Text>
                <Text fontSize="2xl" fontWeight="bold" color="up" fontVariantNumeric="tabular-nums" lineHeight="1.2" data-testid={`staking-apr-${p.id}`}>
                  {`${formatFixed(p.apr, 2)}%`}
                </Text>
              </Stack>
              <Stack gap="0" textAlign="end">
                <Text fontSize="xs" color="fg.muted">
                  {t('products.term')}
                </Text>
                <Text fontSize="lg" fontWeight="semibold" data-testid={`staking-term-${p.id}`}>
                  {t('products.days', { n: p.termDays })}
                </Text>
              </Stack>
            </HStack>
            <SimpleGrid columns={2} gap="3">
              <Figure label={t('products.payout')} value={t(`payout.${p.payout}`)} testId={`staking-payout-${p.id}`} />
              <Figure label={t('products.min')} value={`${limitText(p.minAmount, p.precision)} ${p.coinSymbol}`} testId={`staking-min-${p.id}`} />
              <Figure
                label={t('products.cap')}
                value={p.maxPerUser ? `${limitText(p.maxPerUser, p.precision)} ${p.coinSymbol}` : t('products.noCap')}
                testId={`staking-cap-${p.id}`}
              />
              <Figure
                label={t('products.remaining')}
                value={p.remaining ? `${limitText(p.remaining, p.precision)} ${p.coinSymbol}` : t('products.noCap')}
                testId={`staking-remaining-${p.id}`}
              />
            </SimpleGrid>
            <CapBar t={t} p={p} />
            <Box mt="auto">
              {signedIn ? (
                <Button
                  colorPalette="brand"
                  size="sm"
                  w="full"
                  disabled={!p.open}
                  aria-describedby={nameId}
                  onClick={() => onStake(p)}
                  data-testid={`staking-stake-${p.id}`}
                >
                  {t('products.stake')}
                </Button>
              ) : (
                <Button asChild colorPalette="brand" variant="outline" size="sm" w="full">
                  <AppLink href={loginHref('/staking')} aria-describedby={nameId} data-testid={`staking-signin-${p.id}`}>
                    {t('products.stake')}
                  </AppLink>
                </Button>
              )}
            </Box>
          </Box>
        )
      })}
    </SimpleGrid>
  )
}
