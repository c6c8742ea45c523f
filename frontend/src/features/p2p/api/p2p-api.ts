import { apiData } from '@/lib/request-client'
import type { Ad, AdPage, ChatMessage, Order, OrderPage, PayKind, PayMethod, PublicInfo, Quote, Side, Stats } from './types'

/**
 * The calls of the P2P screens (spec §7 OTC service, base /fe-otc-api, and
 * the OTC order lists of /fe-ex-api). Reads are silent (the screens show
 * their own loading and error states); actions let the request client toast
 * the server's message (spec §8) and reject with its ApiError, so a caller
 * only stops waiting.
 */

const OTC = '/fe-otc-api'
type Signal = AbortSignal | undefined

const read = <T>(path: string, body: Record<string, unknown>, signal: Signal) => apiData<T>(path, body, { signal, silent: true })
const act = <T>(path: string, body: Record<string, unknown> = {}) => apiData<T>(path, body)

// --- Public -----------------------------------------------------------------

export function fetchPublicInfo(signal?: AbortSignal): Promise<PublicInfo> {
  return read<PublicInfo>(`${OTC}/otc/public_info`, {}, signal)
}

/** The ad list filter (the taker's side: BUY lists SELL ads). */
export interface SearchFilter {
  side: Side
  coinSymbol: string
  amount?: string
  payment?: string
  page: number
  pageSize: number
}

export async function searchAds(filter: SearchFilter, signal?: AbortSignal): Promise<AdPage> {
  const body: Record<string, unknown> = { side: filter.side, coinSymbol: filter.coinSymbol, paySymbol: 'MNT', page: filter.page, pageSize: filter.pageSize }
  if (filter.amount) body.amount = filter.amount
  if (filter.payment) body.payment = filter.payment
  const data = await read<AdPage>(`${OTC}/otc/search`, body, signal)
  return { count: data?.count ?? 0, list: data?.list ?? [] }
}

export function fetchAd(id: string, signal?: AbortSignal): Promise<Ad> {
  return read<Ad>(`${OTC}/otc/v4/wanted_detail`, { id }, signal)
}

/** The reference rate floating prices follow (MNT per coin). */
export async function fetchRate(coinSymbol: string, signal?: AbortSignal): Promise<string> {
  const data = await read<{ rate: string }>(`${OTC}/otc/rates`, { coinSymbol, paySymbol: 'MNT' }, signal)
  return data?.rate ?? ''
}

/** A trader's record; the caller's own without a uid. */
export function fetchStats(uid: string, signal?: AbortSignal): Promise<Stats> {
  return read<Stats>(`${OTC}/otc/person_home_page`, uid ? { uid } : {}, signal)
}

export function fetchPayKinds(signal?: AbortSignal): Promise<PayKind[]> {
  return read<PayKind[]>(`${OTC}/otc/getCompanyPayment`, {}, signal).then((d) => d ?? [])
}

/** Express: the one-step quote against the best ad (MNT amount or coin volume). */
export function fetchQuote(
  input: { side: Side; coinSymbol: string; amount?: string; volume?: string },
  signal?: AbortSignal,
): Promise<Quote> {
  const body: Record<string, unknown> = { side: input.side, coinSymbol: input.coinSymbol, paySymbol: 'MNT' }
  if (input.amount) body.amount = input.amount
  if (input.volume) body.volume = input.volume
  return read<Quote>(`${OTC}/quick_money/noToken/otc_channel_check`, body, signal)
}

// --- The caller's -----------------------------------------------------------

/** A trader's ads: all of the caller's own (no uid), the open ones of anyone else. */
export async function fetchPersonAds(uid: string, page: number, pageSize: number, signal?: AbortSignal): Promise<AdPage> {
  const data = await read<AdPage>(`${OTC}/otc/v4/person_ads`, { ...(uid ? { uid } : {}), page, pageSize }, signal)
  return { count: data?.count ?? 0, list: data?.list ?? [] }
}

/** The caller's OTC balance of a coin that can be sold now. */
export async function fetchSellBalance(coinSymbol: string, signal?: AbortSignal): Promise<string> {
  const data = await read<{ available: string }>(`${OTC}/quick_money/get_quick_sell_balance`, { coinSymbol }, signal)
  return data?.available ?? '0'
}

