import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react'
import { DataTable, type DataColumn, type DataLayout } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { CoinIcon } from '@/features/wallet/components/shared'
import { loginHref } from '@/lib/auth-guard'
import { formatFixed, groupThousands, parseDec, truncateTrim } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import type { Project } from '../api/savings-api'

/** The rate as quoted ('6.5% per year'): the product's period rate without trailing zeros. */
export function quotedRate(t: TranslateFn, project: Pick<Project, 'rate' | 'period'>): string {
  return t(`rates.${project.period}`, { rate: truncateTrim(project.rate, 8) || '0' })
}

/** A product's limit as quoted: grouped, without trailing zeros ('1,000,000', '0.0001'). */
export function limitText(value: string, precision: number): string {
  return groupThousands(truncateTrim(value, precision) || '0')
}

/** The tiers as lines: each part of the balance and its yearly rate. */
export function tierLines(t: TranslateFn, project: Project): { label: string; yearRate: string }[] {
  let previous = ''
  return project.tiers.map((tier) => {
    const label = tier.upTo
      ? t('tiers.upTo', { amount: limitText(tier.upTo, project.precision), coin: project.coinSymbol })
      : t('tiers.above', { amount: limitText(previous || '0', project.precision), coin: project.coinSymbol })
    previous = tier.upTo
    return { label, yearRate: tier.yearRate }
  })
}

/**
 * The tier rates as bars: each part of the balance with its yearly rate,
 * the bar's length its share of the highest rate. The words carry the
 * figures; the bars are a picture of them.
 */
export function TierBars({ t, project }: { t: TranslateFn; project: Project }) {
  const lines = tierLines(t, project)
  const top = Math.max(...lines.map((l) => Number(l.yearRate) || 0), 0)
  return (
    <Stack gap="1.5" minW={{ base: '0', md: '48' }} data-testid={`tiers-${project.coinSymbol}`}>
      {lines.map((l) => (
        <Stack key={l.label} gap="0.5">
          <HStack justify="space-between" gap="2" fontSize="xs">
            <Text color="fg.muted">{l.label}</Text>
            <Text fontWeight="medium" fontVariantNumeric="tabular-nums">{`${formatFixed(l.yearRate, 2)}%`}</Text>
          </HStack>
          <Box h="1.5" rounded="full" bg="bg.muted" aria-hidden="true">
            <Box h="full" rounded="full" bg="brand.solid" width={`${top > 0 ? Math.max(4, ((Number(l.yearRate) || 0) / top) * 100) : 0}%`} />
          </Box>
        </Stack>
      ))}
    </Stack>
  )
}

function productColumns(t: TranslateFn): DataColumn<Project>[] {
  return [
    {
      id: 'product',
      header: t('products.product'),
      card: 'title',
      cell: (p) => (
        <HStack gap="2">
          <CoinIcon coin={p.coinSymbol} src={p.logo} size="sm" />
          <Stack gap="0">
            <Text fontWeight="semibold">{p.showName || p.coinSymbol}</Text>
            <Text fontSize="xs" color="fg.muted" fontWeight="normal">
              {p.coinSymbol}
            </Text>
          </Stack>
        </HStack>
      ),
    },
    {
      id: 'status',
      header: t('products.status'),
      card: 'aside',
      cell: (p) => (
        <Badge colorPalette={p.open ? 'green' : 'gray'} variant="subtle" data-testid={`product-status-${p.coinSymbol}`}>
          {p.open ? t('products.open') : t('products.closed')}
        </Badge>
      ),
    },
    {
      id: 'apr',
      header: t('products.apr'),
      testId: (p) => `product-apr-${p.coinSymbol}`,
      cell: (p, layout) => (
        <Stack gap="0" align={layout === 'cards' ? 'flex-end' : 'flex-start'}>
          <Text fontSize={layout === 'cards' ? 'md' : 'lg'} fontWeight="bold" color="up" fontVariantNumeric="tabular-nums">
            {`${formatFixed(p.yearRate, 2)}%`}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {quotedRate(t, p)}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'tiers',
      header: t('products.tiers'),
      // On a card the tiers take a full-width line of their own (their lines name themselves), and none without tiers.
      card: 'line',
      cell: (p, layout) =>
        p.tiers.length > 1 ? (
          <Box textAlign="start" color="fg" fontSize="sm">
            <TierBars t={t} project={p} />
          </Box>
        ) : layout === 'cards' ? null : (
          '—'
        ),
    },
    {
      id: 'min',
      header: t('products.min'),
      numeric: true,
      testId: (p) => `product-min-${p.coinSymbol}`,
      cell: (p) => `${limitText(p.minAmount, p.precision)} ${p.coinSymbol}`,
    },
    {
      id: 'cap',
      header: t('products.cap'),
      numeric: true,
      cell: (p) => (parseDec(p.maxPerUser) ? `${limitText(p.maxPerUser, p.precision)} ${p.coinSymbol}` : t('products.noCap')),
    },
  ]
}

/**
 * The savings products: a table from md up, a card per product on phones.
 * Subscribe opens the subscription dialog (or sign-in for a visitor).
 */
export function ProductList({
  t,
  projects,
  isLoading,
  error,
  signedIn,
  onSubscribe,
}: {
  t: TranslateFn
  projects: Project[]
  isLoading: boolean
  error?: { text: string; retryText: string; onRetry: () => void }
  signedIn: boolean
  onSubscribe: (coin: string) => void
}) {
  const actions = (p: Project, layout: DataLayout) => {
    const style = layout === 'cards' ? ({ flex: '1', size: 'sm' } as const) : ({ size: 'sm' } as const)
    if (!signedIn) {
      return (
        <Button asChild colorPalette="brand" variant="outline" {...style}>
          <AppLink href={loginHref('/savings')} aria-label={t('products.subscribeTo', { name: p.showName || p.coinSymbol })} data-testid={`product-signin-${p.coinSymbol}`}>
            {t('products.subscribe')}
          </AppLink>
        </Button>
      )
    }
    return (
      <Button
        colorPalette="brand"
        {...style}
        disabled={!p.open}
        aria-label={t('products.subscribeTo', { name: p.showName || p.coinSymbol })}
        onClick={() => onSubscribe(p.coinSymbol)}
        data-testid={`product-subscribe-${p.coinSymbol}`}
      >
        {t('products.subscribe')}
      </Button>
    )
  }
  return (
    <DataTable<Project>
      columns={productColumns(t)}
      rows={projects}
      rowKey={(p) => p.id}
      label={t('products.label')}
      testId="savings-products"
      rowTestId={(p) => `product-${p.coinSymbol}`}
      actions={actions}
      actionsLabel={t('products.actions')}
      isLoading={isLoading}
      emptyText={t('products.empty')}
      emptyTestId="savings-products-empty"
      error={error}
      size="md"
    />
  )
}
