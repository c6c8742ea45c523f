import { Alert, Box, Button, Checkbox, CloseButton, Dialog, Field, HStack, Input, InputGroup, Portal, Stack, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { compareDecimals, fixed, sanitizeInput, truncated } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { fetchSellBalance, openOrder } from '../api/p2p-api'
import { p2pKeys, type Ad } from '../api/types'
import { orderHref } from '../lib/search-values'
import { checkSize, counterpart, FIAT_PLACES, fromAmount, fromVolume } from '../lib/amounts'
import { p2pTexts } from '../lib/texts'
import { KindTags, methodTitle, RecordLine, TraderName, useMethods, usePublicInfo } from './shared'

/** The taker's side on an ad: a SELL ad is bought from. */
export const takerSide = (ad: Pick<Ad, 'side'>) => (ad.side === 'SELL' ? 'BUY' : 'SELL')

/**
 * Buying from or selling to an ad (spec §3 P2P order): the MNT amount or
 * the coin amount, each filling the other at the ad's price; a seller picks
 * where the merchant pays (their open methods of the kinds the ad accepts)
 * and sees their OTC balance; the time limit, the limits and the terms.
 * The order opens and the order page follows.
 */
export function TradeDialog({ ad, places, t, onClose }: { ad: Ad | undefined; places: number; t: TranslateFn; onClose: () => void }) {
  return (
    <Dialog.Root
      open={!!ad}
      onOpenChange={(d) => !d.open && onClose()}
      placement="center"
      size={{ base: 'full', md: 'md' }}
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="trade-dialog" minH={{ base: '100dvh', md: 'auto' }} rounded={{ base: '0', md: 'l3' }}>
            {ad && <TradeForm ad={ad} places={places} t={t} onClose={onClose} />}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

function TradeForm({ ad, places, t, onClose }: { ad: Ad; places: number; t: TranslateFn; onClose: () => void }) {
  const side = takerSide(ad)
  const selling = side === 'SELL'
  const router = useRouter()
  const queryClient = useQueryClient()
  const [amount, setAmount] = useState('')
  const [volume, setVolume] = useState('')
  const [edited, setEdited] = useState<'amount' | 'volume'>('amount')
  const [picked, setPicked] = useState<string[]>([])
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const methods = useMethods(selling)
  const { lan } = p2pTexts.useTexts()
  const kinds = usePublicInfo().data?.payments
  const balance = useQuery({
    queryKey: p2pKeys.balance(ad.coinSymbol),
    queryFn: ({ signal }) => fetchSellBalance(ad.coinSymbol, signal),
    enabled: selling,
  })
  const accepted = new Set(ad.payments.map((m) => m.kind))
  const usable = (methods.data ?? []).filter((m) => m.open && accepted.has(m.kind))

  const sized = edited === 'amount' ? fromAmount(amount, ad.price, places) : fromVolume(volume, ad.price, places)
  const problem = checkSize(sized, {
    minTrade: ad.minTrade,
    maxTrade: ad.maxTrade,
    available: ad.volume,
    balance: selling ? balance.data : undefined,
  })
  const methodProblem = selling && picked.length === 0
  const sizeText = problem
    ? t(`trade.errors.${problem}`, { min: fixed(ad.minTrade, 2), max: fixed(ad.maxTrade, 2), fiat: ad.paySymbol, coin: ad.coinSymbol })
    : undefined

  const onAmount = (raw: string) => {
    const v = sanitizeInput(raw, FIAT_PLACES)
    setAmount(v)
    setEdited('amount')
    setVolume(counterpart('amount', v, ad.price, places))
  }
  const onVolume = (raw: string) => {
    const v = sanitizeInput(raw, places)
    setVolume(v)
    setEdited('volume')
    setAmount(counterpart('volume', v, ad.price, places))
  }
  const all = () => {
    // The most this order can be: the ad's remaining coins, the seller's balance.
    const cap = selling && balance.data && compareDecimals(balance.data, ad.volume) < 0 ? balance.data : ad.volume
    onVolume(truncated(cap, places).replace(/,/g, ''))
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (problem || methodProblem || !sized) return
    setBusy(true)
    try {
      const order = await openOrder({
        side,
        advertId: ad.id,
        ...(edited === 'volume' ? { volume: sized.volume } : { totalPrice: amount }),
        payments: selling ? picked : undefined,
      })
      notifySuccess(t('trade.opened'))
      void queryClient.invalidateQueries({ queryKey: p2pKeys.orders })
      void queryClient.invalidateQueries({ queryKey: ['p2p', 'search'] })
      onClose()
      // The history, not navigate(): the router would read the 19-digit id as a number.
      router.history.push(orderHref(order.id))
    } catch {
      // The server's message was toasted (spec §8); the form stays.
    } finally {
      setBusy(false)
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="trade-form" style={{ display: 'contents' }}>
      <Dialog.Header>
        <Dialog.Title>{t(selling ? 'trade.titleSell' : 'trade.titleBuy', { coin: ad.coinSymbol })}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="4">
          <Box borderWidth="1px" rounded="md" p="3" bg="bg.subtle">
            <HStack justify="space-between" align="flex-start" gap="3">
              <Stack gap="0.5" minW="0">
                <TraderName uid={ad.uid} name={ad.merchant?.nickName || ad.nickName} merchant={ad.merchant?.merchant === 'approved'} t={t} />
                <RecordLine stats={ad.merchant} t={t} />
              </Stack>
              <Stack gap="0" textAlign="end">
                <Text textStyle="xs" color="fg.muted">
                  {t('trading.colPrice')}
                </Text>
                <Text fontWeight="bold" fontSize="lg" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" data-testid="trade-price">
                  {fixed(ad.price, 2)} {ad.paySymbol}
                </Text>
              </Stack>
            </HStack>
            <Box as="dl" display="grid" gridTemplateColumns="auto 1fr" columnGap="3" rowGap="1" mt="3" textStyle="sm">
              <Text as="dt" color="fg.muted">{t('trading.colAvailable')}</Text>
              <Text as="dd" textAlign="end">{fixed(ad.volume, places)} {ad.coinSymbol}</Text>
              <Text as="dt" color="fg.muted">{t('trading.colLimits')}</Text>
              <Text as="dd" textAlign="end">
                {fixed(ad.minTrade, 2)} – {fixed(ad.maxTrade, 2)} {ad.paySymbol}
              </Text>
              <Text as="dt" color="fg.muted">{t('trade.timeLimit')}</Text>
              <Text as="dd" textAlign="end" data-testid="trade-time-limit">{t('minutes', { n: ad.limitTime })}</Text>
              <Text as="dt" color="fg.muted">{t('trading.colPayment')}</Text>
              <Box as="dd" justifySelf="end">
                <KindTags kinds={ad.payments.map((m) => m.kind)} t={t} />
              </Box>
            </Box>
          </Box>

          <Field.Root invalid={touched && !!problem && edited === 'amount'}>
            <Field.Label>{t(selling ? 'trade.youGet' : 'trade.youPay')}</Field.Label>
            <InputGroup endAddon={ad.paySymbol}>
              <Input
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                placeholder={t('trade.amountPlaceholder', { min: fixed(ad.minTrade, 2), max: fixed(ad.maxTrade, 2) })}
                onChange={(e) => onAmount(e.target.value)}
                data-testid="trade-amount"
              />
            </InputGroup>
          </Field.Root>
          <Field.Root invalid={touched && !!problem && edited === 'volume'}>
            <Field.Label>{t(selling ? 'trade.youSell' : 'trade.youReceive')}</Field.Label>
            <HStack w="full" gap="2">
              <InputGroup endAddon={ad.coinSymbol}>
                <Input
                  name="volume"
                  inputMode="decimal"
                  autoComplete="off"
                  value={volume}
                  onChange={(e) => onVolume(e.target.value)}
                  data-testid="trade-volume"
                />
              </InputGroup>
              <Button variant="outline" onClick={all} flexShrink={0} data-testid="trade-all">
                {t('trade.all')}
              </Button>
            </HStack>
            {selling && (
              <Field.HelperText data-testid="trade-balance">
                {t('trade.balance', { amount: balance.data ? truncated(balance.data, places) : '—', coin: ad.coinSymbol })}
              </Field.HelperText>
            )}
          </Field.Root>
          {touched && sizeText && (
            <Text color="fg.error" textStyle="sm" role="alert" data-testid="trade-error">
              {sizeText}
            </Text>
          )}
          {sized && !problem && (
            <Text textStyle="sm" data-testid="trade-summary">
              {t(selling ? 'trade.summarySell' : 'trade.summaryBuy', {
                total: fixed(sized.total, 2),
                fiat: ad.paySymbol,
                volume: fixed(sized.volume, places),
                coin: ad.coinSymbol,
              })}
            </Text>
          )}

          {selling && (
            <Field.Root invalid={touched && methodProblem}>
              <Field.Label>{t('trade.methodsLabel')}</Field.Label>
              {usable.length === 0 && !methods.isPending ? (
                <Alert.Root status="warning" size="sm">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Description>
                      {t('trade.noMethods')}{' '}
                      <AppLink href="/p2p/payment-method" color="brand.fg" fontWeight="medium">
                        {t('trade.addMethod')}
                      </AppLink>
                    </Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              ) : (
                <Stack gap="2" w="full">
                  {usable.map((m) => (
                    <Checkbox.Root
                      key={m.id}
                      checked={picked.includes(m.id)}
                      onCheckedChange={(d) => setPicked((p) => (d.checked === true ? [...p, m.id] : p.filter((x) => x !== m.id)))}
                      data-testid={`trade-method-${m.id}`}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>
                        {methodTitle(m, lan, kinds)} · {m.account}
                      </Checkbox.Label>
                    </Checkbox.Root>
                  ))}
                </Stack>
              )}
              {touched && methodProblem && <Field.ErrorText>{t('trade.errors.methods')}</Field.ErrorText>}
            </Field.Root>
          )}

          {ad.kycRequired && (
            <Text textStyle="xs" color="fg.muted">
              {t('trading.verifiedOnly')}
            </Text>
          )}
          {ad.description && (
            <Box>
              <Text textStyle="sm" fontWeight="medium">
                {t('trade.terms')}
              </Text>
              <Text textStyle="sm" color="fg.muted" whiteSpace="pre-wrap" data-testid="trade-terms">
                {ad.description}
              </Text>
            </Box>
          )}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <BusyButton type="submit" colorPalette={selling ? 'red' : 'green'} loading={busy} data-testid="trade-submit">
          {t(selling ? 'trade.submitSell' : 'trade.submitBuy', { coin: ad.coinSymbol })}
        </BusyButton>
      </Dialog.Footer>
    </form>
  )
}
