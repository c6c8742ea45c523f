import { Alert, Box, Button, Card, Checkbox, Field, HStack, Input, InputGroup, NativeSelect, SegmentGroup, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react'
import { textareaRecipe } from '@chakra-ui/react/theme'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import { BusyButton } from '@/components/form/busy-button'
import { AppLink } from '@/components/layout/app-link'
import { LoadError, PageFrame } from '@/components/layout/page-frame'
import { fixed, sanitizeInput, truncated } from '@/lib/decimal'
import type { TranslateFn } from '@/lib/i18n'
import { notifySuccess } from '@/lib/notify'
import { fetchAd, fetchRate, fetchSellBalance, fetchStats, saveAd } from '../api/p2p-api'
import { p2pKeys, type Ad, type PublicInfo } from '../api/types'
import { floatingPrice, trimZeros } from '../lib/amounts'
import { p2pTexts } from '../lib/texts'
import { MAX_DESCRIPTION, MAX_PAYMENTS, validateAd, type AdErrors, type AdForm } from '../lib/validators'
import { coinPlaces, methodTitle, PageSkeleton, useMethods, usePublicInfo } from './shared'

/** The form of a new ad. */
export function emptyAd(info: PublicInfo | undefined): AdForm {
  return {
    side: 'SELL',
    coinSymbol: info?.coins[0]?.coinSymbol ?? 'USDT',
    priceType: 'fixed',
    price: '',
    priceRate: '100',
    volume: '',
    minTrade: '',
    maxTrade: '',
    payments: [],
    limitTime: info?.limitTimes.includes(15) ? 15 : (info?.limitTimes[0] ?? 15),
    description: '',
    kycRequired: false,
  }
}

/** The form of an ad being changed. */
export function adToForm(ad: Ad): AdForm {
  const floating = ad.priceType === 'floating'
  return {
    side: ad.side,
    coinSymbol: ad.coinSymbol,
    priceType: floating ? 'floating' : 'fixed',
    price: floating ? '' : trimZeros(ad.price),
    priceRate: floating ? trimZeros(ad.priceRate) : '100',
    volume: trimZeros(ad.volume),
    minTrade: trimZeros(ad.minTrade),
    maxTrade: trimZeros(ad.maxTrade),
    payments: ad.payments.map((m) => m.id),
    limitTime: ad.limitTime,
    description: ad.description ?? '',
    kycRequired: !!ad.kycRequired,
  }
}

/**
 * /p2p/publish-ad[?id=] (spec §6: merchants only): the ad form — side,
 * coin, MNT; a fixed price or a floating one (70–130 % of the reference
 * rate, shown); the amount (a SELL ad holds it from the OTC account); the
 * per-order limits; 1–5 of the caller's open payment methods; the payment
 * time; terms; verified takers only. With an id it changes that ad (side,
 * coin and fiat stay). Others are told how to become a merchant.
 */
export function PublishAdPage({ id }: { id?: string }) {
  const { t, ready } = p2pTexts.useTexts()
  const stats = useQuery({ queryKey: p2pKeys.stats(''), queryFn: ({ signal }) => fetchStats('', signal) })
  const info = usePublicInfo()
  const ad = useQuery({ queryKey: p2pKeys.ad(id ?? ''), queryFn: ({ signal }) => fetchAd(id ?? '', signal), enabled: !!id })
  const title = id ? t('publish.editTitle') : t('publish.title')

  if (!ready || stats.isPending || info.isPending || (id && ad.isPending)) {
    return <PageFrame><PageSkeleton label={t('loading')} /></PageFrame>
  }
  const failed = stats.isError ? stats : info.isError ? info : id && ad.isError ? ad : undefined
  if (failed || !stats.data || !info.data) {
    return (
      <PageFrame title={title}>
        <LoadError title={t('publish.loadError')} retryLabel={t('retry')} onRetry={() => void failed?.refetch()} retrying={failed?.isFetching} testId="publish-error" />
      </PageFrame>
    )
  }
  if (stats.data.merchant !== 'approved') {
    const pending = stats.data.merchant === 'pending'
    return (
      <PageFrame title={title} maxW="3xl" testId="publish-ad">
        <Alert.Root status={pending ? 'info' : 'warning'} data-testid="publish-not-merchant">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t(pending ? 'publish.pendingTitle' : 'publish.notMerchantTitle')}</Alert.Title>
            <Alert.Description>{t(pending ? 'publish.pendingBody' : 'publish.notMerchantBody')}</Alert.Description>
          </Alert.Content>
          {!pending && (
            <Button asChild size="sm" colorPalette="brand" alignSelf="center">
              <AppLink href="/p2p/apply-merchant">{t('nav.applyMerchant')}</AppLink>
            </Button>
          )}
        </Alert.Root>
      </PageFrame>
    )
  }
  return (
    <PageFrame title={title} subtitle={t('publish.subtitle')} maxW="3xl" testId="publish-ad" back={{ href: '/p2p/my-advertising', label: t('nav.myAds') }}>
      <AdFormCard key={id ?? 'new'} info={info.data} ad={id ? ad.data : undefined} t={t} />
    </PageFrame>
  )
}

