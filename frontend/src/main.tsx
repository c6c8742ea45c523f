// Inter, self-hosted: Latin and Cyrillic (Mongolian's Ө and Ү included) with
// tabular figures for prices; each subset downloads only when a page uses it.
import '@fontsource-variable/inter/wght.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/app'
import { THEME_STORAGE_KEY } from '@/components/ui/color-mode'
import { loadBundledTexts, toBundleLocale } from '@/lib/bundled-texts'
import { loadConfig } from '@/lib/config'
import { ensureChfitDeviceId, ensureDeviceId, getColorMode, getLanguage } from '@/lib/cookies'
import { queryClient } from '@/lib/query-client'
import { bindSessionToQueryClient } from '@/lib/session'

// The cusSkin cookie is the source of truth for the theme; seed next-themes'
// storage from it before the first paint so there is no flash of the wrong theme.
try {
  localStorage.setItem(THEME_STORAGE_KEY, getColorMode())
} catch {
  // Storage unavailable: next-themes falls back to its default (light).
}
document.documentElement.lang = getLanguage() === 'mn_MN' ? 'mn' : 'en'
ensureDeviceId()
ensureChfitDeviceId()
bindSessionToQueryClient(queryClient)

// Only the active language's texts are part of the first load; en-US, the
// last fallback of every key, follows once the page is up.
const locale = toBundleLocale(getLanguage())
void Promise.all([loadConfig(), loadBundledTexts(locale)]).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
  if (locale !== 'en-US') void loadBundledTexts('en-US')
})
