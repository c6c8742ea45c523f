import { describe, expect, it } from 'vitest'
import type { ChatMessage, Order } from '../api/types'
import { orderFixture } from '../fixtures'
import { checkSize, counterpart, floatingPrice, fromAmount, fromVolume, trimZeros } from './amounts'
import { authorOf, lastId, mergeMessages } from './chat'
import { formatCountdown, formatDuration, secondsLeft } from './countdown'
import { parsePush } from './push'
import { isP2PPage } from './search'
import { hrefOf, orderHref, parseP2PSearch, searchOf } from './search-values'
import { appealLabel, availableActions, isFinished, roleOf, statusLabel, statusTone, systemMessageKey } from './status'
import {
  accountForSubmit,
  chatTextProblem,
  ibanDigitsOf,
  ibanPasted,
  ibanTyped,
  phoneTyped,
  validateAd,
  validateAppeal,
  validateMethod,
  type AdForm,
} from './validators'

describe('amount ↔ volume at an ad price (string decimals)', () => {
  it('buys the volume an MNT amount covers, rounded down, and totals it at 2 places', () => {
    expect(fromAmount('10000', '3500', 2)).toEqual({ volume: '2.85', total: '9975.00' })
    expect(fromAmount('35000', '3500', 2)).toEqual({ volume: '10.00', total: '35000.00' })
    // 0.1 + 0.2 style traps: no binary floats anywhere.
    expect(fromAmount('0.3', '0.1', 6)).toEqual({ volume: '3.000000', total: '0.30' })
    expect(fromAmount('100000', '171234567.89', 6)).toEqual({ volume: '0.000583', total: '99829.75' })
  })

  it('cuts a typed volume to the coin places and totals it half up', () => {
    expect(fromVolume('2.855', '3500', 2)).toEqual({ volume: '2.85', total: '9975.00' })
    expect(fromVolume('0.0000015', '3333.33', 6)).toEqual({ volume: '0.000001', total: '0.00' })
    expect(fromVolume('1.005', '0.5', 3)).toEqual({ volume: '1.005', total: '0.50' })
    expect(fromVolume('1.015', '1', 3)).toEqual({ volume: '1.015', total: '1.02' })
  })

  it('has no size without a positive amount and price', () => {
    for (const [a, p] of [['', '3500'], ['0', '3500'], ['abc', '3500'], ['100', '0'], ['100', '']]) {
      expect(fromAmount(a, p, 2)).toBeUndefined()
      expect(fromVolume(a, p, 2)).toBeUndefined()
    }
  })

  it('fills the other field without trailing zeros', () => {
    expect(counterpart('amount', '10000', '3500', 2)).toBe('2.85')
    expect(counterpart('amount', '35000', '3500', 2)).toBe('10')
    expect(counterpart('volume', '10', '3500', 2)).toBe('35000')
    expect(counterpart('volume', '0.5', '3500.55', 6)).toBe('1750.28')
    expect(counterpart('volume', '', '3500', 2)).toBe('')
    expect(trimZeros('2.850')).toBe('2.85')
    expect(trimZeros('35000.00')).toBe('35000')
    expect(trimZeros('100')).toBe('100')
  })

  it('checks an order against the limits, what the ad has left and the seller balance', () => {
    const limits = { minTrade: '1000', maxTrade: '200000', available: '100' }
    expect(checkSize(undefined, limits)).toBe('empty')
    expect(checkSize({ volume: '0.00', total: '0.00' }, limits)).toBe('zero')
    expect(checkSize(fromAmount('500', '3500', 2), limits)).toBe('belowMin')
    expect(checkSize(fromAmount('999.99', '1', 2), limits)).toBe('belowMin')
    expect(checkSize(fromAmount('1000', '1', 2), { ...limits, available: '5000' })).toBeUndefined()
    expect(checkSize(fromVolume('58', '3500', 2), limits)).toBe('aboveMax')
    expect(checkSize(fromVolume('50', '3500', 2), { ...limits, available: '40' })).toBe('aboveAvailable')
    expect(checkSize(fromVolume('50', '3500', 2), { ...limits, balance: '49.99' })).toBe('aboveBalance')
    expect(checkSize(fromVolume('50', '3500', 2), { ...limits, balance: '50' })).toBeUndefined()
  })

  it('prices a floating ad from the reference rate', () => {
    expect(floatingPrice('3459.35', '98.5')).toBe('3407.46')
    expect(floatingPrice('3450', '100')).toBe('3450.00')
    expect(floatingPrice('3450', '')).toBe('')
  })
})

