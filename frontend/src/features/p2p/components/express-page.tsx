import { Alert, Box, Button, Card, Checkbox, Field, HStack, Input, InputGroup, NativeSelect, SegmentGroup, Stack, Tabs, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { PageFrame } from '@/components/layout/page-frame'
import { loginHref } from '@/lib/auth-guard'
import { compareDecimals, fixed, sanitizeInput, truncated } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { ApiError, failureText } from '@/lib/request-client'
import { useUserInfo } from '@/lib/session'
import { fetchQuote, fetchSellBalance, openOrder } from '../api/p2p-api'
import { p2pKeys, type Quote, type Side } from '../api/types'
import { FIAT_PLACES } from '../lib/amounts'
import { orderHref } from '../lib/search-values'
import { p2pTexts } from '../lib/texts'
import { coinPlaces, KindTags, methodTitle, PageSkeleton, RecordLine, useMethods, usePublicInfo } from './shared'

/** How long typing rests before the quote is asked for. */
const QUOTE_DEBOUNCE_MS = 400

/** The value after it has rested for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value)
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms)
    return () => window.clearTimeout(id)
  }, [value, ms])
  return v
}

/**
 * /p2p/express: buy or sell an amount in one step against the best ad. The
 * caller's side, the coin and an MNT amount or a coin volume give a quote
 * (the best ad that fills it: price, volume, total, time limit, payment
 * kinds, merchant), or say that no ad can; selling shows the OTC balance
 * and asks where the merchant pays. The order then opens on the quoted ad
 * and the order page follows.
 */
export function ExpressPage() {
  const { t, ready } = p2pTexts.useTexts()
  const info = usePublicInfo()
  const { user } = useUserInfo()
  const [side, setSide] = useState<Side>('BUY')
  const [coin, setCoin] = useState('USDT')
  const [by, setBy] = useState<'amount' | 'volume'>('amount')
  const [value, setValue] = useState('')
  const coins = info.data?.coins.map((c) => c.coinSymbol) ?? ['USDT', 'BTC', 'ETH']
  const places = coinPlaces(info.data, coin)
  const asked = useDebounced({ side, coin, by, value: value.replace(/\.$/, '') }, QUOTE_DEBOUNCE_MS)
  const quote = useQuery({
    queryKey: ['p2p', 'quote', asked],
    queryFn: ({ signal }) =>
      fetchQuote({ side: asked.side, coinSymbol: asked.coin, ...(asked.by === 'amount' ? { amount: asked.value } : { volume: asked.value }) }, signal),
    enabled: !!asked.value && Number(asked.value) > 0,
    retry: false,
    refetchInterval: 15_000,
  })
  const balance = useQuery({
    queryKey: p2pKeys.balance(coin),
    queryFn: ({ signal }) => fetchSellBalance(coin, signal),
    enabled: !!user && side === 'SELL',
  })

  if (!ready) return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>
  const current = quote.data && asked.value === value.replace(/\.$/, '') && asked.side === side && asked.coin === coin ? quote.data : undefined

  return (
    <PageFrame title={t('express.title')} subtitle={t('express.subtitle')} maxW="xl" testId="p2p-express">
      <Card.Root>
        <Card.Body>
          <Stack gap="4">
            <Tabs.Root value={side} onValueChange={(d) => setSide(d.value as Side)} variant="enclosed" size="sm" fitted>
              <Tabs.List aria-label={t('trading.sideLabel')}>
                <Tabs.Trigger value="BUY" data-testid="express-buy" _selected={{ color: 'green.fg' }}>
                  {t('trading.buy')}
                </Tabs.Trigger>
                <Tabs.Trigger value="SELL" data-testid="express-sell" _selected={{ color: 'red.fg' }}>
                  {t('trading.sell')}
                </Tabs.Trigger>
              </Tabs.List>
            </Tabs.Root>
            <HStack gap="3" align="flex-end">
              <Field.Root flex="0 0 8rem">
                <Field.Label>{t('express.coin')}</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field value={coin} onChange={(e) => { setCoin(e.target.value); setValue('') }} data-testid="express-coin">
                    {coins.map((c) => (
                      <option key={c} value={c}>{c}</option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Field.Root>
                <Field.Label>{t('express.by')}</Field.Label>
                <SegmentGroup.Root size="sm" value={by} onValueChange={(d) => { if (d.value) { setBy(d.value as 'amount' | 'volume'); setValue('') } }} data-testid="express-by">
                  <SegmentGroup.Indicator />
                  <SegmentGroup.Items items={[{ value: 'amount', label: 'MNT' }, { value: 'volume', label: coin }]} />
                </SegmentGroup.Root>
              </Field.Root>
            </HStack>
            <Field.Root>
              <Field.Label>
                {t(by === 'amount' ? (side === 'BUY' ? 'express.spend' : 'express.receive') : side === 'BUY' ? 'express.buyVolume' : 'express.sellVolume', { coin })}
              </Field.Label>
              <InputGroup endAddon={by === 'amount' ? 'MNT' : coin}>
                <Input
                  inputMode="decimal"
                  value={value}
                  onChange={(e) => setValue(sanitizeInput(e.target.value, by === 'amount' ? FIAT_PLACES : places))}
                  placeholder="0"
                  data-testid="express-value"
                />
              </InputGroup>
              {side === 'SELL' && user && (
                <Field.HelperText data-testid="express-balance">
                  {t('trade.balance', { amount: balance.data ? truncated(balance.data, places) : '—', coin })}
                </Field.HelperText>
              )}
            </Field.Root>

            {quote.isFetching && !current && value && <Text textStyle="sm" color="fg.muted" role="status">{t('express.quoting')}</Text>}
            {quote.isError && !quote.isFetching && value && (
              <Alert.Root status="warning" data-testid="express-no-quote">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Description>
                    {quote.error instanceof ApiError ? failureText({ code: quote.error.code, msg: quote.error.message, data: null }) : t('express.quoteError')}
                  </Alert.Description>
                </Alert.Content>
                <Button asChild size="sm" variant="outline" alignSelf="center">
                  <AppLink href={`/p2p/trading${side === 'SELL' ? '?side=sell' : ''}`}>{t('express.market')}</AppLink>
                </Button>
              </Alert.Root>
            )}
            {current && <QuoteView key={current.advertId} quote={current} side={side} coin={coin} places={places} balance={balance.data} t={t} />}
          </Stack>
        </Card.Body>
      </Card.Root>
    </PageFrame>
  )
}

function QuoteView({ quote, side, coin, places, balance, t }: { quote: Quote; side: Side; coin: string; places: number; balance?: string; t: TranslateFn }) {
  const { user } = useUserInfo()
  const navigate = useNavigate()
  const router = useRouter()
  const queryClient = useQueryClient()
  const href = useRouterState({ select: (s) => s.location.href })
  const selling = side === 'SELL'
  const methods = useMethods(!!user && selling)
  const { lan } = p2pTexts.useTexts()
  const kinds = usePublicInfo().data?.payments
  const accepted = new Set(quote.payments)
  const usable = (methods.data ?? []).filter((m) => m.open && accepted.has(m.kind))
  const [picked, setPicked] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const [touched, setTouched] = useState(false)
  const short = selling && balance !== undefined && compareDecimals(quote.volume, balance) > 0

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!user) {
      void navigate({ href: loginHref(href) })
      return
    }
    setTouched(true)
    if (short || (selling && picked.length === 0)) return
    setBusy(true)
    try {
      const order = await openOrder({ side, advertId: quote.advertId, volume: quote.volume, payments: selling ? picked : undefined })
      notifySuccess(t('trade.opened'))
      void queryClient.invalidateQueries({ queryKey: p2pKeys.orders })
      // The history, not navigate(): the router would read the 19-digit id as a number.
      router.history.push(orderHref(order.id))
    } catch {
      // Toasted; the quote may have moved: read it again.
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'quote'] })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Box as="form" onSubmit={(e: FormEvent) => void submit(e)} borderWidth="1px" rounded="md" p="4" bg="bg.subtle" data-testid="express-quote">
      <Stack gap="3">
        <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1.5" m="0" textStyle="sm">
          <Text as="dt" color="fg.muted">{t('trading.colPrice')}</Text>
          <Text as="dd" m="0" textAlign="end" fontWeight="semibold" data-testid="express-price">{fixed(quote.price, 2)} MNT</Text>
          <Text as="dt" color="fg.muted">{t(selling ? 'trade.youSell' : 'trade.youReceive')}</Text>
          <Text as="dd" m="0" textAlign="end" fontWeight="semibold" data-testid="express-volume">{fixed(quote.volume, places)} {coin}</Text>
          <Text as="dt" color="fg.muted">{t(selling ? 'trade.youGet' : 'trade.youPay')}</Text>
          <Text as="dd" m="0" textAlign="end" fontWeight="bold" color="brand.fg" data-testid="express-total">{fixed(quote.totalPrice, 2)} MNT</Text>
          <Text as="dt" color="fg.muted">{t('trade.timeLimit')}</Text>
          <Text as="dd" m="0" textAlign="end">{t('minutes', { n: quote.limitTime })}</Text>
          <Text as="dt" color="fg.muted">{t('trading.colPayment')}</Text>
          <Box as="dd" m="0" justifySelf="end"><KindTags kinds={quote.payments} t={t} /></Box>
          <Text as="dt" color="fg.muted">{t('express.merchant')}</Text>
          <Box as="dd" m="0" textAlign="end">
            <Text fontWeight="medium">{quote.merchant?.nickName ?? '—'}</Text>
            <RecordLine stats={quote.merchant} t={t} />
          </Box>
        </Box>
        {short && <Text color="fg.error" textStyle="sm" role="alert">{t('trade.errors.aboveBalance', { coin })}</Text>}
        {selling && user && (
          <Field.Root invalid={touched && picked.length === 0}>
            <Field.Label>{t('trade.methodsLabel')}</Field.Label>
            {usable.length === 0 && !methods.isPending ? (
              <Text textStyle="sm">
                {t('trade.noMethods')}{' '}
                <AppLink href="/p2p/payment-method" color="brand.fg">{t('trade.addMethod')}</AppLink>
              </Text>
            ) : (
              <Stack gap="2">
                {usable.map((m) => (
                  <Checkbox.Root key={m.id} checked={picked.includes(m.id)} onCheckedChange={(d) => setPicked((p) => (d.checked === true ? [...p, m.id] : p.filter((x) => x !== m.id)))}>
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{methodTitle(m, lan, kinds)} · {m.account}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Stack>
            )}
            {touched && picked.length === 0 && <Field.ErrorText>{t('trade.errors.methods')}</Field.ErrorText>}
          </Field.Root>
        )}
        <BusyButton type="submit" colorPalette={selling ? 'red' : 'green'} loading={busy} data-testid="express-submit">
          {!user ? t('express.signIn') : t(selling ? 'trade.submitSell' : 'trade.submitBuy', { coin })}
        </BusyButton>
      </Stack>
    </Box>
  )
}
