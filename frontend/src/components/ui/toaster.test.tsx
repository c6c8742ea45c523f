import { act, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setCookie } from '@/lib/cookies'
import { renderWithApp } from '@/test/render'
import { contrast, themeColor } from '@/test/contrast'
import { TOAST_COLORS, TOAST_TOP_VAR, TOP_BAR_ATTR, Toaster, toaster } from './toaster'

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

  /** An element drawn from `top` to `bottom` (jsdom lays nothing out). */
  function boxed<T extends HTMLElement>(el: T, top: number, bottom: number, width = 390): T {
    el.getBoundingClientRect = () => ({ top, bottom, left: 0, right: width, width, height: bottom - top, x: 0, y: top, toJSON: () => ({}) })
    return el
  }

  /** A top bar of the layout (the announcement bar, a navbar) from `top` to `bottom`. */
  function topBar(top: number, bottom: number) {
    const bar = boxed(document.createElement('header'), top, bottom, 1280)
    bar.setAttribute(TOP_BAR_ATTR, '')
    document.body.append(bar)
    return bar
  }

  afterEach(() => {
    vi.restoreAllMocks()
    document.documentElement.style.removeProperty(TOAST_TOP_VAR)
    document.querySelectorAll(`[${TOP_BAR_ATTR}]`).forEach((el) => el.remove())
    // A modal left behind by a failed test would move the next test's toasts.
    document.querySelectorAll('body > [data-scope="dialog"]').forEach((el) => el.remove())
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

  /** A modal that does not fill the screen (a centred confirmation), drawn from `top` to `bottom`, with a 48 px header. */
  function openCentredModal(top: number, bottom: number) {
    const content = boxed(openModal(0), top, bottom, 358)
    boxed(content.querySelector<HTMLElement>('.chakra-dialog__header')!, top, top + 48, 358)
    return content
  }

  // Where the toasts go beside a phone modal, by the modal's box: "" is the
  // usual place at the top of the screen.
  it.each([
    // "Cancel open orders?" at 390×844: the dialog from 320 to 524 (jsdom's screen is 768 high). At the top
    // of the screen (1rem), well above the dialog: not below its header, inside its box.
    { name: 'above a centred confirmation instead of over its body', modal: () => openCentredModal(320, 524), top: '' },
    { name: 'below a tall confirmation that leaves no room above it', modal: () => openCentredModal(40, 500), top: '508px' },
    {
      name: 'below the header of a sheet that leaves no room above or below it',
      modal: () => openCentredModal(8, window.innerHeight),
      top: '64px',
    },
    { name: 'still below the header of a modal laid out full screen', modal: () => boxed(openModal(68), 0, window.innerHeight), top: '76px' },
  ])('on a phone, puts toasts $name', async ({ modal: open, top }) => {
    phone(true)
    const modal = open()
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Cancelled', type: 'success', closable: true })
    })
    await screen.findByTestId('toast-success')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe(top)
    modal.remove()
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

  it('moves a toast already showing below the header of a modal that opens on a phone, and back when it closes', async () => {
    phone(true)
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Saved', type: 'success', closable: true })
    })
    await screen.findByTestId('toast-success')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('')
    const modal = openModal(68)
    await waitFor(() => expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('76px'))
    modal.remove()
    await waitFor(() => expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe(''))
  })

  it('on a phone without a modal, puts toasts below the top bar (logo and menu)', async () => {
    phone(true)
    topBar(0, 56)
    // A bar that is not shown (the desktop navbar on a phone) has no height and counts for nothing.
    topBar(0, 0)
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Failed', type: 'error', closable: true })
    })
    await screen.findByTestId('toast-error')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('64px')
  })

  it('on wider screens, keeps toasts top right below the announcement bar and the navbar, clear of the bar\'s close button', async () => {
    phone(false)
    const announcement = topBar(0, 36)
    const navbar = topBar(36, 101)
    renderWithApp(<Toaster />)
    act(() => {
      toaster.create({ title: 'Failed', type: 'error', closable: true })
    })
    await screen.findByTestId('toast-error')
    expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('109px')
    expect(toaster.attrs.placement).toBe('top-end')
    // The page scrolled: the announcement bar has gone up out of sight, the navbar sticks to the top.
    boxed(announcement, -36, 0)
    boxed(navbar, 0, 65)
    window.dispatchEvent(new Event('scroll'))
    await waitFor(() => expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('73px'))
    // The announcement closed on a page that is not scrolled: the toast follows the navbar up.
    boxed(navbar, 0, 65)
    announcement.remove()
    await waitFor(() => expect(document.documentElement.style.getPropertyValue(TOAST_TOP_VAR)).toBe('73px'))
  })
})

describe('dismissToastsOlderThan (toasts cleared on navigation)', () => {
  it('dismisses the toasts older than the limit and keeps the newest', async () => {
    const { dismissToastsOlderThan } = await import('./toaster')
    renderWithApp(<Toaster />)
    let old = '', fresh = ''
    act(() => {
      old = toaster.create({ type: 'error', title: 'left behind', duration: 60_000 })
    })
    const oldAt = Date.now()
    await new Promise((r) => setTimeout(r, 30))
    act(() => {
      fresh = toaster.create({ type: 'success', title: 'signed in', duration: 60_000 })
    })
    expect(await screen.findByText('signed in')).toBeTruthy()
    // At this "now" the first toast is just over the limit old, the second not.
    act(() => dismissToastsOlderThan(1500, oldAt + 1500 + 20))
    await waitFor(() => expect(screen.queryByText('left behind')).toBeNull())
    expect(toaster.isVisible(old)).toBe(false)
    expect(screen.getByText('signed in')).toBeTruthy()
    expect(toaster.isVisible(fresh)).toBe(true)
    act(() => toaster.dismiss(fresh))
  })
})
