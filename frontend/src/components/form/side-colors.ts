/**
 * Colours of the buy and sell buttons of the order forms (spot Buy/Sell,
 * futures Buy/Long and Sell/Short): the side's colour with text that reads
 * on it in both themes (4.5:1 at least): white on the light theme's darker
 * green and red, dark on the dark theme's lighter ones (white on them was
 * 2.1:1 and 2.8:1).
 */
export const SIDE_COLORS = {
  BUY: { bg: 'up', color: { _light: 'white', _dark: 'gray.950' } },
  SELL: { bg: 'down', color: { _light: 'white', _dark: 'gray.950' } },
} as const
