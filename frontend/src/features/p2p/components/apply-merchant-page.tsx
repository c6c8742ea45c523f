import { Alert, Button, Card, Dialog, Heading, HStack, List, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { LuShieldCheck, LuShieldX, LuWalletCards } from 'react-icons/lu'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { notifySuccess } from '@/lib/notify'
import { applyMerchant, fetchStats, releaseMerchant } from '../api/p2p-api'
import { p2pKeys } from '../api/types'
import { p2pTexts } from '../lib/texts'
import { LabelBadgeMerchant } from './merchant-state'
import { PageSkeleton } from './shared'

/**
 * /p2p/apply-merchant (spec §6: only a merchant places ads): the caller's
 * merchant state; while none, the requirement (a verified identity) and
 * Apply; while pending, that an operator is deciding; once approved, the
 * way to the ads and, without open ads, the way back to a regular trader.
 */
export function ApplyMerchantPage() {
  const { t, ready } = p2pTexts.useTexts()
  const queryClient = useQueryClient()
  const stats = useQuery({ queryKey: p2pKeys.stats(''), queryFn: ({ signal }) => fetchStats('', signal) })
  const [busy, setBusy] = useState(false)
  const [confirm, setConfirm] = useState(false)

  const act = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true)
    try {
      await action()
      notifySuccess(done)
      setConfirm(false)
    } catch {
      // Toasted by the request client.
    } finally {
      setBusy(false)
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'stats'] })
    }
  }

  if (!ready || stats.isPending) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>
  if (!stats.data) {
    return (
      <PageFrame title={t('merchant.title')}>
        <LoadError title={t('merchant.loadError')} retryLabel={t('retry')} onRetry={() => void stats.refetch()} retrying={stats.isFetching} testId="merchant-error" />
      </PageFrame>
    )
  }
  const s = stats.data
  const state = s.merchant === 'approved' || s.merchant === 'pending' ? s.merchant : 'none'

  return (
    <PageFrame
      title={t('merchant.title')}
      subtitle={t('merchant.subtitle')}
      badge={<LabelBadgeMerchant state={state} t={t} />}
      maxW="3xl"
      testId="apply-merchant"
    >
      <Card.Root data-testid="merchant-state" data-state={state}>
        <Card.Body>
          <Stack gap="4">
            {state === 'none' && (
              <>
                <Heading as="h2" size="md">
                  {t('merchant.requirements')}
                </Heading>
                <List.Root variant="plain" gap="2">
                  <Requirement met={s.kycVerified} text={t('merchant.reqVerified')} />
                  <Requirement met text={t('merchant.reqMethods')} hint />
                </List.Root>
                {!s.kycVerified && (
                  <Alert.Root status="warning">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Description>{t('merchant.verifyFirst')}</Alert.Description>
                    </Alert.Content>
                    <Button asChild size="sm" variant="outline" alignSelf="center">
                      <AppLink href="/profile/identity">{t('merchant.verify')}</AppLink>
                    </Button>
                  </Alert.Root>
                )}
                <Text textStyle="sm" color="fg.muted">
                  {t('merchant.applyHint')}
                </Text>
                <HStack>
                  <BusyButton
                    colorPalette="brand"
                    disabled={!s.kycVerified}
                    loading={busy}
                    onClick={() => void act(applyMerchant, t('merchant.applied'))}
                    data-testid="merchant-apply"
                  >
                    {t('merchant.apply')}
                  </BusyButton>
                </HStack>
              </>
            )}
            {state === 'pending' && (
              <Alert.Root status="info" data-testid="merchant-pending">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('merchant.pendingTitle')}</Alert.Title>
                  <Alert.Description>{t('merchant.pendingBody')}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            )}
            {state === 'approved' && (
              <>
                <Alert.Root status="success" data-testid="merchant-approved">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{t('merchant.approvedTitle')}</Alert.Title>
                    <Alert.Description>{t('merchant.approvedBody', { count: s.openAds })}</Alert.Description>
                  </Alert.Content>
                </Alert.Root>
                <HStack gap="3" flexWrap="wrap">
                  <Button asChild colorPalette="brand">
                    <AppLink href="/p2p/publish-ad">{t('nav.publishAd')}</AppLink>
                  </Button>
                  <Button asChild variant="outline">
                    <AppLink href="/p2p/my-advertising">{t('nav.myAds')}</AppLink>
                  </Button>
                </HStack>
                <Stack gap="2" borderTopWidth="1px" pt="4">
                  <Heading as="h2" size="sm">
                    {t('merchant.stopHeading')}
                  </Heading>
                  <Text textStyle="sm" color="fg.muted">
                    {s.openAds > 0 ? t('merchant.stopDisabled', { count: s.openAds }) : t('merchant.stopHint')}
                  </Text>
                  <HStack>
                    <Button variant="outline" colorPalette="red" disabled={s.openAds > 0} onClick={() => setConfirm(true)} data-testid="merchant-stop">
                      {t('merchant.stop')}
                    </Button>
                  </HStack>
                </Stack>
              </>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
      <ConfirmDialog
        open={confirm}
        onClose={() => setConfirm(false)}
        onConfirm={() => void act(releaseMerchant, t('merchant.stopped'))}
        title={t('merchant.stopTitle')}
        cancelLabel={t('cancel')}
        confirmLabel={t('merchant.stop')}
        busy={busy}
        testId="merchant-stop-dialog"
        confirmTestId="merchant-stop-confirm"
      >
        <Dialog.Description>{t('merchant.stopBody')}</Dialog.Description>
      </ConfirmDialog>
    </PageFrame>
  )
}

function Requirement({ met, text, hint }: { met: boolean; text: string; hint?: boolean }) {
  return (
    <List.Item alignItems="center" gap="2">
      <List.Indicator asChild color={hint ? 'fg.muted' : met ? 'fg.success' : 'fg.error'}>
        {hint ? <LuWalletCards /> : met ? <LuShieldCheck /> : <LuShieldX />}
      </List.Indicator>
      <Text as="span" color={hint ? 'fg.muted' : undefined}>
        {text}
      </Text>
    </List.Item>
  )
}
