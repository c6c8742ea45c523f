import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster, toaster } from '@/components/ui/toaster'
import { renderWithApp } from '@/test/render'
import { futuresTexts } from '../lib/texts'
import { BTC_TIERS, CONFIG } from '../test-fixtures'
import { answer, refuse, sentTo, serve } from '../test-server'
import { clampLeverage, LeverageDialog, leverageMarks } from './leverage-dialog'
import { MarginModeDialog } from './margin-mode-dialog'

vi.mock('aws-amplify/api', async () => (await import('../test-server')).amplifyApi)

const LEVEL = '/fe-co-api/user/level_edit'

async function renderDialog(onClose = vi.fn(), props: Partial<React.ComponentProps<typeof LeverageDialog>> = {}) {
  renderWithApp(
    <>
      <LeverageDialog open onClose={onClose} symbol="BTCUSDT" quote="USDT" leverage={20} maxLeverage={125} tiers={BTC_TIERS} {...props} />
      <Toaster />
    </>,
  )
  const dialog = await screen.findByTestId('leverage-dialog')
  return { dialog, onClose }
}

const value = () => (screen.getByTestId('leverage-input') as HTMLInputElement).value
const maxPosition = () => screen.getByTestId('leverage-max-position').textContent

beforeAll(async () => {
  await futuresTexts.load('en-US')
})

beforeEach(() => {
  serve({ [LEVEL]: (b: Record<string, unknown>) => ({ ...CONFIG, leverage: b.leverage }) })
})

afterEach(() => {
  act(() => toaster.remove())
})

describe('LeverageDialog', () => {
  it('starts at the saved leverage and shows the largest position the tiers allow at it', async () => {
    const { dialog } = await renderDialog()
    expect(within(dialog).getByRole('heading', { name: 'BTCUSDT leverage' })).toBeTruthy()
    expect(value()).toBe('20')
    expect(maxPosition()).toBe('Largest position at 20×: 20,000,000 USDT')
    expect(screen.getByText('From 1× to 125×')).toBeTruthy()
    expect(screen.queryByTestId('leverage-warning')).toBeNull()
  })

  it('moves by one with the buttons and follows the tier table', async () => {
    await renderDialog()
    fireEvent.click(screen.getByRole('button', { name: 'Raise the leverage by 1' }))
    expect(value()).toBe('21')
    // Above 20× the fourth tier is out of reach: 3,000,000 is the most.
    expect(maxPosition()).toBe('Largest position at 21×: 3,000,000 USDT')
    expect(screen.getByTestId('leverage-warning').textContent).toBe('Leverage above 20× makes liquidation much closer. Trade carefully.')
    fireEvent.click(screen.getByRole('button', { name: 'Lower the leverage by 1' }))
    fireEvent.click(screen.getByRole('button', { name: 'Lower the leverage by 1' }))
    expect(value()).toBe('19')
    expect(maxPosition()).toBe('Largest position at 19×: 20,000,000 USDT')
  })

  it('takes a typed leverage within 1 to the maximum', async () => {
    await renderDialog()
    fireEvent.change(screen.getByTestId('leverage-input'), { target: { value: '125' } })
    expect(maxPosition()).toBe('Largest position at 125×: 50,000 USDT')
    fireEvent.change(screen.getByTestId('leverage-input'), { target: { value: '300' } })
    fireEvent.blur(screen.getByTestId('leverage-input'))
    expect(value()).toBe('125')
    expect(screen.getByRole('button', { name: 'Raise the leverage by 1' }).hasAttribute('disabled')).toBe(true)
    fireEvent.change(screen.getByTestId('leverage-input'), { target: { value: '0' } })
    fireEvent.blur(screen.getByTestId('leverage-input'))
    expect(value()).toBe('1')
    expect(screen.getByRole('button', { name: 'Lower the leverage by 1' }).hasAttribute('disabled')).toBe(true)
  })

  it('moves with the slider from the keyboard and its marks', async () => {
    await renderDialog()
    const thumb = screen.getByRole('slider')
    act(() => thumb.focus())
    fireEvent.keyDown(thumb, { key: 'ArrowRight' })
    await waitFor(() => expect(value()).toBe('21'))
    fireEvent.keyDown(thumb, { key: 'End' })
    await waitFor(() => expect(value()).toBe('125'))
    fireEvent.click(screen.getByTestId('leverage-mark-63'))
    expect(value()).toBe('63')
    expect(thumb.getAttribute('aria-valuetext')).toBe('63×')
  })

  it('saves the leverage and closes', async () => {
    const { onClose } = await renderDialog()
    fireEvent.change(screen.getByTestId('leverage-input'), { target: { value: '50' } })
    fireEvent.click(screen.getByTestId('leverage-confirm'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sentTo(LEVEL)).toHaveLength(1)
    expect(sentTo(LEVEL)[0]).toMatchObject({ symbol: 'BTCUSDT', leverage: 50 })
    expect(await screen.findByText('BTCUSDT leverage set to 50×')).toBeTruthy()
  })

  it("stays open with the server's message when it refuses the leverage", async () => {
    answer({ [LEVEL]: refuse('20311', 'The position is too large for this leverage') })
    const { onClose } = await renderDialog()
    fireEvent.change(screen.getByTestId('leverage-input'), { target: { value: '125' } })
    fireEvent.click(screen.getByTestId('leverage-confirm'))
    expect(await screen.findByText('The position is too large for this leverage')).toBeTruthy()
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByTestId('leverage-dialog')).toBeTruthy()
  })

  it('cancels without saving', async () => {
    const { onClose } = await renderDialog()
    fireEvent.click(screen.getByTestId('leverage-plus'))
    fireEvent.click(screen.getByTestId('leverage-cancel'))
    expect(onClose).toHaveBeenCalled()
    expect(sentTo(LEVEL)).toHaveLength(0)
  })

  it('says so when the tiers are not known', async () => {
    await renderDialog(vi.fn(), { tiers: undefined })
    expect(maxPosition()).toBe('The position limits of this leverage could not be loaded.')
  })
})

