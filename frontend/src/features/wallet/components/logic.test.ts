import { describe, expect, it } from 'vitest'
import type { AssetEntry, SpotRow } from '../api/wallet-api'
import { addressChains } from './add-address-modal'
import { filterAssets } from './asset-picker'
import { historyWindow } from './history-page'
import { donutArcs } from './portfolio-donut'
import { FUTURES_DECIMALS, transferDecimals } from './transfer-modal'
import { filterSpotRows } from './wallet-views'

const asset = (value: string, label: string, chains: string[]): AssetEntry => ({
  value,
  label,
  img: '',
  code: value === 'MONT' ? 'MNT' : value,
  fix: 2,
  normal_balance: '0',
  totalBalance: '0',
  lockBalance: '0',
  chains: chains.map((name) => ({ name, mainChainName: name, tagType: name === 'XRP' ? 1 : 0, depositMin: '0', confirmations: 1, arrivalSeconds: 0 })),
  trustType: chains[0] ?? '',
  isFiat: value === 'MONT',
  depositOpen: true,
  withdrawOpen: true,
})

describe('asset picker search', () => {
  const list = [asset('BTC', 'Bitcoin', ['BTC']), asset('USDT', 'Tether', ['ERC20']), asset('MONT', 'Tögrög', ['Bank'])]
  it('matches code or name, case-insensitively', () => {
    expect(filterAssets(list, 'bit').map((a) => a.value)).toEqual(['BTC'])
    expect(filterAssets(list, 'us').map((a) => a.value)).toEqual(['USDT'])
    expect(filterAssets(list, 'mnt').map((a) => a.value)).toEqual(['MONT'])
    expect(filterAssets(list, '  ')).toHaveLength(3)
  })
  it('add address hides the Bank chain (spec §2)', () => {
    expect(addressChains(list[2])).toEqual([])
    expect(addressChains(asset('USDT', 'T', ['ERC20', 'Bank', 'TRC20'])).map((c) => c.name)).toEqual(['ERC20', 'TRC20'])
  })
})

describe('spot list filters', () => {
  const row = (coin: string, btc: string): SpotRow =>
    ({ coin, longName: coin === 'BTC' ? 'Bitcoin' : coin, btcValuation: btc }) as SpotRow
  const rows = [row('BTC', '0.5'), row('TRX', '0.00001'), row('ETH', '0.0001')]
  it('searches by code and long name', () => {
    expect(filterSpotRows(rows, 'bitc', false).map((r) => r.coin)).toEqual(['BTC'])
  })
  it('hides small balances below 0.0001 BTC', () => {
    expect(filterSpotRows(rows, '', true).map((r) => r.coin)).toEqual(['BTC', 'ETH'])
  })
})

describe('transfer amount decimals', () => {
  it('futures are cut to 3 decimals, others keep the coin precision', () => {
    expect(FUTURES_DECIMALS).toBe(3)
    expect(transferDecimals('futures', 6)).toBe(3)
    expect(transferDecimals('futures', 2)).toBe(2)
    expect(transferDecimals('otc', 6)).toBe(6)
  })
})

describe('portfolio donut', () => {
  it('splits the circle by share and skips empty slices', () => {
    const arcs = donutArcs([1, 0, 3])
    expect(arcs[0].start).toBe(0)
    expect(arcs[0].end).toBeCloseTo(Math.PI / 2)
    expect(arcs[1].end - arcs[1].start).toBe(0)
    expect(arcs[2].end).toBeCloseTo(Math.PI * 2)
    expect(donutArcs([0, 0]).every((a) => a.end === 0)).toBe(true)
  })
})

describe('history window (spec §9: last 180 days)', () => {
  it('goes back the chosen number of days', () => {
    const now = Date.UTC(2026, 10, 21)
    expect(historyWindow(180, now)).toEqual({ startTime: now - 180 * 86_400_000, endTime: now })
  })
})
