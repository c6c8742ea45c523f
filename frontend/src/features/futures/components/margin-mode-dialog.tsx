import { useMutation, useQueryClient } from '@tanstack/react-query'
import { notifySuccess } from '@/lib/notify'
import { futuresKeys, MARGIN_CROSS, MARGIN_ISOLATED, setMarginMode, type MarginMode, type UserConfig } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { ChoiceDialog } from './choice-dialog'
import { notifyTransport } from './shared'

const MODES: { mode: MarginMode; key: 'cross' | 'isolated' }[] = [
  { mode: MARGIN_CROSS, key: 'cross' },
  { mode: MARGIN_ISOLATED, key: 'isolated' },
]

/**
 * The margin mode of a contract: Cross (the account's whole balance backs
 * its positions) or Isolated (each position its own margin), each
 * explained. Confirm saves it (/user/margin_model_edit); the server refuses
 * it while the contract has a position or open orders, and its message
 * shows in a toast while the dialog stays open.
 */
export function MarginModeDialog({ open, onClose, symbol, mode }: { open: boolean; onClose: () => void; symbol: string; mode: MarginMode }) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: (chosen: MarginMode) => setMarginMode(symbol, chosen),
    onSuccess: (config, chosen) => {
      if (config && typeof config === 'object') queryClient.setQueryData<UserConfig>(futuresKeys.config(symbol), config)
      void queryClient.invalidateQueries({ queryKey: futuresKeys.config(symbol) })
      notifySuccess(t('marginMode.done', { symbol, mode: t(chosen === MARGIN_ISOLATED ? 'marginMode.isolated' : 'marginMode.cross') }))
      onClose()
    },
    onError: (error) => notifyTransport(error, t('common.unreachable')),
  })
  return (
    <ChoiceDialog
      open={open}
      onClose={onClose}
      title={t('marginMode.title', { symbol })}
      label={t('marginMode.label')}
      choices={MODES.map(({ mode: m, key }) => ({ value: m, key, title: t(`marginMode.${key}`), hint: t(`marginMode.${key}Hint`) }))}
      value={mode}
      note={t('marginMode.note')}
      busy={save.isPending}
      onConfirm={(m) => save.mutate(m)}
      testId="margin-mode"
    />
  )
}
