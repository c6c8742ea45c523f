import { useEffect, type RefObject } from 'react'

/**
 * Keeps keyboard focus inside a list whose rows go away under it. When the
 * focused control is removed (its order was cancelled, its pair unstarred
 * on the favourites tab) the browser drops focus to the page's start, and a
 * keyboard user has to tab through the whole page again to get back. This
 * moves focus instead to the control of the same kind (its data-testid) that
 * now sits where it was, or the one before it when it was the last, else to
 * `fallback()` (a tab, the list itself).
 *
 * Only a focus the page lost is taken back: once the user has put focus
 * somewhere else, or pressed the pointer anywhere, nothing moves.
 */
export function useFocusRescue(container: RefObject<HTMLElement | null>, fallback?: () => HTMLElement | null | undefined): void {
  useEffect(() => {
    const root = container.current
    if (!root) return
    let last: { el: HTMLElement; testId: string; index: number } | null = null
    const sameKind = (testId: string) => Array.from(root.querySelectorAll<HTMLElement>('[data-testid]')).filter((el) => el.getAttribute('data-testid') === testId)
    const onFocusIn = (e: FocusEvent) => {
      const el = e.target instanceof HTMLElement ? e.target : null
      const testId = el?.getAttribute('data-testid')
      last = el && testId ? { el, testId, index: sameKind(testId).indexOf(el) } : null
    }
    // Focus that leaves for another control (or a press anywhere) is the user's choice.
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget) last = null
    }
    const onPointerDown = () => {
      last = null
    }
    const rescue = () => {
      if (!last || last.el.isConnected) return
      const active = document.activeElement
      if (active && active !== document.body && active !== document.documentElement) {
        last = null
        return
      }
      const others = sameKind(last.testId).filter((el) => !el.hasAttribute('disabled'))
      const next = others[Math.min(last.index, others.length - 1)] ?? fallback?.() ?? null
      last = null
      next?.focus()
    }
    const observer = new MutationObserver(rescue)
    observer.observe(root, { childList: true, subtree: true })
    root.addEventListener('focusin', onFocusIn)
    root.addEventListener('focusout', onFocusOut)
    document.addEventListener('pointerdown', onPointerDown, true)
    return () => {
      observer.disconnect()
      root.removeEventListener('focusin', onFocusIn)
      root.removeEventListener('focusout', onFocusOut)
      document.removeEventListener('pointerdown', onPointerDown, true)
    }
  }, [container, fallback])
}