/** The caller's orders: processing (unfinished) or finished, newest first. */
export async function fetchOrders(
  tab: 'processing' | 'finished',
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<OrderPage> {
  const path = tab === 'processing' ? '/fe-ex-api/v4/order/otc/unfinished' : '/fe-ex-api/v4/order/otc/complete'
  const data = await read<OrderPage>(path, { page, pageSize }, signal)
  return { count: data?.count ?? 0, orderList: data?.orderList ?? [] }
}

export function fetchOrder(id: string, signal?: AbortSignal): Promise<Order> {
  return read<Order>(`${OTC}/v4/otc/order_detail`, { id }, signal)
}

/** The order's chat after a message id (all of it without one). */
export async function fetchChat(id: string, after: string, signal?: AbortSignal): Promise<ChatMessage[]> {
  const data = await read<ChatMessage[]>(`${OTC}/chatMsg/message`, { id, ...(after ? { after } : {}) }, signal)
  return Array.isArray(data) ? data : []
}

export async function fetchMethods(signal?: AbortSignal): Promise<PayMethod[]> {
  const data = await read<PayMethod[]>(`${OTC}/otc/payment/find`, {}, signal)
  return Array.isArray(data) ? data : []
}

// --- Actions ----------------------------------------------------------------

/** Opens an order on an ad: by coin volume or by MNT amount; a seller names where the merchant pays. */
export function openOrder(input: { side: Side; advertId: string; volume?: string; totalPrice?: string; payments?: string[] }): Promise<Order> {
  const path = input.side === 'BUY' ? `${OTC}/v4/otc/buy_order_save` : `${OTC}/v4/otc/sell_order_save`
  const body: Record<string, unknown> = { advertId: input.advertId }
  if (input.volume) body.volume = input.volume
  else body.totalPrice = input.totalPrice
  if (input.side === 'SELL') body.payments = input.payments ?? []
  return act<Order>(path, body)
}

export const cancelOrder = (id: string) => act<Order>(`${OTC}/otc/order_cancel`, { id })
export const markPaid = (id: string) => act<Order>(`${OTC}/v4/otc/order_payed`, { id })
export const releaseOrder = (id: string, capitalPword: string) => act<Order>(`${OTC}/otc/confirm_order`, { id, capitalPword })
export const appealOrder = (input: { id: string; reason: string; description: string; evidence: string[] }) =>
  act<Order>(`${OTC}/otc/complain_order`, input)
export const cancelAppeal = (id: string) => act<Order>(`${OTC}/otc/complain_cancel`, { id })

/** Sends a chat message (text, an image upload id, or both) and answers the messages after `after`. */
export async function sendChat(input: { id: string; content?: string; image?: string; after?: string }): Promise<ChatMessage[]> {
  const body: Record<string, unknown> = { id: input.id }
  if (input.content) body.content = input.content
  if (input.image) body.image = input.image
  if (input.after) body.after = input.after
  const data = await act<ChatMessage[]>(`${OTC}/chatMsg/message`, body)
  return Array.isArray(data) ? data : []
}

/** The ad form as wanted_save takes it. */
export interface AdInput {
  id?: string
  side: Side
  coinSymbol: string
  paySymbol: string
  priceType: 'fixed' | 'floating'
  price?: string
  priceRate?: string
  volume: string
  minTrade: string
  maxTrade: string
  payments: string[]
  limitTime: number
  description: string
  kycRequired: boolean
}

export const saveAd = (input: AdInput) => act<Ad>(`${OTC}/otc/wanted_save`, { ...input })
export const closeAd = (id: string) => act<{ ok: boolean }>(`${OTC}/otc/close_wanted`, { id })
export const applyMerchant = () => act<Stats>(`${OTC}/otc/company_apply`)
export const releaseMerchant = () => act<{ ok: boolean }>(`${OTC}/otc/company_release`)

/** A new or changed payment method; the holder is the verified name (the server fills it in). */
export interface MethodInput {
  id?: string
  payment: string
  bank?: string
  account: string
}

export const addMethod = (input: MethodInput) => act<PayMethod>(`${OTC}/otc/payment/add`, { ...input })
export const updateMethod = (input: MethodInput) => act<PayMethod>(`${OTC}/otc/payment/update`, { ...input })
export const setMethodOpen = (id: string, open: boolean) => act<PayMethod>(`${OTC}/otc/payment/open`, { id, open })
export const deleteMethod = (id: string) => act<{ ok: boolean }>(`${OTC}/otc/v4/payment/delete`, { id })
