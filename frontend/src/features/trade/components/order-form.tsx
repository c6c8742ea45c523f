import { Button, chakra, Field, HStack, Input, InputGroup, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { AppLink } from '@/components/layout/app-link'
import { loginHref } from '@/lib/auth-guard'
import { useTexts } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { useUserInfo } from '@/lib/session'
import { balanceQuery, createOrder, type TradePair } from '../api/trade-api'
import { fixed, placesOf, sanitizeInput } from '../lib/decimal'
import {
  amountFor,
  buildOrderRequest,
  hasPrice,
  isQuoteEntry,
  ORDER_TYPES,
  percentFill,
  totalFor,
  totalPlaces,
  validateOrder,
  type OrderDraft,
  type OrderError,
  type OrderSide,
  type OrderType,
} from '../lib/order-form'

const PERCENTS = [25, 50, 75, 100]

/** A price picked in the order book; n changes on every pick so the same price can be picked twice. */
export interface PickedPrice {
  price: string
  n: number
}

function NumberField({
  label,
  value,
  onChange,
  coin,
  places,
  error,
  testId,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  coin: string
  places: number
  error?: string
  testId: string
}) {
  return (
    <Field.Root invalid={!!error}>
      <Field.Label fontSize="xs" color="fg.muted">
        {label}
      </Field.Label>
      <InputGroup endElement={<Text fontSize="xs" color="fg.muted">{coin}</Text>}>
        <Input
          size="sm"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          data-testid={testId}
          onChange={(e) => onChange(sanitizeInput(e.target.value, places))}
          fontVariantNumeric="tabular-nums"
        />
      </InputGroup>
      {error && <Field.ErrorText data-testid={`${testId}-error`}>{error}</Field.ErrorText>}
    </Field.Root>
  )
}

function SignInPrompt({ symbol }: { symbol: string }) {
  const { t } = useTexts('trade')
  return (
    <Stack gap="3" p="4" align="center" textAlign="center" data-testid="trade-signin">
      <Text fontWeight="semibold">{t('form.signInTitle')}</Text>
      <Text fontSize="sm" color="fg.muted">
        {t('form.signInBody')}
      </Text>
      <HStack>
        <Button asChild size="sm" colorPalette="brand">
          <AppLink href={loginHref(`/trade/${symbol}`)}>{t('form.logIn')}</AppLink>
        </Button>
        <Button asChild size="sm" variant="outline">
          <AppLink href="/auth/register">{t('form.signUp')}</AppLink>
        </Button>
      </HStack>
    </Stack>
  )
}

/** Buy/Sell order form of spec §9 (or a sign-in prompt for anonymous users). */
export function OrderForm({ pair, picked }: { pair: TradePair; picked?: PickedPrice }) {
  const { isSignedIn, isLoading } = useUserInfo()
  if (isLoading) return <Skeleton h="72" m="3" rounded="md" />
  if (!isSignedIn) return <SignInPrompt symbol={pair.routeSymbol} />
  return <SignedInOrderForm pair={pair} picked={picked} />
}

function SignedInOrderForm({ pair, picked }: { pair: TradePair; picked?: PickedPrice }) {
  const { t } = useTexts('trade')
  const queryClient = useQueryClient()
  const [side, setSide] = useState<OrderSide>('BUY')
  const [type, setType] = useState<OrderType>('LIMIT')
  const [price, setPrice] = useState('')
  const [stopPrice, setStopPrice] = useState('')
  const [amount, setAmount] = useState('')
  const [total, setTotal] = useState('')
  const [pct, setPct] = useState<number | null>(null)
  const [showErrors, setShowErrors] = useState(false)
  const balances = useQuery(balanceQuery)

  useEffect(() => {
    if (!picked) return
    setPrice(picked.price)
  }, [picked])
  // A new price keeps the amount and recomputes the total.
  useEffect(() => {
    if (!isQuoteEntry({ side, type })) setTotal(amount && hasPrice(type) ? totalFor(amount, price, pair) : '')
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [price, type])
  useEffect(() => {
    setPrice('')
    setStopPrice('')
    setAmount('')
    setTotal('')
    setPct(null)
  }, [pair.symbol])

  const payCoin = side === 'BUY' ? pair.quote : pair.base
  const available = balances.data?.[payCoin]
  const pricePlaces = Math.max(pair.pricePrecision, placesOf(pair.priceTick))
  const amountPlaces = placesOf(pair.lotSize)
  const draft: OrderDraft = { side, type, price, stopPrice, amount, total }
  const errors = validateOrder(draft, pair, available)
  const errorOf = (field: OrderError['field']) => {
    if (!showErrors) return undefined
    const e = errors.find((x) => x.field === field)
    return e ? t(`form.errors.${e.key}`, e.vars) : undefined
  }
  const quoteEntry = isQuoteEntry(draft)

  const mutation = useMutationSafe(pair, draft, () => {
    notifySuccess(t('form.placed'))
    setAmount('')
    setTotal('')
    setPct(null)
    setShowErrors(false)
    void queryClient.invalidateQueries({ queryKey: ['trade', 'orders'] })
    void queryClient.invalidateQueries({ queryKey: ['trade', 'balance'] })
  })

  const applyPercent = (p: number) => {
    setPct(p)
    const fill = percentFill(p, side, type, available ?? '0', price, pair)
    setAmount(fill.amount)
    setTotal(fill.total)
  }

  const switchSide = (s: OrderSide) => {
    setSide(s)
    setAmount('')
    setTotal('')
    setPct(null)
    setShowErrors(false)
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setShowErrors(true)
    if (errors.length === 0) mutation.mutate()
  }

  return (
    <chakra.form onSubmit={submit} p="3" data-testid="order-form" noValidate>
      <Stack gap="3">
        <HStack gap="0" borderWidth="1px" rounded="md" p="0.5">
          {(['BUY', 'SELL'] as const).map((s) => (
            <Button
              key={s}
              type="button"
              flex="1"
              size="sm"
              variant={side === s ? 'solid' : 'ghost'}
              bg={side === s ? (s === 'BUY' ? 'up' : 'down') : undefined}
              color={side === s ? 'white' : undefined}
              aria-pressed={side === s}
              data-testid={`side-${s.toLowerCase()}`}
              onClick={() => switchSide(s)}
            >
              {t(s === 'BUY' ? 'form.buy' : 'form.sell')}
            </Button>
          ))}
        </HStack>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            aria-label={t('form.type')}
            data-testid="order-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value as OrderType)
              setShowErrors(false)
            }}
          >
            {ORDER_TYPES.map((ot) => (
              <option key={ot} value={ot}>
                {t(`form.types.${ot}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <HStack justify="space-between" fontSize="xs">
          <Text color="fg.muted">{t('form.available')}</Text>
          <Text fontVariantNumeric="tabular-nums" data-testid="available-balance">
            {balances.isLoading ? '…' : `${fixed(available ?? '0', side === 'BUY' ? totalPlaces(pair) : amountPlaces)} ${payCoin}`}
          </Text>
        </HStack>
        {type === 'STOP_LIMIT' && (
          <NumberField label={t('form.stopPrice')} value={stopPrice} onChange={setStopPrice} coin={pair.quote} places={pricePlaces} error={errorOf('stopPrice')} testId="stop-price-input" />
        )}
        {hasPrice(type) ? (
          <NumberField label={t('form.price')} value={price} onChange={setPrice} coin={pair.quote} places={pricePlaces} error={errorOf('price')} testId="price-input" />
        ) : (
          <Text fontSize="xs" color="fg.muted" borderWidth="1px" rounded="md" px="3" py="2">
            {t('form.marketPrice')}
          </Text>
        )}
        {!quoteEntry && (
          <NumberField
            label={t('form.amount')}
            value={amount}
            onChange={(v) => {
              setAmount(v)
              setPct(null)
              setTotal(hasPrice(type) ? totalFor(v, price, pair) : '')
            }}
            coin={pair.base}
            places={amountPlaces}
            error={errorOf('amount')}
            testId="amount-input"
          />
        )}
        <HStack gap="1" role="group" aria-label={t('form.percent')}>
          {PERCENTS.map((p) => (
            <Button
              key={p}
              type="button"
              size="2xs"
              flex="1"
              variant={pct === p ? 'subtle' : 'outline'}
              colorPalette={pct === p ? 'brand' : 'gray'}
              aria-pressed={pct === p}
              data-testid={`percent-${p}`}
              onClick={() => applyPercent(p)}
            >
              {p}%
            </Button>
          ))}
        </HStack>
        {(quoteEntry || hasPrice(type)) && (
          <NumberField
            label={t('form.total')}
            value={total}
            onChange={(v) => {
              setTotal(v)
              setPct(null)
              if (!quoteEntry) setAmount(amountFor(v, price, pair))
            }}
            coin={pair.quote}
            places={totalPlaces(pair)}
            error={errorOf('total')}
            testId="total-input"
          />
        )}
        <Text fontSize="2xs" color="fg.muted" data-testid="min-notional">
          {t('form.minNotional', { min: pair.minNotional, coin: pair.quote })}
        </Text>
        <Button
          type="submit"
          size="md"
          color="white"
          bg={side === 'BUY' ? 'up' : 'down'}
          loading={mutation.isPending}
          data-testid="order-submit"
        >
          {t(side === 'BUY' ? 'form.submitBuy' : 'form.submitSell', { coin: pair.base })}
        </Button>
      </Stack>
    </chakra.form>
  )
}

function useMutationSafe(pair: TradePair, draft: OrderDraft, onDone: () => void) {
  return useMutation({
    mutationFn: () => createOrder(buildOrderRequest(draft, pair)),
    onSuccess: onDone,
  })
}
