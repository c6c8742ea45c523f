import { Box, Button, Container, Flex, Heading, HStack, IconButton, SimpleGrid, Stack, Tabs } from '@chakra-ui/react'
import { lazy, Suspense, useEffect } from 'react'
import { LuArrowDownToLine, LuArrowLeftRight, LuArrowUpFromLine, LuBookUser, LuEye, LuEyeOff, LuHistory, LuKeyRound, LuLandmark } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { getLanguage } from '@/lib/cookies'
import { useTexts } from '@/lib/i18n'
import { useBalanceHide } from '../hooks/use-balance-hide'
import { CrossView, FuturesView, IsolatedView, OtcView, OverviewView, SpotView, useStateTexts } from './wallet-views'
import { QueryState } from './shared'
import { WALLET_VIEWS, type ModalState, type WalletSearch, type WalletView } from '../lib/search'
import { WalletModals } from './wallet-modals'

/**
 * The three main actions share one row on phones too (390 px, and 320 px on
 * small ones): there the icon goes above the label and the side padding is
 * small, so a long Mongolian label (Шилжүүлэх) stays inside its button;
 * under 360 px the label is one size smaller. From sm up they are ordinary
 * small buttons (the values of the button recipe's sm size).
 */
export const ACTION_BUTTON_LAYOUT = {
  flexDirection: { base: 'column', sm: 'row' },
  h: { base: 'auto', sm: '9' },
  py: { base: '2', sm: '0' },
  px: { base: '1', sm: '3.5' },
  gap: { base: '1', sm: '2' },
  minW: '0',
  css: { '@media screen and (max-width: 359.98px)': { fontSize: 'var(--chakra-font-sizes-xs)' } },
} as const

export { WALLET_VIEWS, type WalletSearch, type WalletView } from '../lib/search'

/** The earn view loads with its tab: it brings the savings dialogs, which the other views do not need. */
const EarnView = lazy(() => import('./earn-view').then((m) => ({ default: m.EarnView })))

/** The views' loading state while a view's own code loads. */
function ViewLoading() {
  const states = useStateTexts()
  return <QueryState isLoading isError={false} onRetry={() => {}} {...states}>{null}</QueryState>
}

/** The wallet area: header with actions, the account views, the modals. */
export function WalletPage({ search, onSearch }: { search: WalletSearch; onSearch: (next: WalletSearch) => void }) {
  const { t } = useTexts('wallet')
  const { hidden, toggle } = useBalanceHide()
  const view = search.view ?? 'overview'
  const openModal = (m: ModalState) => onSearch({ view: search.view, ...m })
  const closeModal = () => onSearch({ view: search.view })
  const props = { hidden, openModal }
  const lan = getLanguage()
  // On phones the tab row scrolls: keep the chosen view's tab in sight.
  useEffect(() => {
    const el = document.querySelector(`[data-testid="wallet-tab-${view}"]`) as HTMLElement | null
    el?.scrollIntoView?.({ block: 'nearest', inline: 'center' })
  }, [view])

  return (
    <Container maxW="7xl" py={{ base: '4', md: '8' }} data-testid="wallet-page">
      <Flex justify="space-between" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }} gap="4" mb="6">
        <HStack gap="2">
          <Heading as="h1" size="xl">
            {t('title')}
          </Heading>
          <IconButton
            size="sm"
            variant="ghost"
            // A toggle keeps one name; aria-pressed says whether balances are hidden
            // (a name that flips to "Show balances, pressed" reads as its opposite).
            aria-label={t('hideBalances')}
            aria-pressed={hidden}
            title={hidden ? t('showBalances') : t('hideBalances')}
            onClick={toggle}
            data-testid="balance-hide"
          >
            {hidden ? <LuEyeOff aria-hidden="true" /> : <LuEye aria-hidden="true" />}
          </IconButton>
        </HStack>
        <Stack gap="2" align={{ base: 'stretch', md: 'flex-end' }}>
          <SimpleGrid columns={3} gap="2" width={{ base: 'full', md: 'auto' }}>
            <Button size="sm" colorPalette="brand" onClick={() => openModal({ modal: 'deposit' })} {...ACTION_BUTTON_LAYOUT} data-testid="open-deposit">
              <LuArrowDownToLine aria-hidden="true" />
              {t('actions.deposit')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => openModal({ modal: 'withdraw' })} {...ACTION_BUTTON_LAYOUT} data-testid="open-withdraw">
              <LuArrowUpFromLine aria-hidden="true" />
              {t('actions.withdraw')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => openModal({ modal: 'transfer' })} {...ACTION_BUTTON_LAYOUT} data-testid="open-transfer">
              <LuArrowLeftRight aria-hidden="true" />
              {t('actions.transfer')}
            </Button>
          </SimpleGrid>
          <HStack gap={{ base: '0', md: '1' }} flexWrap="wrap" justify={{ base: 'flex-start', md: 'flex-end' }}>
            <Button asChild size="xs" variant="ghost">
              <AppLink href="/wallet/history" data-testid="history-link">
                <LuHistory aria-hidden="true" />
                {t('actions.history')}
              </AppLink>
            </Button>
            <Button asChild size="xs" variant="ghost">
              <AppLink href={`/${lan}/newAssets/addressMent`} data-testid="address-book-link">
                <LuBookUser aria-hidden="true" />
                {t('actions.addressBook')}
              </AppLink>
            </Button>
            <Button size="xs" variant="ghost" onClick={() => openModal({ modal: 'addBank' })} data-testid="open-add-bank">
              <LuLandmark aria-hidden="true" />
              {t('actions.addBank')}
            </Button>
            <Button size="xs" variant="ghost" onClick={() => openModal({ modal: 'tradePassword' })} data-testid="open-trade-password">
              <LuKeyRound aria-hidden="true" />
              {t('actions.tradePassword')}
            </Button>
          </HStack>
        </Stack>
      </Flex>

      <Tabs.Root
        value={view}
        onValueChange={(d) => onSearch({ view: d.value as WalletView })}
        variant="line"
        lazyMount
        unmountOnExit
      >
        {/*
          On phones the tab row scrolls sideways. The padding keeps a focused tab's ring
          inside the scroll box, which would otherwise clip it; the negative margin keeps
          the tabs where they were.
        */}
        <Box overflowX="auto" p="1" m="-1" data-testid="wallet-tabs-scroll">
          <Tabs.List minW="max-content">
            {WALLET_VIEWS.map((v) => (
              <Tabs.Trigger key={v} value={v} data-testid={`wallet-tab-${v}`}>
                {t(`views.${v}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Box>
        <Tabs.Content value="overview">
          <OverviewView {...props} />
        </Tabs.Content>
        <Tabs.Content value="spot">
          <SpotView {...props} />
        </Tabs.Content>
        <Tabs.Content value="cross">
          <CrossView {...props} />
        </Tabs.Content>
        <Tabs.Content value="isolated">
          <IsolatedView {...props} />
        </Tabs.Content>
        <Tabs.Content value="otc">
          <OtcView {...props} />
        </Tabs.Content>
        <Tabs.Content value="futures">
          <FuturesView {...props} />
        </Tabs.Content>
        <Tabs.Content value="earn">
          <Suspense fallback={<ViewLoading />}>
            <EarnView {...props} />
          </Suspense>
        </Tabs.Content>
      </Tabs.Root>

      <WalletModals state={search} onClose={closeModal} />
    </Container>
  )
}
