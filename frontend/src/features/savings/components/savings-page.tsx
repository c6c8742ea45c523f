import { Box, Button, Center, Container, Grid, Heading, HStack, Icon, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuArrowDownToLine, LuCalendarClock, LuCoins } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { holdingsQuery, projectsQuery } from '../api/savings-api'
import { savingsTexts } from '../lib/texts'
import { isHeld, HoldingCards } from './holdings'
import { InterestChart } from './interest-chart'
import { ProductList } from './product-list'
import { Records } from './records'
import { RedeemDialog } from './redeem-dialog'
import { SubscribeDialog } from './subscribe-dialog'

/** Which dialog is open, and for which coin (kept while a dialog closes, so its title stays). */
interface Open {
  dialog: 'subscribe' | 'redeem' | null
  coin: string
}

/** The three lines of "how it works", each with its picture. */
function HowItWorks({ t }: { t: TranslateFn }) {
  const steps = [
    { id: 'subscribe', icon: LuArrowDownToLine },
    { id: 'interest', icon: LuCoins },
    { id: 'redeem', icon: LuCalendarClock },
  ] as const
  return (
    <Box as="section" aria-labelledby="savings-how" borderWidth="1px" rounded="lg" bg="bg.subtle" p={{ base: '3', md: '4' }}>
      <Heading as="h2" size="sm" id="savings-how" mb="3">
        {t('how.title')}
      </Heading>
      <SimpleGrid as="ol" columns={{ base: 1, md: 3 }} gap="3" listStyleType="none" m="0" p="0">
        {steps.map((s) => (
          <HStack as="li" key={s.id} align="flex-start" gap="2">
            <Icon as={s.icon} boxSize="5" color="brand.fg" mt="0.5" flexShrink={0} aria-hidden="true" />
            <Text fontSize="sm">{t(`how.${s.id}`)}</Text>
          </HStack>
        ))}
      </SimpleGrid>
    </Box>
  )
}

/**
 * /savings (spec §2 savings page): the flexible savings products with their
 * yearly rate, the rate as quoted, tiers, minimum, cap and whether they are
 * open, each with Subscribe; for a signed-in user "My savings" (holdings,
 * interest per day, records). Subscribe and Redeem open the dialogs the
 * wallet's earn view opens too.
 */
export function SavingsPage() {
  const { t, ready } = savingsTexts.useTexts()
  const common = useTexts('common')
  const { isSignedIn, isLoading: userLoading } = useUserInfo()
  const projects = useQuery(projectsQuery)
  const holdings = useQuery({ ...holdingsQuery, enabled: isSignedIn })
  const [open, setOpen] = useState<Open>({ dialog: null, coin: '' })
  const held = (holdings.data ?? []).filter(isHeld)
  const precision = new Map((projects.data ?? []).map((p) => [p.coinSymbol, p.precision]))
  const places = (coin: string) => precision.get(coin) ?? 8
  const subscribe = (coin: string) => setOpen({ dialog: 'subscribe', coin })
  const redeem = (coin: string) => setOpen({ dialog: 'redeem', coin })

  if (!ready) {
    return (
      <Center py="24" gap="2" role="status" data-testid="savings-page-loading">
        <Spinner size="sm" />
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  return (
    <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="savings-page">
      <Stack gap={{ base: '6', md: '8' }}>
        <Stack gap="2">
          <Heading as="h1" size={{ base: 'xl', md: '2xl' }}>
            {t('page.title')}
          </Heading>
          <Text color="fg.muted" maxW="3xl">
            {t('page.subtitle')}
          </Text>
        </Stack>

        <HowItWorks t={t} />

        <Box as="section" aria-labelledby="savings-products-title">
          <Heading as="h2" size="lg" id="savings-products-title" mb="3">
            {t('products.title')}
          </Heading>
          <ProductList
            t={t}
            projects={projects.data ?? []}
            isLoading={projects.isLoading}
            error={projects.isError ? { text: t('products.error'), retryText: common.t('retry'), onRetry: () => void projects.refetch() } : undefined}
            signedIn={isSignedIn}
            onSubscribe={subscribe}
          />
        </Box>

        {isSignedIn ? (
          <Stack gap={{ base: '6', md: '8' }}>
            <Box as="section" aria-labelledby="savings-mine-title" data-testid="savings-mine">
              <Heading as="h2" size="lg" id="savings-mine-title" mb="3">
                {t('mine.title')}
              </Heading>
              {holdings.isLoading ? (
                <Center py="8" gap="2" role="status">
                  <Spinner size="sm" />
                  <Text color="fg.muted">{common.t('loading')}</Text>
                </Center>
              ) : holdings.isError ? (
                <Stack align="center" py="8" gap="3" role="alert" data-testid="savings-mine-error">
                  <Text color="fg.error">{t('mine.error')}</Text>
                  <Button size="sm" variant="outline" onClick={() => void holdings.refetch()}>
                    {common.t('retry')}
                  </Button>
                </Stack>
              ) : (
                <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="4" alignItems="start">
                  {held.length > 0 ? (
                    <HoldingCards t={t} holdings={held} onSubscribe={subscribe} onRedeem={redeem} />
                  ) : (
                    <Center borderWidth="1px" borderStyle="dashed" rounded="lg" py="10" px="4" data-testid="savings-mine-empty">
                      <Text color="fg.muted" textAlign="center">
                        {t('mine.empty')}
                      </Text>
                    </Center>
                  )}
                  <InterestChart t={t} holdings={holdings.data ?? []} />
                </Grid>
              )}
            </Box>
            <Records t={t} places={places} loadingText={common.t('loading')} retryText={common.t('retry')} />
          </Stack>
        ) : userLoading ? null : (
          <Stack
            direction={{ base: 'column', sm: 'row' }}
            justify="space-between"
            align={{ base: 'stretch', sm: 'center' }}
            gap="3"
            borderWidth="1px"
            rounded="lg"
            p="4"
            data-testid="savings-signin"
          >
            <Text>{t('page.signIn')}</Text>
            <Button asChild colorPalette="brand" size="sm">
              <AppLink href={loginHref('/savings')}>{t('page.signInAction')}</AppLink>
            </Button>
          </Stack>
        )}
      </Stack>

      <SubscribeDialog open={open.dialog === 'subscribe'} coin={open.coin} onClose={() => setOpen((o) => ({ ...o, dialog: null }))} />
      <RedeemDialog open={open.dialog === 'redeem'} coin={open.coin} onClose={() => setOpen((o) => ({ ...o, dialog: null }))} />
    </Container>
  )
}
