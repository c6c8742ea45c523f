import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from '@/app/app'
import { THEME_STORAGE_KEY } from '@/components/ui/color-mode'
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

void loadConfig().then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
})
