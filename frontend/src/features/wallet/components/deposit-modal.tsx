import { Alert, Badge, Box, Button, Center, HStack, IconButton, Image, Separator, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { LuEye, LuEyeOff } from 'react-icons/lu'
import { AppLink } from '@/components/layout/app-link'
import { formatAtLeast, isPositive } from '@/lib/decimal'
import { useTexts } from '@/lib/i18n'
import { isSuccess } from '@/lib/request-client'
import {
  getAssets,
  getBankBlock,
  getChargeAddress,
  getDepositHistory,
  walletKeys,
  type AssetEntry,
  type ChainEntry,
  type DepositRecord,
} from '../api/wallet-api'
import { ADDRESS_SHORT_LIMIT, arrivalMinutes, formatTime, shortenAddress, splitDepositAddress } from '../lib/format'
import { defaultMethod } from '../lib/withdraw-errors'
import { AssetPicker } from './asset-picker'
import { ChainButtons, CopyButton, InfoRow, QueryState } from './shared'
import { WalletDialog } from './wallet-dialog'

const isBank = (chain: string) => chain.toLowerCase() === 'bank'

/** The deposit modal of spec §2: asset, balances, chain, address or bank block, recent deposits. */
export function DepositModal({ open, onClose, coin }: { open: boolean; onClose: () => void; coin?: string }) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  return (
    <WalletDialog open={open} onClose={onClose} title={t('deposit.title')} closeLabel={common.t('close')} testId="deposit-modal">
      <DepositBody coin={coin} />
    </WalletDialog>
  )
}

/** The asset list before it loads (one array, so effects depending on it do not rerun). */
const NO_ASSETS: AssetEntry[] = []

function DepositBody({ coin }: { coin?: string }) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const assets = useQuery({ queryKey: walletKeys.assets('deposit'), queryFn: () => getAssets('deposit') })
  const list = assets.data ?? NO_ASSETS
  const [value, setValue] = useState<string>('')
  const [chain, setChain] = useState<string>('')
  const asset = list.find((a) => a.value === value)

  // Default asset: the coin the modal was opened for, else the first (spec §4: MNT is the fiat's deposit code).
  // Its network only when it has one: on several, the user picks the one the coins will travel on.
  useEffect(() => {
    if (value || list.length === 0) return
    const wanted = coin ? list.find((a) => a.value === coin || a.code === coin) : undefined
    const first = wanted ?? list[0]
    setValue(first.value)
    setChain(defaultMethod(first.chains, 'deposit'))
  }, [list, coin, value])

  const choose = (a: AssetEntry) => {
    setValue(a.value)
    setChain(defaultMethod(a.chains, 'deposit'))
  }
  const chosen = asset?.chains.find((c) => c.name === chain)

  return (
    <QueryState
      isLoading={assets.isLoading}
      isError={assets.isError}
      isEmpty={list.length === 0}
      onRetry={() => void assets.refetch()}
      loadingText={common.t('loading')}
      errorText={common.t('error')}
      retryText={common.t('retry')}
      emptyText={t('deposit.noAssets')}
    >
      <Stack gap="4">
        <AssetPicker
          assets={list}
          value={value}
          onChange={choose}
          label={t('asset')}
          searchLabel={t('searchAsset')}
          emptyLabel={t('noMatch')}
        />
        {asset ? (
          <Stack gap="1.5" borderWidth="1px" rounded="md" p="3" data-testid="deposit-balances">
            <InfoRow label={t('balance')}>{`${formatAtLeast(asset.totalBalance, asset.fix)} ${asset.value}`}</InfoRow>
            <InfoRow label={t('available')} testId="deposit-available">{`${formatAtLeast(asset.normal_balance, asset.fix)} ${asset.value}`}</InfoRow>
            <InfoRow label={t('freeze')}>{`${formatAtLeast(asset.lockBalance, asset.fix)} ${asset.value}`}</InfoRow>
          </Stack>
        ) : null}
        {asset && asset.chains.length > 0 ? (
          <ChainButtons
            chains={asset.chains}
            value={chain}
            onChange={setChain}
            label={t('depositMethod')}
            bankLabel={t('bankMethod')}
          />
        ) : null}
        {asset && asset.chains.length > 1 && !chosen ? (
          <Text fontSize="sm" color="fg.muted" data-testid="deposit-choose-network">
            {t('deposit.chooseNetwork')}
          </Text>
        ) : null}
        {asset && chosen && !isBank(chosen.name) ? <DepositTerms chain={chosen} coin={asset.value} /> : null}
        {asset && chosen ? (
          isBank(chain) ? (
            <BankTransferBlock />
          ) : (
            <ChainAddress symbol={asset.value} chain={chain} />
          )
        ) : null}
        {asset ? <RecentDeposits coin={asset.code} fix={asset.fix} /> : null}
        <AppLink href="/wallet/history?tab=deposit" color="brand.fg" fontSize="sm" data-testid="deposit-history-link">
          {t('depositHistory')}
        </AppLink>
      </Stack>
    </QueryState>
  )
}

