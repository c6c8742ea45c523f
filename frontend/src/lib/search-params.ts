import { parseSearchWith, stringifySearchWith } from '@tanstack/react-router'

/** A whole number of 16 digits or more: beyond what a number holds exactly (an order's 19-digit id). */
const LONG_INTEGER = /^-?\d{16,}$/

/**
 * JSON.parse for one search value, except that a long whole number stays
 * the text it is: `?id=1796634901000984667` reads as that string, not as a
 * number rounded to 1796634901000984700. (A value that does not parse
 * stays text too: that is how the router treats a throw.)
 */
export function parseSearchValue(value: string): unknown {
  if (LONG_INTEGER.test(value)) throw new RangeError('a long whole number is read as text')
  return JSON.parse(value)
}

/** The router's search parsing and writing: TanStack's JSON way, with {@link parseSearchValue}. */
export const searchParams = {
  parseSearch: parseSearchWith(parseSearchValue),
  // The parser tells the writer which strings would read back as something
  // else (and so must be quoted): a long id would not, so it is written bare.
  stringifySearch: stringifySearchWith(JSON.stringify, parseSearchValue),
}
