import { fireEvent, screen, waitFor } from '@testing-library/react'
import { useRef, useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithApp } from '@/test/render'
import { OrderConfirmDialog, type OrderConfirmContent } from './order-confirm-dialog'

const content: OrderConfirmContent = {
  warning: 'Your buy price is 6.67% above the last price (30,000.00 USDT).',
  heading: 'BTC/USDT · Buy · Limit',
  rows: [
    { label: 'Price', value: '32,000.00 USDT', testId: 'row-price' },
    { label: 'Amount', value: '0.001000 BTC', testId: 'row-amount' },
  ],
}
const colors = { bg: 'up', color: { _light: 'white', _dark: 'gray.950' } }

/** A form's submit button that opens the dialog, as the order form does. */
function Harness({ onConfirm }: { onConfirm: (dontAsk: boolean) => void }) {
  const [open, setOpen] = useState(false)
  const submit = useRef<HTMLButtonElement>(null)
  return (
    <>
      <button ref={submit} type="button" data-testid="submit" onClick={() => setOpen(true)}>
        Buy
      </button>
      <OrderConfirmDialog
        content={open ? content : null}
        confirmColors={colors}
        onConfirm={(d) => {
          setOpen(false)
          onConfirm(d)
        }}
        onCancel={() => setOpen(false)}
        finalFocus={() => submit.current}
      />
    </>
  )
}

describe('OrderConfirmDialog', () => {
  it('is an alert dialog that says why it asks and shows the order', async () => {
    renderWithApp(<Harness onConfirm={vi.fn()} />)
    fireEvent.click(await screen.findByTestId('submit'))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog.getAttribute('data-testid')).toBe('order-confirm-dialog')
    // Named by its title, described by the warning.
    expect(dialog.getAttribute('aria-labelledby')).toBe(screen.getByText('Confirm order').id)
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toContain('6.67% above the last price')
    expect(screen.getByTestId('order-confirm-summary').textContent).toContain('BTC/USDT · Buy · Limit')
    expect(screen.getByTestId('row-price').textContent).toBe('32,000.00 USDT')
    expect(screen.getByTestId('order-confirm').textContent).toBe('Confirm')
    expect(screen.getByTestId('order-confirm-cancel').textContent).toBe('Cancel')
  })

  it('confirms once, with "Don\'t ask again" when it was ticked', async () => {
    const onConfirm = vi.fn()
    renderWithApp(<Harness onConfirm={onConfirm} />)
    fireEvent.click(await screen.findByTestId('submit'))
    await screen.findByRole('alertdialog')
    fireEvent.click(screen.getByRole('checkbox', { name: "Don't ask again" }))
    await waitFor(() => expect(screen.getByTestId('order-confirm-dont-ask').getAttribute('data-state')).toBe('checked'))
    const confirm = screen.getByTestId('order-confirm')
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    expect(onConfirm).toHaveBeenCalledTimes(1)
    expect(onConfirm).toHaveBeenCalledWith(true)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    // Asked again: the box starts unticked.
    fireEvent.click(screen.getByTestId('submit'))
    await screen.findByRole('alertdialog')
    expect(screen.getByTestId('order-confirm-dont-ask').getAttribute('data-state')).toBe('unchecked')
    fireEvent.click(screen.getByTestId('order-confirm'))
    expect(onConfirm).toHaveBeenLastCalledWith(false)
  })

  it.each([
    ['Cancel', () => fireEvent.click(screen.getByTestId('order-confirm-cancel'))],
    ['Escape', () => fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' })],
  ])('sends nothing on %s and gives focus back to the submit button', async (_, close) => {
    const onConfirm = vi.fn()
    renderWithApp(<Harness onConfirm={onConfirm} />)
    fireEvent.click(await screen.findByTestId('submit'))
    await screen.findByRole('alertdialog')
    close()
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('submit')))
    expect(onConfirm).not.toHaveBeenCalled()
  })

  it('speaks Mongolian', async () => {
    document.cookie = 'lan=mn_MN; path=/'
    renderWithApp(<Harness onConfirm={vi.fn()} />)
    fireEvent.click(await screen.findByTestId('submit'))
    await screen.findByRole('alertdialog')
    expect(screen.getByText('Захиалгаа баталгаажуулна уу')).toBeTruthy()
    expect(screen.getByText('Захиалгыг илгээх үү?')).toBeTruthy()
    expect(screen.getByRole('checkbox', { name: 'Дахиж асуухгүй' })).toBeTruthy()
  })
})
