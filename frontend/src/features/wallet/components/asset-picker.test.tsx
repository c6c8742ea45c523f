import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import type { AssetEntry } from '../api/wallet-api'
import { AssetPicker } from './asset-picker'
import { WalletDialog } from './wallet-dialog'

const asset = (value: string): AssetEntry => ({
  value,
  label: value,
  img: '',
  code: value,
  fix: 8,
  normal_balance: '1',
  totalBalance: '1',
  lockBalance: '0',
  chains: [],
  trustType: '',
  isFiat: false,
  depositOpen: true,
  withdrawOpen: true,
})
const ASSETS = ['BTC', 'ETH', 'USDT', 'XRP'].map(asset)

function Picker({ onClose, onChange }: { onClose: () => void; onChange?: (a: AssetEntry) => void }) {
  const [value, setValue] = useState('BTC')
  return (
    <WalletDialog open onClose={onClose} title="Deposit" closeLabel="Close" testId="modal">
      <AssetPicker
        assets={ASSETS}
        value={value}
        onChange={(a) => {
          setValue(a.value)
          onChange?.(a)
        }}
        label="Asset"
        searchLabel="Search asset"
        emptyLabel="No asset"
      />
      <button type="button">next field</button>
    </WalletDialog>
  )
}

const activeOption = (search: HTMLElement) => document.getElementById(search.getAttribute('aria-activedescendant') ?? '')

describe('AssetPicker', () => {
  afterEach(() => vi.restoreAllMocks())

  it('Escape in the search box closes the list, not the modal', async () => {
    const onClose = vi.fn()
    renderWithApp(<Picker onClose={onClose} />)
    const modal = await screen.findByTestId('modal')
    fireEvent.click(within(modal).getByTestId('asset-picker'))
    const search = await within(modal).findByTestId('asset-search')
    fireEvent.keyDown(search, { key: 'Escape' })
    await waitFor(() => expect(within(modal).queryByTestId('asset-picker-list')).toBeNull())
    expect(onClose).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(within(modal).getByTestId('asset-picker'))
    // With the list closed, Escape closes the modal as usual.
    fireEvent.keyDown(within(modal).getByTestId('asset-picker'), { key: 'Escape' })
    await waitFor(() => expect(onClose).toHaveBeenCalled())
  })

  it('works from the keyboard: arrows move the active option, Home/End, Enter chooses; options are not Tab stops', async () => {
    const onChange = vi.fn()
    renderWithApp(<Picker onClose={() => {}} onChange={onChange} />)
    const modal = await screen.findByTestId('modal')
    const trigger = within(modal).getByTestId('asset-picker')
    fireEvent.keyDown(trigger, { key: 'ArrowDown' })
    const search = await within(modal).findByTestId('asset-search')
    expect(search.getAttribute('role')).toBe('combobox')
    const listbox = within(modal).getByRole('listbox')
    expect(search.getAttribute('aria-controls')).toBe(listbox.id)
    // Starts on the chosen coin.
    expect(activeOption(search)?.getAttribute('data-value')).toBe('BTC')
    fireEvent.keyDown(search, { key: 'ArrowDown' })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('ETH')
    fireEvent.keyDown(search, { key: 'End' })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('XRP')
    fireEvent.keyDown(search, { key: 'ArrowDown' })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('BTC')
    fireEvent.keyDown(search, { key: 'ArrowUp' })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('XRP')
    fireEvent.keyDown(search, { key: 'Home' })
    fireEvent.keyDown(search, { key: 'ArrowDown' })
    fireEvent.keyDown(search, { key: 'ArrowDown' })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('USDT')
    for (const option of within(listbox).getAllByRole('option')) expect(option.getAttribute('tabindex')).toBe('-1')

    fireEvent.keyDown(search, { key: 'Enter' })
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ value: 'USDT' }))
    await waitFor(() => expect(within(modal).queryByRole('listbox')).toBeNull())
    expect(trigger.textContent).toContain('USDT')
    expect(document.activeElement).toBe(trigger)
  })

  it('typing filters and the first match becomes active', async () => {
    const onChange = vi.fn()
    renderWithApp(<Picker onClose={() => {}} onChange={onChange} />)
    const modal = await screen.findByTestId('modal')
    fireEvent.click(within(modal).getByTestId('asset-picker'))
    const search = await within(modal).findByTestId('asset-search')
    fireEvent.change(search, { target: { value: 'x' } })
    expect(activeOption(search)?.getAttribute('data-value')).toBe('XRP')
    fireEvent.keyDown(search, { key: 'Enter' })
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ value: 'XRP' }))
  })
  it('lists each balance as the balance rows show it: grouped thousands at the coin places', async () => {
    const mnt: AssetEntry = { ...asset('MNT'), fix: 2, normal_balance: '2500000.00' }
    renderWithApp(
      <AssetPicker assets={[mnt, asset('BTC')]} value="MNT" onChange={() => {}} label="Asset" searchLabel="Search asset" emptyLabel="No asset" />,
    )
    fireEvent.click(await screen.findByTestId('asset-picker'))
    expect((await screen.findByTestId('asset-option-MNT')).textContent).toContain('2,500,000.00')
    expect(screen.getByTestId('asset-option-BTC').textContent).toContain('1.00000000')
  })
})
