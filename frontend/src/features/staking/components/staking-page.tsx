import { Box, Button, Center, Container, Heading, HStack, Icon, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LuCalendarCheck, LuCoins, LuLock } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { useTexts, type TranslateFn } from '@/lib/i18n'
import { useUserInfo } from '@/lib/session'
import { projectsQuery, stakesQuery, type StakingProject } from '../api/staking-api'
import { stakingTexts } from '../lib/texts'
import { MyStakes } from './my-stakes'
import { ProductCards } from './product-cards'
import { StakeDialog } from './stake-dialog'

/** The three lines of "how it works", each with its picture. */
function HowItWorks({ t }: { t: TranslateFn }) {
  const steps = [
    { id: 'lock', icon: LuLock },
    { id: 'rewards', icon: LuCoins },
    { id: 'release', icon: LuCalendarCheck },
  ] as const
  return (
    <Box as="section" aria-labelledby="staking-how" borderWidth="1px" rounded="lg" bg="bg.subtle" p={{ base: '3', md: '4' }}>
      <Heading as="h2" size="sm" id="staking-how" mb="3">
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
 * /staking (spec §2 staking page): the locked staking products with their
 * term, APR, how rewards are paid, limits and how full each pool is, each
 * with Stake; for a signed-in user "My stakes" with spec §4's status labels,
 * the rewards paid, kept and expected, and early redemption.
 */
export function StakingPage() {
  const { t, ready } = stakingTexts.useTexts()
  const common = useTexts('common')
  const { isSignedIn, isLoading: userLoading } = useUserInfo()
  const projects = useQuery(projectsQuery)
  const stakes = useQuery({ ...stakesQuery, enabled: isSignedIn })
  const [open, setOpen] = useState<{ open: boolean; project?: StakingProject }>({ open: false })

  if (!ready) {
    return (
      <Center py="24" gap="2" role="status" data-testid="staking-page-loading">
        <Spinner size="sm" />
        <Text color="fg.muted">{common.t('loading')}</Text>
      </Center>
    )
  }

  return (
    <Container maxW="6xl" py={{ base: '6', md: '10' }} px={{ base: '4', md: '6' }} data-testid="staking-page">
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

        <Box as="section" aria-labelledby="staking-products-title">
          <Heading as="h2" size="lg" id="staking-products-title" mb="3">
            {t('products.title')}
          </Heading>
          <ProductCards
            t={t}
            projects={projects.data ?? []}
            isLoading={projects.isLoading}
            error={projects.isError ? { text: t('products.error'), retryText: common.t('retry'), onRetry: () => void projects.refetch() } : undefined}
            signedIn={isSignedIn}
            onStake={(project) => setOpen({ open: true, project })}
          />
        </Box>

        {isSignedIn ? (
          <Box as="section" aria-labelledby="staking-mine-title" data-testid="staking-mine">
            <HStack justify="space-between" align="center" gap="3" mb="3" flexWrap="wrap">
              <Heading as="h2" size="lg" id="staking-mine-title">
                {t('mine.title')}
              </Heading>
              <Button asChild size="sm" variant="ghost" colorPalette="brand">
                <AppLink href="/order/finance" data-testid="staking-records-link">
                  {t('mine.records')}
                </AppLink>
              </Button>
            </HStack>
            <MyStakes
              t={t}
              stakes={stakes.data ?? []}
              isLoading={stakes.isLoading}
              error={stakes.isError ? { text: t('mine.error'), retryText: common.t('retry'), onRetry: () => void stakes.refetch() } : undefined}
            />
          </Box>
        ) : userLoading ? null : (
          <Stack
            direction={{ base: 'column', sm: 'row' }}
            justify="space-between"
            align={{ base: 'stretch', sm: 'center' }}
            gap="3"
            borderWidth="1px"
            rounded="lg"
            p="4"
            data-testid="staking-signin"
          >
            <Text>{t('page.signIn')}</Text>
            <Button asChild colorPalette="brand" size="sm">
              <AppLink href={loginHref('/staking')}>{t('page.signInAction')}</AppLink>
            </Button>
          </Stack>
        )}
      </Stack>

      <StakeDialog open={open.open} project={open.project} onClose={() => setOpen((o) => ({ ...o, open: false }))} />
    </Container>
  )
}