/** The spinner of the address and bank blocks, announced to screen readers. */
function Loading({ label }: { label: string }) {
  return (
    <Center py="6" role="status" aria-label={label} data-testid="deposit-block-loading">
      <Spinner size="sm" aria-hidden="true" />
    </Center>
  )
}

/** A block that did not load: the error and a retry. */
function LoadError({ text, retryText, onRetry }: { text: string; retryText: string; onRetry: () => void }) {
  return (
    <HStack justify="space-between" role="alert" data-testid="deposit-block-error">
      <Text color="fg.error" fontSize="sm">
        {text}
      </Text>
      <Button size="xs" variant="outline" onClick={onRetry}>
        {retryText}
      </Button>
    </HStack>
  )
}

/** What a depositor needs to know of the chosen network: its minimum deposit, confirmations and expected arrival. */
function DepositTerms({ chain, coin }: { chain: ChainEntry; coin: string }) {
  const { t } = useTexts('walletModals')
  const minutes = arrivalMinutes(chain.arrivalSeconds)
  const hasMin = isPositive(chain.depositMin)
  return (
    <Stack gap="1.5" borderWidth="1px" rounded="md" p="3" data-testid="deposit-terms">
      {hasMin ? <InfoRow label={t('deposit.minimum')} testId="deposit-min">{`${formatAtLeast(chain.depositMin, 0)} ${coin}`}</InfoRow> : null}
      {/* The watcher credits after at least one confirmation. */}
      <InfoRow label={t('deposit.confirmations')} testId="deposit-confirmations">
        {String(Math.max(1, chain.confirmations))}
      </InfoRow>
      {minutes !== undefined ? (
        <InfoRow label={t('deposit.arrival')} testId="deposit-arrival">
          {minutes === 0 ? t('deposit.arrivalUnderMinute') : t('deposit.arrivalMinutes', { n: minutes })}
        </InfoRow>
      ) : null}
      {hasMin ? (
        <Text fontSize="xs" color="fg.muted">
          {t('deposit.minNote')}
        </Text>
      ) : null}
    </Stack>
  )
}

