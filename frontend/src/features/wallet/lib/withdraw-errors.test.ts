import { describe, expect, it } from 'vitest'
import { defaultMethod, withdrawErrorText } from './withdraw-errors'

describe('withdraw submit errors (spec §8)', () => {
  it('10009 and the two errorMsg keys have their own texts', () => {
    expect(withdrawErrorText({ code: '10009', msg: 'wrong code' })).toEqual({ key: 'errors.code10009' })
    expect(withdrawErrorText({ code: '13010', msg: 'x', errorMsg: 'the.amount.is.not.enough' })).toEqual({
      key: 'errors.amountNotEnough',
    })
    expect(withdrawErrorText({ code: '13011', msg: 'x', errorMsg: 'the.amount.is.exceeded' })).toEqual({
      key: 'errors.amountExceeded',
    })
  })
  it('any other failure shows the server message as is', () => {
    expect(withdrawErrorText({ code: '13020', msg: 'Daily limit reached' })).toEqual({ message: 'Daily limit reached' })
  })
})

describe('default method', () => {
  it('is the only chain; a coin on several chains starts with none until the user picks one', () => {
    expect(defaultMethod([{ name: 'BTC' }], 'deposit')).toBe('BTC')
    expect(defaultMethod([{ name: 'Bank' }], 'withdraw')).toBe('Bank')
    expect(defaultMethod([{ name: 'ERC20' }, { name: 'TRC20' }, { name: 'BEP20' }], 'deposit')).toBe('')
    expect(defaultMethod([{ name: 'ERC20' }, { name: 'TRC20' }], 'withdraw')).toBe('')
    expect(defaultMethod([], 'withdraw')).toBe('')
  })
  it('a withdrawal takes the bank when the second chain is the bank (spec §4)', () => {
    expect(defaultMethod([{ name: 'TRC20' }, { name: 'Bank' }], 'withdraw')).toBe('Bank')
    expect(defaultMethod([{ name: 'TRC20' }, { name: 'Bank' }], 'deposit')).toBe('')
  })
})
