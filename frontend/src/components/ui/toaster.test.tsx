import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { contrast, themeColor } from '@/test/contrast'
import { TOAST_COLORS, TOAST_TOP_VAR, Toaster, toaster } from './toaster'

afterEach(() => {
  act(() => toaster.remove())
})

describe('Toaster', () => {
  it('names its region and close buttons in the app language', async () => {
    setCookie('lan', 'mn_MN')
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    expect(await screen.findByRole('region', { name: 'Мэдэгдэл' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Мэдэгдлийг хаах' })).toBeTruthy()
  })

  it('names them in English by default (en_US)', async () => {
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    expect(await screen.findByRole('region', { name: 'Notifications' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Dismiss notification' })).toBeTruthy()
  })
})

describe('toast colours', () => {
  it.each(['info', 'loading', 'success', 'warning', 'error'] as const)('a %s toast reads at 4.5:1 or better in light and dark', async (type) => {
    const colors = TOAST_COLORS[type]
    for (const mode of ['light', 'dark'] as const) {
      const ratio = contrast(themeColor(colors.bg[mode], mode), themeColor(colors.fg[mode], mode))
      expect(ratio, `${type} in ${mode}: ${ratio.toFixed(2)}:1`).toBeGreaterThanOrEqual(4.5)
    }
    // And the toast of that type is the one drawn.
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Heads up', type, closable: true })
    })
    expect((await screen.findByTestId(`toast-${type}`)).getAttribute('data-type')).toBe(type)
  })
})

describe('toast placement', () => {
  const phone = (matches: boolean) =>
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches, media: query, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {} }) as unknown as MediaQueryList,
    )

  function openModal(headerBottom: number) {
    const content = document.createElement('div')
    content.dataset.scope = 'dialog'
    content.dataset.part = 'content'
    content.dataset.state = 'open'
    const header = document.createElement('div')
    header.className = 'chakra-dialog__header'
    header.getBoundingClientRect = () => ({ top: 0, bottom: headerBottom, left: 0, right: 390, width: 390, height: headerBottom, x: 0, y: 0, toJSON: () => ({}) })
    content.append(header)
    document.body.append(content)
    return content
  }

  afterEach(() => {
    vi.restoreAllMocks()
    document.documentElement.style.removeProperty(TOAST_TOP_VAR)
  })

  it('takes its top offset from a variable (1rem unless set)', () => {
    expect(toaster.attrs.offsets).toMatchObject({ top: `var(${TOAST_TOP_VAR}, 1rem)`, right: '1rem' })
  })

  it('on a phone, puts toasts below an open modal header so its title and close button stay reachable', async () => {
    phone(true)
    const modal = openModal(68)
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    await screen.findByTestId('toast-success')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('76px')
    // Once the modal has closed, the next toast goes back to the top.
    modal.remove()
    act(() => {
      toaster.create({ title: 'Again', type: 'error', closable: true })
    })
    await screen.findByTestId('toast-error')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('')
  })

  it('keeps toasts at the top right on wider screens, beside a centred modal', async () => {
    phone(false)
    const modal = openModal(300)
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    await screen.findByTestId('toast-success')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('')
    expect(toaster.attrs.placement).toBe('top-end')
    modal.remove()
  })
})
