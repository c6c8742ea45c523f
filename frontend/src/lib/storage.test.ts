import { describe, expect, it } from 'vitest'
import {
  clearStoredTokens,
  FAVOURITES_KEY,
  FAVOURITES_OWNER_KEY,
  getFavourites,
  getFavouritesOwner,
  setFavourites,
  setFavouritesOwner,
  toggleFavourite,
} from './storage'

describe('market favourites', () => {
  it('keeps a list of symbols under one local storage key', () => {
    expect(getFavourites()).toEqual([])
    expect(toggleFavourite('BTC_USDT')).toEqual(['BTC_USDT'])
    expect(toggleFavourite('ETH_USDT')).toEqual(['BTC_USDT', 'ETH_USDT'])
    expect(JSON.parse(localStorage.getItem(FAVOURITES_KEY)!)).toEqual(['BTC_USDT', 'ETH_USDT'])
    expect(toggleFavourite('BTC_USDT')).toEqual(['ETH_USDT'])
    expect(localStorage.length).toBe(1)
  })

  it('reads a damaged entry as empty', () => {
    localStorage.setItem(FAVOURITES_KEY, '{not json')
    expect(getFavourites()).toEqual([])
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(['A_B', 3, null]))
    expect(getFavourites()).toEqual(['A_B'])
  })

  it('replaces the list with a server answer and remembers whose list it mirrors', () => {
    toggleFavourite('BTC_USDT')
    setFavourites(['ETH_USDT', 'TON_USDT'])
    expect(getFavourites()).toEqual(['ETH_USDT', 'TON_USDT'])
    expect(getFavouritesOwner()).toBeUndefined()
    setFavouritesOwner('42')
    expect(localStorage.getItem(FAVOURITES_OWNER_KEY)).toBe('42')
    expect(getFavouritesOwner()).toBe('42')
    setFavouritesOwner(undefined)
    expect(localStorage.getItem(FAVOURITES_OWNER_KEY)).toBeNull()
    expect(getFavourites()).toEqual(['ETH_USDT', 'TON_USDT'])
  })
})

describe('stored tokens', () => {
  it('clears tokens from local and session storage but keeps other entries', () => {
    localStorage.setItem('token', 't1')
    sessionStorage.setItem('tenger.challengeToken', 'c1')
    localStorage.setItem(FAVOURITES_KEY, '["X_Y"]')
    clearStoredTokens()
    expect(localStorage.getItem('token')).toBeNull()
    expect(sessionStorage.getItem('tenger.challengeToken')).toBeNull()
    expect(localStorage.getItem(FAVOURITES_KEY)).toBe('["X_Y"]')
  })
})
