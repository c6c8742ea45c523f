import type { Order } from './api/types'

/** An order as order_detail answers it, for the P2P screens' tests: the buyer b1 buys 10 USDT at 3,500 MNT from m1. */
export const orderFixture = (over: Partial<Order> = {}): Order => ({
  id: '1796621569577037764',
  sequence: '1796621569577037764',
  advertId: 'ad1',
  makerUid: 'm1',
  takerUid: 'b1',
  buyerUid: 'b1',
  sellerUid: 'm1',
  side: 'BUY',
  coinSymbol: 'USDT',
  paySymbol: 'MNT',
  price: '3500',
  volume: '10',
  totalPrice: '35000',
  payments: [],
  description: '',
  status: 'PENDING',
  ctime: 1,
  payDeadline: 2,
  payTime: 0,
  finishTime: 0,
  buyerNickName: 'Buyer',
  sellerNickName: 'Merchant',
  ...over,
})
