import { vi } from 'vitest'

/** Media queries answer as on a screen `px` wide (Chakra asks min-width queries, in px or em). Undo with vi.restoreAllMocks(). */
export function screenWidth(px: number) {
  const width = (m: RegExpExecArray | null) => (m ? Number(m[1]) * (m[2] === 'px' ? 1 : 16) : undefined)
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const min = width(/min-width:\s*([\d.]+)(px|r?em)/.exec(query))
    const max = width(/max-width:\s*([\d.]+)(px|r?em)/.exec(query))
    const matches = (min === undefined || px >= min) && (max === undefined || px <= max)
    return { matches, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false } as MediaQueryList
  })
}
