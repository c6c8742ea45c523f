'use client'

import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'

/** Toast auto-close time of spec §9. */
export const TOAST_DURATION_MS = 5000

/** The CSS variable holding the toaster's distance from the top of the screen. */
export const TOAST_TOP_VAR = '--tenger-toast-top'
/** Room between toasts and the screen's edges (and below a phone modal's header). */
const EDGE = '1rem'
const GAP_PX = 8

/** The app's single toaster: top right, closing after 5 s (spec §8). */
export const toaster = createToaster({
  placement: 'top-end',
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
  max: 5,
  // The top offset moves below the top bars, or an open modal's header on phones (see placeToasts).
  offsets: { top: `var(${TOAST_TOP_VAR}, ${EDGE})`, right: EDGE, bottom: EDGE, left: EDGE },
})

/** What makes up a modal's header: the header slot, its title and its close button. */
const HEADER_PARTS = '.chakra-dialog__header, .chakra-drawer__header, [data-part="title"], [data-part="close-trigger"]'

/**
 * Marks the page's top bars (the announcement bar, the desktop navbar, the
 * phone header): toasts sit below them, so that the bars' buttons (the
 * announcement's close button, the menu) stay reachable while a toast shows.
 */
export const TOP_BAR_ATTR = 'data-top-bar'

/** Phones: below Chakra's md breakpoint (48rem), where toasts span the screen and modals are full screen. */
const PHONE_QUERY = '(max-width: 47.99rem)'

/** The lowest bottom edge of the elements on screen (0 when none is). */
function lowestBottom(els: HTMLElement[]): number {
  return Math.max(
    0,
    ...els.map((el) => {
      const box = el.getBoundingClientRect()
      return box.height > 0 ? box.bottom : 0
    }),
  )
}

/** The toasts on screen (Zag lays them out with transforms: their boxes are where they show). */
const TOAST_ROOTS = '[data-scope="toast"][data-part="root"]'
/** The height a toast is taken to have before it is drawn (one line of title on a phone). */
const TOAST_HEIGHT_PX = 56

/** How tall the stack of toasts on screen is (the usual height of one toast when none is drawn yet). */
function toastsHeight(): number {
  const boxes = Array.from(document.querySelectorAll<HTMLElement>(TOAST_ROOTS))
    .map((el) => el.getBoundingClientRect())
    .filter((b) => b.height > 0)
  if (boxes.length === 0) return TOAST_HEIGHT_PX
  return Math.max(TOAST_HEIGHT_PX, Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)))
}

/**
 * True when a modal fills the screen (the phone layout of most modals). One
 * that has not been laid out (no size yet) counts as full screen, as phone
 * modals are unless they say otherwise.
 */
function fillsScreen(modal: HTMLElement): boolean {
  const box = modal.getBoundingClientRect()
  if (box.height <= 0) return true
  return box.top <= 1 && box.bottom >= window.innerHeight - 1
}

/**
 * Where toasts go beside a modal that does not fill the phone's screen (a
 * centred confirmation, a bottom sheet): never over it, as they would hide
 * what the user is asked to confirm. At the top of the screen when they fit
 * above the modal ('top'), else just below it when they fit there (its
 * top in pixels). Undefined when there is no room on either side (a sheet
 * nearly as tall as the screen): the toasts then go below its header as on
 * a full-screen modal.
 */
function besideModal(modal: HTMLElement): number | 'top' | undefined {
  const box = modal.getBoundingClientRect()
  const edge = parseFloat(getComputedStyle(document.documentElement).fontSize || '16') || 16
  const height = toastsHeight()
  if (edge + height + GAP_PX <= box.top) return 'top'
  const below = Math.ceil(box.bottom) + GAP_PX
  if (below + height + edge <= window.innerHeight) return below
  return undefined
}

/**
 * Sets the toaster's top so that toasts cover none of the page's controls
 * at the top of the screen. On phones a toast spans the width of the
 * screen. Most modals are full screen there: with one of those (or a
 * drawer) open, the toasts go just below the header of the topmost one,
 * clear of its title and close button. A modal that is not full screen (a
 * centred confirmation, a bottom sheet) keeps the toasts out of its box, at
 * the top of the screen above it (see besideModal). Otherwise (and on wider screens, where
 * a toast sits top right beside a centred modal) they go below the top bars
 * on screen ({@link TOP_BAR_ATTR}); with none, at the usual distance from
 * the top.
 */
export function placeToasts(): void {
  if (typeof document === 'undefined') return
  const root = document.documentElement
  const phone = typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches
  const open = phone
    ? Array.from(document.querySelectorAll<HTMLElement>('[data-part="content"][data-state="open"]')).filter(
        (el) => el.dataset.scope === 'dialog' || el.dataset.scope === 'drawer',
      )
    : []
  // Chakra's header slot has no data-part of its own: its class, or the title and close button it holds.
  const modal = open.at(-1)
  const beside = modal && !fillsScreen(modal) ? besideModal(modal) : undefined
  if (beside !== undefined) {
    if (beside === 'top') root.style.removeProperty(TOAST_TOP_VAR)
    else root.style.setProperty(TOAST_TOP_VAR, `${beside}px`)
    return
  }
  const covers = modal
    ? Array.from(modal.querySelectorAll<HTMLElement>(HEADER_PARTS)).filter((el) => el.closest('[data-part="content"]') === modal)
    : Array.from(document.querySelectorAll<HTMLElement>(`[${TOP_BAR_ATTR}]`))
  const bottom = lowestBottom(covers)
  if (bottom > 0) root.style.setProperty(TOAST_TOP_VAR, `${Math.ceil(bottom) + GAP_PX}px`)
  else root.style.removeProperty(TOAST_TOP_VAR)
}

