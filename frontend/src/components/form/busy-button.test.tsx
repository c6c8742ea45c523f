import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { renderWithApp } from '@/test/render'
import { BusyButton } from './busy-button'

/** A confirm button whose work fails: it loads, then stays on the same form. */
function FailingConfirm({ release }: { release: Promise<void> }) {
  const [busy, setBusy] = useState(false)
  return (
    <BusyButton
      loading={busy}
      onClick={() => {
        setBusy(true)
        void release.then(() => setBusy(false))
      }}
      data-testid="confirm"
    >
      Confirm
    </BusyButton>
  )
}

describe('BusyButton', () => {
  it('gives keyboard focus back after its loading state, which the browser drops to the page body', async () => {
    let done!: () => void
    const release = new Promise<void>((resolve) => (done = resolve))
    renderWithApp(<FailingConfirm release={release} />)
    const button = await screen.findByTestId('confirm')
    button.focus()
    fireEvent.click(button)
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(true))
    // What the browser does to a focused element that becomes disabled: focus falls to the body
    // (jsdom does not, nor blurs a disabled button: move focus away and drop it).
    const elsewhere = document.body.appendChild(document.createElement('input'))
    elsewhere.focus()
    elsewhere.remove()
    expect(document.activeElement).toBe(document.body)
    await act(async () => {
      done()
      await release
    })
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false))
    expect(document.activeElement).toBe(button)
  })

  it('leaves focus alone when it was elsewhere (a click with the mouse, focus moved on)', async () => {
    let done!: () => void
    const release = new Promise<void>((resolve) => (done = resolve))
    renderWithApp(
      <>
        <input aria-label="Amount" data-testid="amount" />
        <FailingConfirm release={release} />
      </>,
    )
    const button = await screen.findByTestId('confirm')
    const input = screen.getByTestId('amount')
    fireEvent.click(button)
    input.focus()
    await act(async () => {
      done()
      await release
    })
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false))
    expect(document.activeElement).toBe(input)
  })
})
