import { useCallback, useEffect, useState, type RefObject } from 'react'

/**
 * Full screen for an element: the Fullscreen API where the browser has it
 * for elements, else (iPhone Safari, an embedding frame that forbids it) the
 * element laid over the whole window (`fallback`), which the owner styles
 * and leaves on Escape. The browser itself leaves its full screen on Escape.
 */
export function useFullscreen(ref: RefObject<HTMLElement | null>) {
  const [native, setNative] = useState(false)
  const [fallback, setFallback] = useState(false)

  useEffect(() => {
    const onChange = () => setNative(!!ref.current && document.fullscreenElement === ref.current)
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [ref])

  // The page behind the laid-over chart does not scroll.
  useEffect(() => {
    if (!fallback) return
    const body = document.body
    const before = body.style.overflow
    body.style.overflow = 'hidden'
    return () => {
      body.style.overflow = before
    }
  }, [fallback])

  const exit = useCallback(() => {
    if (document.fullscreenElement && document.exitFullscreen) void document.exitFullscreen().catch(() => {})
    setFallback(false)
  }, [])

  const enter = useCallback(async () => {
    const el = ref.current
    if (!el) return
    if (document.fullscreenEnabled && typeof el.requestFullscreen === 'function') {
      try {
        await el.requestFullscreen()
        return
      } catch {
        // Refused (no user gesture, a frame without allowfullscreen): the fallback below.
      }
    }
    setFallback(true)
  }, [ref])

  const active = native || fallback
  const toggle = useCallback(() => (active ? exit() : void enter()), [active, enter, exit])
  return { active, fallback, toggle, exit }
}
