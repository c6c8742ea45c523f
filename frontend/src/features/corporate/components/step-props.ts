import type { TranslateFn } from '@/lib/i18n'
import type { CorporateApplication } from '../api/types'
import type { SaveKind } from './step-shell'

/** What the apply page gives every step's form. */
export interface StepProps {
  app: CorporateApplication
  /** The general page's texts (actions, errors, toasts). */
  t: TranslateFn
  /** The app's language (country names). */
  lan: string
  /** A submit was refused: the fields the server listed as missing show. */
  showMissing: boolean
  onSaved: (kind: SaveKind, app: CorporateApplication) => void
  onBack?: () => void
  /** Tells the page whether the form holds unsaved changes (leaving then asks first). */
  onDirtyChange: (dirty: boolean) => void
}