/**
 * While toasts show, they follow what happens around them: a modal that
 * opens (or closes) under a toast already on screen, the announcement bar
 * closed, the page scrolled (the navbar sticks to the top once the
 * announcement bar has scrolled away) or resized. At most once a frame;
 * stops when the last toast has gone.
 */
let stopWatching: (() => void) | undefined
let frame: number | undefined

function schedulePlacement(): void {
  if (frame !== undefined) return
  const run = () => {
    frame = undefined
    placeToasts()
    if (toaster.getCount() === 0) stopWatching?.()
  }
  frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : (setTimeout(run, 16) as unknown as number)
}

function watchPlacement(): void {
  if (stopWatching || typeof document === 'undefined' || typeof MutationObserver === 'undefined') return
  // Modals mount into the body and open and close by their data-state.
  const observer = new MutationObserver(schedulePlacement)
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] })
  const events = ['scroll', 'resize'] as const
  for (const e of events) window.addEventListener(e, schedulePlacement, { passive: true })
  // A modal's header settles where it stays once its opening animation is over.
  document.addEventListener('animationend', schedulePlacement, true)
  stopWatching = () => {
    observer.disconnect()
    for (const e of events) window.removeEventListener(e, schedulePlacement)
    document.removeEventListener('animationend', schedulePlacement, true)
    stopWatching = undefined
  }
}

// Measured as each toast is created (the store tells its subscribers before the toast is drawn), and then
// again while it shows; a toast's end is told before it leaves the store, so the last one's ends the watching
// a frame later.
toaster.subscribe((toast?: { id?: string; dismiss?: boolean }) => {
  if (toast?.dismiss) {
    if (toast.id) shownAt.delete(toast.id)
    schedulePlacement()
    return
  }
  if (toast?.id && !shownAt.has(toast.id)) shownAt.set(toast.id, Date.now())
  placeToasts()
  watchPlacement()
})

/** When each visible toast was created (ms), for {@link dismissToastsOlderThan}. */
const shownAt = new Map<string, number>()

/**
 * Dismisses the toasts created more than `ms` ago. On navigation the app
 * clears what the page left behind, while a toast of the action that
 * navigated (created a moment before: "Signed in") stays.
 */
export function dismissToastsOlderThan(ms: number, now = Date.now()): void {
  for (const [id, at] of shownAt) {
    if (now - at > ms) {
      shownAt.delete(id)
      toaster.dismiss(id)
    }
  }
}

/** A colour of each theme: Chakra colour tokens. */
export interface ThemedColor {
  light: string
  dark: string
}

/**
 * Background and text colour of each toast type, in the light and dark
 * themes. Chakra's defaults put white on orange.600 (3.6:1) and on green.600
 * (3.3:1); these read at 4.5:1 or better (WCAG AA) in both themes. A warning
 * is dark text on orange, as warnings usually are; success and error are
 * white on a deeper green and red. Info and loading keep the panel colours.
 */
export const TOAST_COLORS: Record<'info' | 'loading' | 'success' | 'warning' | 'error', { bg: ThemedColor; fg: ThemedColor }> = {
  info: { bg: { light: 'bg.panel', dark: 'bg.panel' }, fg: { light: 'fg', dark: 'fg' } },
  loading: { bg: { light: 'bg.panel', dark: 'bg.panel' }, fg: { light: 'fg', dark: 'fg' } },
  success: { bg: { light: 'green.700', dark: 'green.700' }, fg: { light: 'white', dark: 'white' } },
  warning: { bg: { light: 'orange.500', dark: 'orange.500' }, fg: { light: 'black', dark: 'black' } },
  error: { bg: { light: 'red.700', dark: 'red.700' }, fg: { light: 'white', dark: 'white' } },
}

const themed = (c: ThemedColor) => (c.light === c.dark ? c.light : { _light: c.light, _dark: c.dark })

/** The colours above as styles of the toast root, by its data-type. */
const rootColors = Object.fromEntries(
  Object.entries(TOAST_COLORS).map(([type, c]) => [
    `&[data-type=${type}]`,
    {
      bg: themed(c.bg),
      color: themed(c.fg),
      // The default dims the close button and the description, which would take them under 4.5:1 again.
      '& [data-part=close-trigger], & [data-part=description]': { color: 'inherit', opacity: 1 },
    },
  ]),
)

/** Renders the toasts created through {@link toaster}; mount once near the root. */
export function Toaster() {
  // The region's and the close buttons' names default to English
  // ("Notifications", "Dismiss notification"); screen readers announce them.
  const { t } = useTexts('common')
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} aria-label={t('notifications')}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} css={rootColors} data-testid={`toast-${toast.type ?? 'info'}`}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label={t('dismissNotification')} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  )
}