function AdFormCard({ info, ad, t }: { info: PublicInfo; ad?: Ad; t: TranslateFn }) {
  const { lan } = p2pTexts.useTexts()
  const editing = !!ad
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [form, setForm] = useState<AdForm>(() => (ad ? adToForm(ad) : emptyAd(info)))
  const [touched, setTouched] = useState(false)
  const [busy, setBusy] = useState(false)
  const methods = useMethods()
  const places = coinPlaces(info, form.coinSymbol)
  const rate = useQuery({ queryKey: p2pKeys.rate(form.coinSymbol), queryFn: ({ signal }) => fetchRate(form.coinSymbol, signal), retry: 1 })
  const balance = useQuery({
    queryKey: p2pKeys.balance(form.coinSymbol),
    queryFn: ({ signal }) => fetchSellBalance(form.coinSymbol, signal),
    enabled: form.side === 'SELL',
  })
  const open = (methods.data ?? []).filter((m) => m.open || form.payments.includes(m.id))
  // Methods the ad named that are gone or off are not offered again.
  useEffect(() => {
    if (!methods.data) return
    setForm((f) => ({ ...f, payments: f.payments.filter((id) => methods.data.some((m) => m.id === id && m.open)) }))
  }, [methods.data])

  const errors: AdErrors = validateAd(form, {
    volumePlaces: places,
    priceRateMin: info.priceRateMin,
    priceRateMax: info.priceRateMax,
    limitTimes: info.limitTimes,
    balance: form.side === 'SELL' ? balance.data : undefined,
    held: editing && ad?.side === 'SELL' && ad.status === 'open' ? ad.volume : undefined,
  })
  const shown = (k: keyof AdErrors) =>
    touched && errors[k]
      ? t(`errors.${errors[k]}`, { min: info.priceRateMin, max: info.priceRateMax, places, count: MAX_PAYMENTS, maxLen: MAX_DESCRIPTION })
      : undefined
  const set = (patch: Partial<AdForm>) => setForm((f) => ({ ...f, ...patch }))
  const preview = form.priceType === 'floating' && rate.data ? floatingPrice(rate.data, form.priceRate) : ''

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.keys(errors).length > 0) return
    setBusy(true)
    try {
      await saveAd({
        ...(ad ? { id: ad.id } : {}),
        side: form.side,
        coinSymbol: form.coinSymbol,
        paySymbol: 'MNT',
        priceType: form.priceType,
        ...(form.priceType === 'fixed' ? { price: form.price } : { priceRate: form.priceRate }),
        volume: form.volume,
        minTrade: form.minTrade,
        maxTrade: form.maxTrade,
        payments: form.payments,
        limitTime: form.limitTime,
        description: form.description.trim(),
        kycRequired: form.kycRequired,
      })
      notifySuccess(t(editing ? 'publish.saved' : 'publish.published'))
      void queryClient.invalidateQueries({ queryKey: p2pKeys.all })
      void navigate({ href: '/p2p/my-advertising' })
    } catch {
      // The server's message was toasted (spec §8); the form stays as typed.
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card.Root>
      <Card.Body>
        <form noValidate onSubmit={(e) => void submit(e)} data-testid="ad-form">
          <Stack gap="5">
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
              <Field.Root disabled={editing}>
                <Field.Label>{t('publish.side')}</Field.Label>
                <SegmentGroup.Root
                  value={form.side}
                  onValueChange={(d) => d.value && set({ side: d.value as AdForm['side'] })}
                  disabled={editing}
                  data-testid="ad-side"
                >
                  <SegmentGroup.Indicator />
                  <SegmentGroup.Items
                    items={[
                      { value: 'SELL', label: t('publish.sideSell') },
                      { value: 'BUY', label: t('publish.sideBuy') },
                    ]}
                  />
                </SegmentGroup.Root>
              </Field.Root>
              <HStack gap="3" align="flex-end">
                <Field.Root disabled={editing}>
                  <Field.Label>{t('publish.coin')}</Field.Label>
                  <NativeSelect.Root disabled={editing}>
                    <NativeSelect.Field value={form.coinSymbol} onChange={(e) => set({ coinSymbol: e.target.value, volume: '' })} data-testid="ad-coin">
                      {info.coins.map((c) => (
                        <option key={c.coinSymbol} value={c.coinSymbol}>
                          {c.coinSymbol}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
                <Field.Root disabled>
                  <Field.Label>{t('publish.fiat')}</Field.Label>
                  <Input value="MNT" readOnly disabled />
                </Field.Root>
              </HStack>
            </SimpleGrid>
            {editing && (
              <Text textStyle="xs" color="fg.muted" mt="-3">
                {t('publish.fixedFields')}
              </Text>
            )}

            <Stack gap="3">
              <Field.Root>
                <Field.Label>{t('publish.priceType')}</Field.Label>
                <SegmentGroup.Root value={form.priceType} onValueChange={(d) => d.value && set({ priceType: d.value as AdForm['priceType'] })} data-testid="ad-price-type">
                  <SegmentGroup.Indicator />
                  <SegmentGroup.Items
                    items={[
                      { value: 'fixed', label: t('publish.fixed') },
                      { value: 'floating', label: t('publish.floating') },
                    ]}
                  />
                </SegmentGroup.Root>
              </Field.Root>
              <Text textStyle="sm" color="fg.muted" data-testid="ad-reference-rate">
                {rate.data ? t('publish.referenceRate', { rate: fixed(rate.data, 2), coin: form.coinSymbol }) : rate.isError ? t('publish.noRate') : t('loading')}
              </Text>
              {form.priceType === 'fixed' ? (
                <Field.Root invalid={!!shown('price')} required>
                  <Field.Label>
                    {t('publish.price')}
                    <Field.RequiredIndicator />
                  </Field.Label>
                  <InputGroup endAddon={`MNT / ${form.coinSymbol}`}>
                    <Input name="price" inputMode="decimal" value={form.price} onChange={(e) => set({ price: sanitizeInput(e.target.value, 2) })} data-testid="ad-price" />
                  </InputGroup>
                  <Field.ErrorText>{shown('price')}</Field.ErrorText>
                </Field.Root>
              ) : (
                <Field.Root invalid={!!shown('priceRate')} required>
                  <Field.Label>
                    {t('publish.priceRate', { min: info.priceRateMin, max: info.priceRateMax })}
                    <Field.RequiredIndicator />
                  </Field.Label>
                  <InputGroup endAddon="%">
                    <Input name="priceRate" inputMode="decimal" value={form.priceRate} onChange={(e) => set({ priceRate: sanitizeInput(e.target.value, 2) })} data-testid="ad-price-rate" />
                  </InputGroup>
                  {shown('priceRate') ? (
                    <Field.ErrorText>{shown('priceRate')}</Field.ErrorText>
                  ) : (
                    preview && <Field.HelperText data-testid="ad-floating-price">{t('publish.floatingPreview', { price: fixed(preview, 2) })}</Field.HelperText>
                  )}
                </Field.Root>
              )}
            </Stack>

            <Field.Root invalid={!!shown('volume')} required>
              <Field.Label>
                {t(form.side === 'SELL' ? 'publish.volumeSell' : 'publish.volumeBuy')}
                <Field.RequiredIndicator />
              </Field.Label>
              <InputGroup endAddon={form.coinSymbol}>
                <Input name="volume" inputMode="decimal" value={form.volume} onChange={(e) => set({ volume: sanitizeInput(e.target.value, places) })} data-testid="ad-volume" />
              </InputGroup>
              {shown('volume') ? (
                <Field.ErrorText>{shown('volume')}</Field.ErrorText>
              ) : (
                form.side === 'SELL' && (
                  <Field.HelperText data-testid="ad-balance">
                    {t('publish.balance', { amount: balance.data ? truncated(balance.data, places) : '—', coin: form.coinSymbol })}
                  </Field.HelperText>
                )
              )}
            </Field.Root>

            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
              <Field.Root invalid={!!shown('minTrade')} required>
                <Field.Label>
                  {t('publish.minTrade')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <InputGroup endAddon="MNT">
                  <Input name="minTrade" inputMode="decimal" value={form.minTrade} onChange={(e) => set({ minTrade: sanitizeInput(e.target.value, 2) })} data-testid="ad-min" />
                </InputGroup>
                <Field.ErrorText>{shown('minTrade')}</Field.ErrorText>
              </Field.Root>
              <Field.Root invalid={!!shown('maxTrade')} required>
                <Field.Label>
                  {t('publish.maxTrade')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <InputGroup endAddon="MNT">
                  <Input name="maxTrade" inputMode="decimal" value={form.maxTrade} onChange={(e) => set({ maxTrade: sanitizeInput(e.target.value, 2) })} data-testid="ad-max" />
                </InputGroup>
                <Field.ErrorText>{shown('maxTrade')}</Field.ErrorText>
              </Field.Root>
            </SimpleGrid>

            <Field.Root invalid={!!shown('payments')} required>
              <Field.Label>
                {t('publish.payments', { max: MAX_PAYMENTS })}
                <Field.RequiredIndicator />
              </Field.Label>
              {methods.isPending ? (
                <Text textStyle="sm" color="fg.muted">{t('loading')}</Text>
              ) : open.length === 0 ? (
                <Alert.Root status="warning" size="sm" data-testid="ad-no-methods">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Description>
                      {t('publish.noMethods')}{' '}
                      <AppLink href="/p2p/payment-method" color="brand.fg" fontWeight="medium">
                        {t('publish.addMethod')}
                      </AppLink>
                    </Alert.Description>
                  </Alert.Content>
                </Alert.Root>
              ) : (
                <Stack gap="2" w="full" data-testid="ad-methods">
                  {open.map((m) => {
                    const checked = form.payments.includes(m.id)
                    return (
                      <Checkbox.Root
                        key={m.id}
                        checked={checked}
                        disabled={!checked && form.payments.length >= MAX_PAYMENTS}
                        onCheckedChange={(d) => set({ payments: d.checked === true ? [...form.payments, m.id] : form.payments.filter((x) => x !== m.id) })}
                        data-testid={`ad-method-${m.id}`}
                      >
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                        <Checkbox.Label>
                          {methodTitle(m, lan, info.payments)} · <Box as="span" fontFamily="mono">{m.account}</Box>
                        </Checkbox.Label>
                      </Checkbox.Root>
                    )
                  })}
                </Stack>
              )}
              <Field.ErrorText>{shown('payments')}</Field.ErrorText>
            </Field.Root>

            <Field.Root invalid={!!shown('limitTime')} required>
              <Field.Label>{t('publish.limitTime')}</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={String(form.limitTime)} onChange={(e) => set({ limitTime: Number(e.target.value) })} data-testid="ad-limit-time">
                  {info.limitTimes.map((m) => (
                    <option key={m} value={m}>
                      {t('minutes', { n: m })}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.HelperText>{t('publish.limitTimeHint')}</Field.HelperText>
            </Field.Root>

            <Field.Root invalid={!!shown('description')}>
              <Field.Label>{t('publish.description')}</Field.Label>
              <Textarea
                recipe={textareaRecipe}
                rows={3}
                value={form.description}
                placeholder={t('publish.descriptionPlaceholder')}
                onChange={(e) => set({ description: e.target.value })}
                data-testid="ad-description"
              />
              {shown('description') ? (
                <Field.ErrorText>{shown('description')}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t('count', { count: [...form.description].length, max: MAX_DESCRIPTION })}</Field.HelperText>
              )}
            </Field.Root>

            <Checkbox.Root checked={form.kycRequired} onCheckedChange={(d) => set({ kycRequired: d.checked === true })} data-testid="ad-kyc">
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('publish.kycRequired')}</Checkbox.Label>
            </Checkbox.Root>

            {touched && Object.keys(errors).length > 0 && (
              <Text color="fg.error" textStyle="sm" role="alert" data-testid="ad-form-errors">
                {t('publish.fixErrors')}
              </Text>
            )}
            <HStack justify="flex-end" gap="3">
              <Button asChild variant="outline">
                <AppLink href="/p2p/my-advertising">{t('cancel')}</AppLink>
              </Button>
              <BusyButton type="submit" colorPalette="brand" loading={busy} data-testid="ad-submit">
                {t(editing ? 'publish.save' : 'publish.submit')}
              </BusyButton>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  )
}
