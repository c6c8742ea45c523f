import { Box, Button, HStack, SimpleGrid, Stack, Switch, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import { walletKeys } from '@/features/wallet/api/wallet-api'
import { CoinIcon, notifyFailure } from '@/features/wallet/components/shared'
import { formatCut, isPositive } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { isSuccess } from '@/lib/request-client'
import { confirmAutoSub, savingsKeys, type Holding } from '../api/savings-api'

/** A holding the page shows: something held, on its way in or out, or auto-subscribe on. */
export function isHeld(h: Holding): boolean {
  return isPositive(h.amount) || isPositive(h.pending) || isPositive(h.redeeming) || h.autoStatus === 1
}

/** One figure of a holding: its label over its value. */
function Figure({ label, value, testId, strong }: { label: string; value: string; testId: string; strong?: boolean }) {
  return (
    <Stack gap="0.5" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text
        fontSize={strong ? 'lg' : 'sm'}
        fontWeight={strong ? 'semibold' : 'medium'}
        fontVariantNumeric="tabular-nums"
        overflowWrap="anywhere"
        data-testid={testId}
      >
        {value}
      </Text>
    </Stack>
  )
}

/** The auto-subscribe switch of a holding: on or off at once (confirm_auto_sub). */
function AutoSwitch({ t, holding }: { t: TranslateFn; holding: Holding }) {
  const queryClient = useQueryClient()
  const hintId = useId()
  const coin = holding.coinSymbol
  const change = useMutation({
    mutationFn: (on: boolean) => confirmAutoSub(holding.id, coin, on),
    onSuccess: async (envelope, on) => {
      // A refusal has had its toast with the server's words.
      if (!isSuccess(envelope)) return
      notifySuccess(t(on ? 'mine.autoOn' : 'mine.autoOff', { coin }))
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: savingsKeys.holdings }),
        queryClient.invalidateQueries({ queryKey: walletKeys.all }),
      ])
    },
    onError: (e) => notifyFailure(e),
  })
  const on = change.isPending ? !!change.variables : holding.autoStatus === 1
  return (
    <Switch.Root
      checked={on}
      disabled={change.isPending}
      onCheckedChange={(d) => change.mutate(d.checked)}
      colorPalette="brand"
      size="sm"
      alignItems="flex-start"
      data-testid={`holding-auto-${coin}`}
      data-on={on || undefined}
    >
      <Switch.HiddenInput aria-describedby={hintId} />
      <Switch.Control mt="0.5">
        <Switch.Thumb />
      </Switch.Control>
      <Stack gap="0">
        <Switch.Label>{t('mine.auto')}</Switch.Label>
        <Text fontSize="xs" color="fg.muted" id={hintId} maxW="xs">
          {t('mine.autoHint', { coin })}
        </Text>
      </Stack>
    </Switch.Root>
  )
}

/**
 * The user's savings, one card per product held: what is held (interest
 * included), what earns today, what is pending until tomorrow, yesterday's
 * and all interest, today's estimate, the auto-subscribe switch, and
 * Subscribe more and Redeem.
 */
export function HoldingCards({
  t,
  holdings,
  onSubscribe,
  onRedeem,
}: {
  t: TranslateFn
  holdings: Holding[]
  onSubscribe: (coin: string) => void
  onRedeem: (coin: string) => void
}) {
  return (
    <Stack as="ul" role="list" listStyleType="none" m="0" p="0" gap="3" data-testid="savings-holdings">
      {holdings.map((h) => {
        const p = h.precision
        const coin = h.coinSymbol
        const amount = (v: string) => `${formatCut(v, p)} ${coin}`
        const name = h.showName || coin
        return (
          <Box as="li" key={h.id} borderWidth="1px" rounded="lg" bg="bg.panel" p={{ base: '3', md: '4' }} data-testid={`holding-${coin}`}>
            <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" gap="3" mb="4">
              <HStack gap="2" minW="0">
                <CoinIcon coin={coin} src={h.logo} size="sm" />
                <Text fontWeight="semibold" id={`savings-holding-${coin}`}>
                  {name}
                </Text>
              </HStack>
              <AutoSwitch t={t} holding={h} />
            </Stack>
            <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
              <Figure label={t('mine.held')} value={amount(h.amount)} testId={`holding-amount-${coin}`} strong />
              <Figure label={t('mine.earning')} value={amount(h.earning)} testId={`holding-earning-${coin}`} />
              <Figure label={t('mine.pending')} value={amount(h.pending)} testId={`holding-pending-${coin}`} />
              <Figure label={t('mine.redeemable')} value={amount(h.redeemable)} testId={`holding-redeemable-${coin}`} />
              <Figure label={t('mine.yesterday')} value={amount(h.interestYesterday)} testId={`holding-yesterday-${coin}`} />
              <Figure label={t('mine.total')} value={amount(h.totalInterest)} testId={`holding-total-${coin}`} />
              <Figure label={t('mine.today')} value={`≈ ${amount(h.estimatedInterestToday)}`} testId={`holding-today-${coin}`} />
              {isPositive(h.redeeming) ? (
                <Figure
                  label={t('mine.redeeming', { date: h.redeemArriveDate })}
                  value={amount(h.redeeming)}
                  testId={`holding-redeeming-${coin}`}
                />
              ) : null}
            </SimpleGrid>
            <HStack gap="2" mt="4" justify={{ base: 'stretch', md: 'flex-end' }}>
              <Button
                size="sm"
                variant="outline"
                flex={{ base: '1', md: 'initial' }}
                disabled={!h.open}
                onClick={() => onSubscribe(coin)}
                aria-describedby={`savings-holding-${coin}`}
                data-testid={`holding-subscribe-${coin}`}
              >
                {t('mine.subscribe')}
              </Button>
              <Button
                size="sm"
                colorPalette="brand"
                flex={{ base: '1', md: 'initial' }}
                disabled={!isPositive(h.redeemable)}
                onClick={() => onRedeem(coin)}
                aria-describedby={`savings-holding-${coin}`}
                data-testid={`holding-redeem-${coin}`}
              >
                {t('mine.redeem')}
              </Button>
            </HStack>
          </Box>
        )
      })}
    </Stack>
  )
}