describe('countdown', () => {
  it('counts whole seconds to the deadline, never below zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10)
    expect(secondsLeft(10_000, 9_001)).toBe(1)
    expect(secondsLeft(10_000, 10_000)).toBe(0)
    expect(secondsLeft(10_000, 20_000)).toBe(0)
    expect(secondsLeft(0, 5)).toBe(0)
  })

  it('shows mm:ss, and h:mm:ss from an hour', () => {
    expect(formatCountdown(0)).toBe('00:00')
    expect(formatCountdown(9)).toBe('00:09')
    expect(formatCountdown(15 * 60)).toBe('15:00')
    expect(formatCountdown(899)).toBe('14:59')
    expect(formatCountdown(3 * 3600 + 5)).toBe('3:00:05')
    expect(formatCountdown(-4)).toBe('00:00')
  })

  it('shows a record duration in its units', () => {
    const units = { h: 'h', m: 'm', s: 's' }
    expect(formatDuration(0, units)).toBe('—')
    expect(formatDuration(45, units)).toBe('45s')
    expect(formatDuration(125, units)).toBe('2m 05s')
    expect(formatDuration(3725, units)).toBe('1h 02m')
  })
})

const order = (over: Partial<Order> = {}): Order =>
  orderFixture({ makerUid: 'm', takerUid: 'b', buyerUid: 'b', sellerUid: 'm', ctime: 0, payDeadline: 0, ...over })

describe('order states', () => {
  it('labels every state (spec §4 OTC labels)', () => {
    expect(statusLabel(order())).toBe('unpaid')
    expect(statusLabel(order({ status: 'BUYER_PAID' }))).toBe('paid')
    expect(statusLabel(order({ status: 'IN_APPEAL' }))).toBe('complaining')
    expect(statusLabel(order({ status: 'COMPLETED' }))).toBe('completed')
    expect(statusLabel(order({ status: 'CANCELLED' }))).toBe('cancelled')
    expect(statusLabel(order({ status: 'CANCELLED_BY_SYSTEM' }))).toBe('failed')
    expect(statusLabel(order({ status: 'SOMETHING_NEW' }))).toBe('processing')
    const decided = { by: 'b', reason: 'other', description: '', evidence: [], ctime: 0, status: 'decided', outcome: 'release' }
    expect(statusLabel(order({ status: 'COMPLETED', appeal: decided }))).toBe('completedComplaint')
    expect(statusLabel(order({ status: 'CANCELLED', appeal: { ...decided, outcome: 'refund' } }))).toBe('completedComplaint')
    expect(appealLabel({ status: 'open' })).toBe('complaining')
    expect(appealLabel({ status: 'cancelled' })).toBe('cancelledComplaint')
    expect(appealLabel({ status: 'resolved' })).toBe('completedComplaint')
    expect(statusTone('unpaid')).toBe('orange')
    expect(statusTone('complaining')).toBe('red')
    expect(statusTone('completed')).toBe('green')
    expect(statusTone('failed')).toBe('gray')
    expect(isFinished('COMPLETED') && isFinished('CANCELLED_BY_SYSTEM') && !isFinished('IN_APPEAL')).toBe(true)
  })

  it('knows the reader role from the user id, else from the side', () => {
    expect(roleOf(order(), 'b')).toBe('buyer')
    expect(roleOf(order(), 'm')).toBe('seller')
    expect(roleOf(order({ side: 'SELL' }))).toBe('seller')
    expect(roleOf(order({ side: 'BUY' }))).toBe('buyer')
  })

  it('offers each side its actions in each state', () => {
    expect(availableActions(order(), 'buyer', 'b')).toEqual(['markPaid', 'cancel'])
    expect(availableActions(order(), 'seller', 'm')).toEqual([])
    expect(availableActions(order({ status: 'BUYER_PAID' }), 'buyer', 'b')).toEqual(['appeal', 'cancel'])
    expect(availableActions(order({ status: 'BUYER_PAID' }), 'seller', 'm')).toEqual(['release', 'appeal'])
    const appeal = { by: 'b', reason: 'other', description: 'x', evidence: [], ctime: 0, status: 'open' }
    expect(availableActions(order({ status: 'IN_APPEAL', appeal }), 'buyer', 'b')).toEqual(['cancelAppeal'])
    expect(availableActions(order({ status: 'IN_APPEAL', appeal }), 'seller', 'm')).toEqual(['release'])
    for (const status of ['COMPLETED', 'CANCELLED', 'CANCELLED_BY_SYSTEM']) {
      expect(availableActions(order({ status }), 'buyer', 'b')).toEqual([])
      expect(availableActions(order({ status }), 'seller', 'm')).toEqual([])
    }
  })

  it('translates the system messages it knows', () => {
    expect(systemMessageKey('decided_release')).toBe('chat.system.decided_release')
    expect(systemMessageKey('appeal_cancelled')).toBe('chat.system.appeal_cancelled')
    expect(systemMessageKey('hello')).toBeUndefined()
  })
})

