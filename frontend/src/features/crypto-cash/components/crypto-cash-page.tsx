import { Box, Button, Center, Container, Grid, Heading, HStack, Icon, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { LuBadgeAlert, LuShieldCheck, LuTriangleAlert } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { collateralPricesQuery, loanConfigQuery, loansQuery, type LoanConfig } from '../api/crypto-cash-api'
import { fractionPercent, thresholdsOf, type Thresholds } from '../lib/ltv'
import { cryptoCashTexts } from '../lib/texts'
import { BorrowForm } from './borrow-form'
import { LoanRecords } from './loan-records'
import { MyLoans } from './my-loans'

/** How a loan works, by its LTV thresholds. */
function Rules({ t, config, thresholds }: { t: TranslateFn; config: LoanConfig; thresholds: Thresholds }) {
  const items = [
    { id: 'initial', icon: LuShieldCheck, color: 'green.fg', vars: { ltv: thresholds.initial } },
    { id: 'marginCall', icon: LuBadgeAlert, color: 'orange.fg', vars: { ltv: thresholds.marginCall } },
    {
      id: 'liquidation',
      icon: LuTriangleAlert,
      color: 'red.fg',
      vars: { ltv: thresholds.liquidation, fee: fractionPercent(config.liquidationFee), grace: config.graceHours },
    },
  ] as const
  return (
    <Box as="section" aria-labelledby="loan-rules-title" borderWidth="1px" rounded="lg" bg="bg.subtle" p={{ base: '3', md: '5' }} data-testid="loan-rules">
      <Heading as="h2" size="sm" id="loan-rules-title" mb="3">
        {t('rules.title')}
      </Heading>
      <Stack as="ul" listStyleType="none" m="0" p="0" gap="3">
        {items.map((i) => (
          <HStack as="li" key={i.id} align="flex-start" gap="2">
            <Icon as={i.icon} boxSize="5" color={i.color} mt="0.5" flexShrink={0} aria-hidden="true" />
            <Text fontSize="sm">{t(`rules.${i.id}`, i.vars)}</Text>
          </HStack>
        ))}
        <Text as="li" fontSize="sm" color="fg.muted">
          {t('rules.interest')}
        </Text>
      </Stack>
    </Box>
  )
}

/**
 * /cryptoCash (spec §2 crypto cash page): borrow USDT or BTC against crypto
 * for 7, 14, 30 or 90 days: the borrow form with its quote and LTV, the
 * rules of the thresholds; for a signed-in user "My loans" (repay, adjust
 * collateral) and the loan records.
 */
export function CryptoCashPage() {
  const { t, ready } = cryptoCashTexts.useTexts()
  const common = useTexts('common')
  const { isSignedIn, isLoading: userLoading } = useUserInfo()
  const config = useQuery(loanConfigQuery)
  const prices = useQuery(collateralPricesQuery)
  const loans = useQuery({ ...loansQuery, enabled: isSignedIn, refetchInterval: 30_000 })

  if (!ready || config.isPending) {
    return (
      <Center py="24" gap="2" role="status" data-testid="crypto-cash-loading">
        <Spinner size="sm" />
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  if (config.isError) {
    return (
      <Stack align="center" py="24" gap="3" role="alert" data-testid="crypto-cash-error">
        <Text color="fg.error">{t('page.error')}</Text>
        <Button size="sm" variant="outline" onClick={() => void config.refetch()}>
          {common.t('retry')}
        </Button>
      </Stack>
    )
  }

  const thresholds = thresholdsOf(config.data)
  return (
    <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="crypto-cash-page">
      <Stack gap={{ base: '6', md: '8' }}>
        <Stack gap="2">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
            {t('page.title')}
          </Heading>
          <Text color="fg.muted" maxW="3xl">
            {t('page.subtitle')}
          </Text>
        </Stack>

        <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="4" alignItems="start">
          <BorrowForm t={t} config={config.data} thresholds={thresholds} signedIn={isSignedIn} />
          <Rules t={t} config={config.data} thresholds={thresholds} />
        </Grid>

        {isSignedIn ? (
          <>
            <Box as="section" aria-labelledby="loans-title" data-testid="crypto-cash-mine">
              <HStack justify="space-between" align="center" gap="3" mb="3" flexWrap="wrap">
                <Heading as="h2" size="lg" id="loans-title">
                  {t('loans.heading')}
                </Heading>
                <Button asChild size="sm" variant="ghost" colorPalette="brand">
                  <AppLink href="/order/finance">{t('loans.allRecords')}</AppLink>
                </Button>
              </HStack>
              <MyLoans
                t={t}
                loans={loans.data ?? []}
                isLoading={loans.isLoading}
                error={loans.isError ? { text: t('loans.error'), retryText: common.t('retry'), onRetry: () => void loans.refetch() } : undefined}
                config={config.data}
                thresholds={thresholds}
                prices={prices.data}
                loadingText={common.t('loading')}
              />
            </Box>
            <Box as="section" aria-labelledby="loan-records-title">
              <Heading as="h2" size="lg" id="loan-records-title" mb="3">
                {t('records.title')}
              </Heading>
              <LoanRecords t={t} loadingText={common.t('loading')} retryText={common.t('retry')} />
            </Box>
          </>
        ) : userLoading ? null : (
          <Text color="fg.muted" data-testid="crypto-cash-signin">
            {t('page.signIn')}
          </Text>
        )}
      </Stack>
    </Container>
  )
}
