import { useCallback, useState } from 'react'
import { drawReducer, readDrawings, writeDrawings, type DrawAction, type DrawState } from './drawings'

/** A pair's drawings and drawing tool, kept in local storage per pair as they change. */
export function useDrawings(symbol: string) {
  const [state, setState] = useState(() => ({ symbol, draw: { drawings: readDrawings(symbol) } as DrawState }))
  // Another pair: its own drawings (adjusted while rendering, so the old pair's never show on the new one).
  let current = state
  if (state.symbol !== symbol) {
    current = { symbol, draw: { drawings: readDrawings(symbol) } }
    setState(current)
  }
  const dispatch = useCallback((action: DrawAction) => {
    setState((prev) => {
      const draw = drawReducer(prev.draw, action)
      if (draw === prev.draw) return prev
      if (draw.drawings !== prev.draw.drawings) writeDrawings(prev.symbol, draw.drawings)
      return { symbol: prev.symbol, draw }
    })
  }, [])
  return [current.draw, dispatch] as const
}