describe('form checks', () => {
  it('applies the wallet IBAN rules and the 8-digit phone rule', () => {
    expect(ibanTyped('12ab 34-5678901234567890')).toBe('123456789012345678')
    expect(ibanPasted(' mn12 3456 7890 1234 5678 ')).toEqual({ digits: '123456789012345678' })
    expect(ibanPasted('MN1234')).toEqual({ error: 'ibanPaste' })
    expect(ibanPasted('DE123456789012345678')).toEqual({ error: 'ibanPaste' })
    expect(ibanDigitsOf('MN123456789012345678')).toBe('123456789012345678')
    expect(phoneTyped('+976 9911-2233')).toBe('99112233')
    expect(accountForSubmit('bank', '123456789012345678')).toBe('MN123456789012345678')
    expect(accountForSubmit('qpay', '9911 2233')).toBe('99112233')
    expect(validateMethod({ kind: '', bank: '', account: '' })).toEqual({ kind: 'required' })
    expect(validateMethod({ kind: 'bank', bank: '', account: '123' })).toEqual({ bank: 'required', account: 'ibanDigits' })
    expect(validateMethod({ kind: 'bank', bank: 'KHAN', account: '123456789012345678' })).toEqual({})
    expect(validateMethod({ kind: 'qpay', bank: '', account: '9911223' })).toEqual({ account: 'phoneDigits' })
    expect(validateMethod({ kind: 'socialpay', bank: '', account: '99112233' })).toEqual({})
  })

  const ad = (over: Partial<AdForm> = {}): AdForm => ({
    side: 'SELL',
    coinSymbol: 'USDT',
    priceType: 'fixed',
    price: '3500',
    priceRate: '100',
    volume: '100',
    minTrade: '1000',
    maxTrade: '200000',
    payments: ['p1'],
    limitTime: 15,
    description: '',
    kycRequired: false,
    ...over,
  })
  const rules = { volumePlaces: 2, priceRateMin: 70, priceRateMax: 130, limitTimes: [15, 30], balance: '500' }

  it('checks the ad form as the server does', () => {
    expect(validateAd(ad(), rules)).toEqual({})
    expect(validateAd(ad({ price: '', volume: '0' }), rules)).toEqual({ price: 'required', volume: 'positive' })
    expect(validateAd(ad({ price: '3500.123' }), rules)).toEqual({ price: 'fiatPlaces' })
    expect(validateAd(ad({ volume: '1.234' }), rules)).toEqual({ volume: 'volumePlaces' })
    expect(validateAd(ad({ volume: '600' }), rules)).toEqual({ volume: 'volumeBalance' })
    // An ad being changed counts what it already holds.
    expect(validateAd(ad({ volume: '600' }), { ...rules, held: '100' })).toEqual({})
    expect(validateAd(ad({ side: 'BUY', volume: '600' }), rules)).toEqual({})
    expect(validateAd(ad({ priceType: 'floating', price: '', priceRate: '69.99' }), rules)).toEqual({ priceRate: 'rateRange' })
    expect(validateAd(ad({ priceType: 'floating', price: '', priceRate: '130' }), rules)).toEqual({})
    expect(validateAd(ad({ minTrade: '5000', maxTrade: '4000' }), rules)).toEqual({ maxTrade: 'maxBelowMin' })
    expect(validateAd(ad({ payments: [] }), rules)).toEqual({ payments: 'paymentsRequired' })
    expect(validateAd(ad({ payments: ['1', '2', '3', '4', '5', '6'] }), rules)).toEqual({ payments: 'paymentsMax' })
    expect(validateAd(ad({ limitTime: 20 }), rules)).toEqual({ limitTime: 'required' })
    expect(validateAd(ad({ description: 'x'.repeat(1001) }), rules)).toEqual({ description: 'descriptionTooLong' })
  })

  it('checks an appeal and a chat message', () => {
    expect(validateAppeal({ reason: '', description: ' ' })).toEqual({ reason: 'required', description: 'required' })
    expect(validateAppeal({ reason: 'other', description: 'y'.repeat(1001) })).toEqual({ description: 'tooLong' })
    expect(validateAppeal({ reason: 'other', description: 'paid' })).toEqual({})
    expect(chatTextProblem('  ')).toBe('empty')
    expect(chatTextProblem('z'.repeat(1001))).toBe('tooLong')
    expect(chatTextProblem('hello')).toBeUndefined()
  })
})

