import { Alert, Badge, Box, Button, HStack, Link as ChakraLink, Stack, Text } from '@chakra-ui/react'
import { LuArrowRight } from 'react-icons/lu'
import { DataTable, type DataColumn } from '@/components/data/data-table'
import { AppLink } from '@/components/layout/app-link'
import { groupThousands } from '@/lib/group-thousands'
import type { TranslateFn } from '@/lib/i18n'
import type { CancelReason, Holding } from '../api/check-cancellation'
import { reasonHref } from '../lib/close-account'

/**
 * What keeps the account open: each reason of the check with the server's
 * message (in the user's language), its count, the balances of a balance
 * reason, and a link to where it is settled.
 */
export function CancelReasons({
  reasons,
  t,
  onCheckAgain,
  checking,
}: {
  reasons: CancelReason[]
  t: TranslateFn
  onCheckAgain: () => void
  checking: boolean
}) {
  return (
    <Stack gap="4" data-testid="cancel-blocked">
      <Alert.Root status="error" alignItems="flex-start">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('close.blockedTitle')}</Alert.Title>
          <Alert.Description>{t('close.blockedText')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={t('close.blockedTitle')}>
        {reasons.map((reason) => (
          <ReasonItem key={`${reason.type}-${reason.code}`} reason={reason} t={t} />
        ))}
      </Stack>
      <HStack justify="flex-end">
        <Button variant="outline" size="sm" onClick={onCheckAgain} loading={checking} data-testid="cancel-check-again">
          {t('close.checkAgain')}
        </Button>
      </HStack>
    </Stack>
  )
}

function ReasonItem({ reason, t }: { reason: CancelReason; t: TranslateFn }) {
  const href = reasonHref(reason.type)
  return (
    <Box as="li" borderWidth="1px" rounded="md" p={{ base: '3', md: '4' }} data-testid={`cancel-reason-${reason.type}`}>
      <Stack gap="3">
        <HStack justify="space-between" align="flex-start" gap="3">
          <Text fontWeight="medium">{reason.msg}</Text>
          {reason.count > 0 && (
            <Badge colorPalette="red" variant="subtle" flexShrink={0} data-testid="cancel-reason-count">
              {t('close.count', { count: reason.count })}
            </Badge>
          )}
        </HStack>
        {reason.type === 'balance' && reason.balances && reason.balances.length > 0 && (
          <HoldingsTable holdings={reason.balances} t={t} />
        )}
        {href && (
          <ChakraLink asChild colorPalette="brand" fontWeight="medium" textStyle="sm" alignSelf="flex-start">
            <AppLink href={href} data-testid="cancel-reason-link">
              {t(`close.links.${reason.type}`)}
              <LuArrowRight aria-hidden="true" />
            </AppLink>
          </ChakraLink>
        )}
      </Stack>
    </Box>
  )
}

function HoldingsTable({ holdings, t }: { holdings: Holding[]; t: TranslateFn }) {
  const accountName = (h: Holding) => {
    const name = t(`close.accounts.${h.account}`) || h.account
    return h.symbol ? `${name} · ${h.symbol}` : name
  }
  const columns: DataColumn<Holding>[] = [
    { id: 'coin', header: t('close.colCoin'), card: 'title', cell: (h) => <Text as="span" fontWeight="semibold">{h.coin}</Text> },
    { id: 'account', header: t('close.colAccount'), card: 'aside', cell: (h) => accountName(h) },
    { id: 'available', header: t('close.colAvailable'), numeric: true, cell: (h) => groupThousands(h.available) },
    { id: 'frozen', header: t('close.colFrozen'), numeric: true, cell: (h) => groupThousands(h.frozen) },
    { id: 'total', header: t('close.colTotal'), numeric: true, cell: (h) => groupThousands(h.total), testId: 'holding-total' },
  ]
  return (
    <DataTable<Holding>
      columns={columns}
      rows={holdings}
      rowKey={(h) => `${h.account}-${h.symbol ?? ''}-${h.coin}`}
      label={t('close.balancesLabel')}
      testId="cancel-holdings"
      rowTestId="cancel-holding"
      cardsBelow="md"
      emptyText=""
      size="sm"
    />
  )
}
