import { useCallback } from 'react'
import { countryName } from '../lib/countries'
import { useCorporateTexts } from '../lib/texts'

/** A country code's name in the reader's language (the texts' CLDR names; the browser's for a code they lack). */
export function useCountryName(): (code: string) => string {
  const { t, lan } = useCorporateTexts()
  return useCallback((code: string) => (code ? t(`countries.${code}`) || countryName(code, lan) : ''), [t, lan])
}