describe('leverage helpers', () => {
  it('marks 1×, the quarters and the maximum once each', () => {
    expect(leverageMarks(125)).toEqual([1, 31, 63, 94, 125])
    expect(leverageMarks(3)).toEqual([1, 2, 3])
    expect(leverageMarks(1)).toEqual([1])
  })

  it('reads a typed leverage as a whole number within 1 to the maximum', () => {
    expect(clampLeverage('20', 125)).toBe(20)
    expect(clampLeverage('200', 125)).toBe(125)
    expect(clampLeverage('0', 125)).toBe(1)
    expect(clampLeverage('', 125)).toBeUndefined()
    expect(clampLeverage('2.5', 125)).toBeUndefined()
  })
})

describe('MarginModeDialog', () => {
  it('switches to isolated, and keeps the dialog with the message when the server refuses', async () => {
    serve({ '/fe-co-api/user/margin_model_edit': refuse('20312', 'Close the position and cancel the orders first') })
    const onClose = vi.fn()
    renderWithApp(
      <>
        <MarginModeDialog open onClose={onClose} symbol="BTCUSDT" mode={1} />
        <Toaster />
      </>,
    )
    const dialog = await screen.findByTestId('margin-mode-dialog')
    const cross = within(dialog).getByRole('radio', { name: /^Cross/ })
    expect(cross.getAttribute('aria-checked')).toBe('true')
    fireEvent.keyDown(cross, { key: 'ArrowDown' })
    expect(within(dialog).getByRole('radio', { name: /^Isolated/ }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByTestId('margin-mode-confirm'))
    expect(await screen.findByText('Close the position and cancel the orders first')).toBeTruthy()
    expect(sentTo('/fe-co-api/user/margin_model_edit')[0]).toMatchObject({ symbol: 'BTCUSDT', marginMode: 2 })
    expect(onClose).not.toHaveBeenCalled()

    answer({ '/fe-co-api/user/margin_model_edit': { ...CONFIG, marginMode: 2 } })
    fireEvent.click(screen.getByTestId('margin-mode-confirm'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(await screen.findByText('BTCUSDT now trades with Isolated margin')).toBeTruthy()
  })
})