function ChainAddress({ symbol, chain }: { symbol: string; chain: string }) {
  const { t } = useTexts('walletModals')
  const common = useTexts('common')
  const [whole, setWhole] = useState(false)
  const addressId = useId()
  const query = useQuery({
    queryKey: walletKeys.address(symbol, chain),
    queryFn: () => getChargeAddress(symbol, chain),
    staleTime: 5 * 60 * 1000,
  })
  if (query.isLoading) return <Loading label={common.t('loading')} />
  if (query.isError || !query.data) return <LoadError text={common.t('error')} retryText={common.t('retry')} onRetry={() => void query.refetch()} />
  const envelope = query.data
  // Spec §8: a non-zero code shows the server's message in place of the address.
  if (!isSuccess(envelope)) {
    return (
      <Alert.Root status="warning" data-testid="deposit-address-error">
        <Alert.Indicator />
        <Alert.Title>{envelope.msg || common.t('error')}</Alert.Title>
      </Alert.Root>
    )
  }
  const data = envelope.data
  // Spec §3: an address of the form address_memo is split into address and memo.
  const { address, memo } = splitDepositAddress(data)
  // Each copy button is named after what it copies, so a screen reader tells them apart.
  const copyProps = (what: string) => ({ label: t('copyField', { what }), copiedLabel: common.t('copied'), failedLabel: t('clipboardFailed') })
  return (
    <Stack gap="3" data-testid="deposit-address-block">
      {data.addressQRCode ? (
        <Center>
          <Image src={data.addressQRCode} alt={t('deposit.qrAlt', { coin: symbol })} boxSize="40" bg="white" p="2" rounded="md" data-testid="deposit-qr" />
        </Center>
      ) : null}
      <Stack gap="1">
        <Text fontSize="sm" color="fg.muted">
          {t('deposit.address')}
        </Text>
        <HStack justify="space-between" gap={{ base: '0', sm: '1' }} borderWidth="1px" rounded="md" px={{ base: '2', sm: '3' }} py="2">
          <Text
            id={addressId}
            flex="1"
            minW="0"
            fontFamily="mono"
            // The shortened address stays on one line beside its buttons on a 390 px phone.
            fontSize={{ base: 'xs', sm: 'sm' }}
            wordBreak="break-all"
            title={address}
            data-testid="deposit-address"
            data-address={address}
          >
            {whole ? address : shortenAddress(address)}
          </Text>
          {/* Spec §5 shortens a long address; the whole one is a press away (and copying always takes it whole). */}
          {address.length > ADDRESS_SHORT_LIMIT ? (
            <IconButton
              size="xs"
              variant="ghost"
              flexShrink={0}
              aria-label={t('deposit.showAddress')}
              title={t('deposit.showAddress')}
              aria-pressed={whole}
              aria-controls={addressId}
              onClick={() => setWhole((w) => !w)}
              data-testid="toggle-whole-address"
            >
              {whole ? <LuEyeOff aria-hidden="true" /> : <LuEye aria-hidden="true" />}
            </IconButton>
          ) : null}
          <CopyButton text={address} testId="copy-address" {...copyProps(t('deposit.address'))} />
        </HStack>
      </Stack>
      {memo ? (
        <Stack gap="1">
          <Text fontSize="sm" color="fg.muted">
            {t('deposit.memo')}
          </Text>
          <HStack justify="space-between" borderWidth="1px" rounded="md" px="3" py="2">
            <Text fontFamily="mono" fontSize="sm" data-testid="deposit-memo">
              {memo}
            </Text>
            <CopyButton text={memo} testId="copy-memo" {...copyProps(t('deposit.memo'))} />
          </HStack>
          <Alert.Root status="warning" size="sm">
            <Alert.Indicator />
            <Alert.Description>{t('deposit.memoWarning')}</Alert.Description>
          </Alert.Root>
        </Stack>
      ) : null}
      <Text fontSize="xs" color="fg.muted">
        {t('deposit.chainNote', { chain })}
      </Text>
    </Stack>
  )
}

function BankTransferBlock() {
  const { t, lan } = useTexts('walletModals')
  const common = useTexts('common')
  const query = useQuery({ queryKey: walletKeys.bankBlock, queryFn: getBankBlock, staleTime: 10 * 60 * 1000 })
  if (query.isLoading) return <Loading label={common.t('loading')} />
  if (query.isError || !query.data) return <LoadError text={common.t('error')} retryText={common.t('retry')} onRetry={() => void query.refetch()} />
  const b = query.data
  const mn = lan === 'mn_MN'
  // Each copy button is named after what it copies, so a screen reader tells them apart.
  const copyProps = (what: string) => ({ label: t('copyField', { what }), copiedLabel: common.t('copied'), failedLabel: t('clipboardFailed') })
  return (
    <Stack gap="2" borderWidth="1px" rounded="md" p="3" data-testid="bank-block">
      <Text fontWeight="semibold">{t('deposit.bankTitle')}</Text>
      <InfoRow label={t('deposit.bankName')}>{mn ? b.bankName : b.bankNameEn || b.bankName}</InfoRow>
      <InfoRow label={t('deposit.accountNo')}>
        <HStack gap="1" justify="flex-end">
          <Text fontFamily="mono" data-testid="bank-account-no">
            {b.accountNo}
          </Text>
          <CopyButton text={b.accountNo} testId="copy-account-no" {...copyProps(t('deposit.accountNo'))} />
        </HStack>
      </InfoRow>
      <InfoRow label={t('deposit.recipient')}>{mn ? b.recipient : b.recipientEn || b.recipient}</InfoRow>
      <InfoRow label={t('deposit.transactionValue')}>
        <HStack gap="1" justify="flex-end">
          <Text fontFamily="mono" fontWeight="semibold" data-testid="bank-reference">
            {b.transactionValue}
          </Text>
          <CopyButton text={b.transactionValue} testId="copy-reference" {...copyProps(t('deposit.transactionValue'))} />
        </HStack>
      </InfoRow>
      <Alert.Root status="info" size="sm">
        <Alert.Indicator />
        <Alert.Description>{t('deposit.bankNote')}</Alert.Description>
      </Alert.Root>
    </Stack>
  )
}

