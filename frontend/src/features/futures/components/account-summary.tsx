import { Button, HStack, Stack, Text } from '@chakra-ui/react'
import { LuArrowLeftRight } from 'react-icons/lu'
import { useUserInfo } from '@/lib/session'
import type { ContractInfo } from '../api/futures-api'
import { useAssets } from '../api/use-futures'
import { marginRatioLevel, money, pnlColor, RATIO_COLORS, ratioText, signedMoney, spendable } from '../lib/format'
import { futuresTexts } from '../lib/texts'

function Line({ label, value, color, testId, title }: { label: string; value: string; color?: string; testId: string; title?: string }) {
  return (
    <HStack justify="space-between" gap="2" fontSize="xs" title={title}>
      <Text color="fg.muted">{label}</Text>
      <Text fontVariantNumeric="tabular-nums" color={color} data-testid={testId}>
        {value}
      </Text>
    </HStack>
  )
}

/**
 * The futures account in the contract's margin coin, under the form: the
 * cross margin ratio (coloured by how close it is to liquidation at 100 %),
 * maintenance margin, margin and wallet balances, unrealized PnL and what
 * is available, with the Transfer shortcut.
 */
export function AccountSummary({ contract, onTransfer }: { contract: ContractInfo; onTransfer: () => void }) {
  const { t } = futuresTexts.useTexts()
  const { isSignedIn } = useUserInfo()
  const assets = useAssets()
  if (!isSignedIn) return null
  const coin = contract.marginCoin
  const a = assets.data?.accountList?.find((x) => x.coin === coin)
  const v = (x: string | undefined) => (assets.data ? `${money(x ?? '0')} ${coin}` : '…')
  const level = marginRatioLevel(a?.marginRatio)
  return (
    <Stack gap="1.5" p="3" borderTopWidth="1px" data-testid="futures-account">
      <HStack justify="space-between">
        <Text fontWeight="semibold" fontSize="sm">
          {t('account.title', { coin })}
        </Text>
        <Button size="2xs" variant="outline" onClick={onTransfer} data-testid="futures-account-transfer">
          <LuArrowLeftRight aria-hidden="true" />
          {t('account.transfer')}
        </Button>
      </HStack>
      <Line label={t('account.marginRatio')} value={assets.data ? ratioText(a?.marginRatio ?? '0') : '…'} color={RATIO_COLORS[level]} testId="account-margin-ratio" title={t('account.marginRatioHint')} />
      <Line label={t('account.maintenance')} value={v(a?.maintenanceMargin)} testId="account-maintenance" />
      <Line label={t('account.marginBalance')} value={v(a?.marginBalance)} testId="account-margin-balance" />
      <Line label={t('account.walletBalance')} value={v(a?.walletBalance)} testId="account-wallet-balance" />
      <Line label={t('account.unrealizedPnl')} value={assets.data ? `${signedMoney(a?.unrealizedPnl ?? '0')} ${coin}` : '…'} color={pnlColor(a?.unrealizedPnl)} testId="account-pnl" />
      <Line label={t('account.positionMargin')} value={v(a?.positionMargin)} testId="account-position-margin" />
      <Line label={t('account.orderMargin')} value={v(a?.orderMargin)} testId="account-order-margin" />
      <Line label={t('account.available')} value={assets.data ? `${spendable(a?.availableBalance ?? '0')} ${coin}` : '…'} testId="account-available" />
    </Stack>
  )
}
