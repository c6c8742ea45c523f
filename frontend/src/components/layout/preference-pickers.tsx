import { Field, NativeSelect } from '@chakra-ui/react'
import { useTexts } from '@/lib/i18n'
import {
  CURRENCIES,
  getCurrency,
  getLanguage,
  LANGUAGES,
  setCurrency,
  setLanguage,
  type Currency,
  type Language,
} from '@/lib/cookies'

/** Writes the language cookie and reloads so every text and the server's language follow (spec §4). */
export function changeLanguage(lan: Language, reload: () => void = () => window.location.reload()): void {
  if (lan === getLanguage()) return
  setLanguage(lan)
  reload()
}

/** Writes the currency cookie and reloads (spec §4). */
export function changeCurrency(currency: Currency, reload: () => void = () => window.location.reload()): void {
  if (currency === getCurrency()) return
  setCurrency(currency)
  reload()
}

/** Labelled language select (en_US, mn_MN). */
export function LanguagePicker({ id = 'language-picker' }: { id?: string }) {
  const nav = useTexts('navbar')
  const common = useTexts('common')
  return (
    <Field.Root>
      <Field.Label htmlFor={id}>{nav.t('mobile.language')}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          id={id}
          data-testid="language-picker"
          value={getLanguage()}
          onChange={(e) => changeLanguage(e.currentTarget.value as Language)}
        >
          {LANGUAGES.map((lan) => (
            <option key={lan} value={lan}>
              {common.t(`languages.${lan}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  )
}

/** Labelled currency select (USD default, MNT, ...). */
export function CurrencyPicker({ id = 'currency-picker' }: { id?: string }) {
  const nav = useTexts('navbar')
  const common = useTexts('common')
  return (
    <Field.Root>
      <Field.Label htmlFor={id}>{nav.t('mobile.currency')}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          id={id}
          data-testid="currency-picker"
          value={getCurrency()}
          onChange={(e) => changeCurrency(e.currentTarget.value as Currency)}
        >
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c} · {common.t(`currencies.${c}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  )
}