/** How often deposits are polled while one is confirming. */
export const CONFIRMING_POLL_MS = 3000
/** How often the open deposit modal looks for a new deposit (the app-wide private socket, features/live-updates, usually tells it first). */
export const IDLE_POLL_MS = 10_000

/** The latest deposits of the coin; polls while one is confirming so credits show without a reload. */
function RecentDeposits({ coin, fix }: { coin: string; fix: number }) {
  const { t } = useTexts('walletModals')
  const queryClient = useQueryClient()
  const filter = useMemo(() => ({ coinSymbol: coin, page: 1, pageSize: 3 }), [coin])
  const query = useQuery({
    queryKey: walletKeys.history('deposit', filter),
    queryFn: () => getDepositHistory(filter),
    refetchInterval: (q) =>
      (q.state.data?.list ?? []).some((r: DepositRecord) => r.status === 'confirming') ? CONFIRMING_POLL_MS : IDLE_POLL_MS,
  })
  const list = query.data?.list ?? []
  // When a deposit is credited, every balance on screen is refreshed. The first
  // answer only sets what was already credited: it refreshes nothing.
  const loaded = query.isSuccess
  const credited = list.filter((r) => r.status === 'credited').map((r) => r.id).join(',')
  const seen = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (!loaded) return
    if (seen.current !== undefined && seen.current !== credited) {
      void queryClient.invalidateQueries({ queryKey: walletKeys.all, refetchType: 'active' })
    }
    seen.current = credited
  }, [loaded, credited, queryClient])
  if (list.length === 0) return null
  return (
    <Box>
      <Separator mb="3" />
      <Text fontSize="sm" fontWeight="semibold" mb="2">
        {t('deposit.recent')}
      </Text>
      <Stack gap="2" data-testid="recent-deposits">
        {list.map((r) => (
          <HStack key={r.id} justify="space-between" fontSize="sm" data-testid="recent-deposit" data-status={r.status}>
            <Stack gap="0">
              <Text fontVariantNumeric="tabular-nums">{`${formatAtLeast(r.amount, fix)} ${r.coin}`}</Text>
              <Text color="fg.muted" fontSize="xs">
                {formatTime(r.createTime)}
              </Text>
            </Stack>
            <DepositStatus record={r} />
          </HStack>
        ))}
      </Stack>
    </Box>
  )
}

/** A deposit's status; confirming shows n/required confirmations. */
export function DepositStatus({ record }: { record: DepositRecord }) {
  const { t } = useTexts('walletModals')
  if (record.status === 'confirming') {
    return (
      <Badge colorPalette="orange" data-testid="deposit-status">
        {t('status.confirming', { n: record.confirmations, of: record.requiredConfirmations })}
      </Badge>
    )
  }
  if (record.status === 'credited') {
    return (
      <Badge colorPalette="green" data-testid="deposit-status">
        {t('status.credited')}
      </Badge>
    )
  }
  if (record.status === 'below_min') {
    return (
      <Badge colorPalette="red" data-testid="deposit-status">
        {t('status.below_min')}
      </Badge>
    )
  }
  return (
    <Badge colorPalette="gray" data-testid="deposit-status">
      {t('status.review')}
    </Badge>
  )
}
