import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { WalletDialog } from './wallet-dialog'

describe('WalletDialog focus', () => {
  // jsdom lays nothing out; the focus trap only focuses elements with a size.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(100)
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(20)
  })
  afterEach(() => vi.restoreAllMocks())

  it('opens with focus on the title, not on the back or close button (no focus ring when opened from the URL)', async () => {
    renderWithApp(
      <WalletDialog open onClose={() => {}} onBack={() => {}} backLabel="Back" title="Withdraw" closeLabel="Close" testId="modal">
        <p>body</p>
      </WalletDialog>,
    )
    const modal = await screen.findByTestId('modal')
    const title = within(modal).getByTestId('modal-title')
    await waitFor(() => expect(document.activeElement).toBe(title))
    expect(document.activeElement).not.toBe(within(modal).getByTestId('modal-close'))
    expect(document.activeElement).not.toBe(within(modal).getByTestId('modal-back'))
  })

  it('keeps the header buttons before the form in the focus order, as on screen: back, close, then the fields', async () => {
    renderWithApp(
      <WalletDialog open onClose={() => {}} onBack={() => {}} backLabel="Back" title="Withdraw" closeLabel="Close" testId="modal">
        <input aria-label="Amount" data-testid="field" />
      </WalletDialog>,
    )
    const modal = await screen.findByTestId('modal')
    const focusable = Array.from(modal.querySelectorAll<HTMLElement>('button, input')).map((e) => e.getAttribute('data-testid'))
    expect(focusable).toEqual(['modal-back', 'modal-close', 'field'])
  })
})