describe('search values', () => {
  it('keeps only well-formed values, and a 19-digit id exactly', () => {
    expect(parseP2PSearch({ side: 'sell', coin: 'btc', amount: '5000', payment: 'qpay', page: '3' })).toEqual({
      side: 'sell',
      coin: 'BTC',
      amount: '5000',
      payment: 'qpay',
      page: 3,
    })
    expect(parseP2PSearch({ side: 'buy', coin: '<b>', amount: '1e9', payment: 'Q P', page: '1', tab: 'open' })).toEqual({})
    expect(searchOf('?id=1796621569577037764&tab=finished')).toEqual({ id: '1796621569577037764', tab: 'finished' })
    // As the router writes a digit string back (JSON-quoted).
    expect(searchOf('?id=%221796621569577037764%22')).toEqual({ id: '1796621569577037764' })
    expect(hrefOf('/p2p/trading', { side: 'sell', coin: undefined, page: 2 })).toBe('/p2p/trading?side=sell&page=2')
    expect(hrefOf('/order/otc', {})).toBe('/order/otc')
    expect(orderHref('1796621569577037764')).toBe('/p2p/order-detail?id=1796621569577037764')
    expect(isP2PPage('trading') && isP2PPage('payment-method') && !isP2PPage('blacklist')).toBe(true)
    expect(isP2PPage('express', true) && !isP2PPage('profile', true)).toBe(true)
  })
})

describe('chat', () => {
  const m = (id: string, ctime: number, by = 'u1'): ChatMessage => ({ id, by, content: id, ctime })
  it('merges polled and pushed messages by id, oldest first', () => {
    const a = [m('0001#a', 1), m('0002#b', 2)]
    expect(mergeMessages(a, [])).toBe(a)
    expect(mergeMessages(a, [m('0002#b', 2)])).toBe(a)
    expect(mergeMessages(a, [m('0004#d', 4), m('0003#c', 3)]).map((x) => x.id)).toEqual(['0001#a', '0002#b', '0003#c', '0004#d'])
    expect(lastId([])).toBe('')
    expect(lastId(a)).toBe('0002#b')
    expect(authorOf({ by: 'system' }, 'u1')).toBe('system')
    expect(authorOf({ by: 'operator' }, 'u1')).toBe('operator')
    expect(authorOf({ by: 'u1' }, 'u1')).toBe('me')
    expect(authorOf({ by: 'u2' }, 'u1')).toBe('peer')
  })

  it('reads the pushed P2P frames', () => {
    expect(parsePush({ channel: 'user_p2p_orders', data: { id: '9', status: 'BUYER_PAID' } })).toEqual({ channel: 'user_p2p_orders', id: '9', status: 'BUYER_PAID' })
    const msg = { id: 'x', by: 'system', content: 'paid', ctime: 1 }
    expect(parsePush({ channel: 'user_p2p_chat', data: { orderId: '9', message: msg } })).toEqual({ channel: 'user_p2p_chat', orderId: '9', message: msg })
    expect(parsePush({ channel: 'user_orders', data: { id: '9' } })).toBeUndefined()
    expect(parsePush({ event_rep: 'auth', channel: 'user_p2p_orders', data: { id: '9' } })).toBeUndefined()
  })
})
