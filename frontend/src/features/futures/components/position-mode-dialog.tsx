import { useMutation, useQueryClient } from '@tanstack/react-query'
import { notifySuccess } from '@/lib/notify'
import { futuresKeys, POSITION_HEDGE, POSITION_ONE_WAY, setPositionMode, type PositionMode, type UserConfig } from '../api/futures-api'
import { futuresTexts } from '../lib/texts'
import { ChoiceDialog } from './choice-dialog'
import { notifyTransport } from './shared'

const MODES: { mode: PositionMode; key: 'oneWay' | 'hedge' }[] = [
  { mode: POSITION_ONE_WAY, key: 'oneWay' },
  { mode: POSITION_HEDGE, key: 'hedge' },
]

/** The text key of a position mode's name. */
export function positionModeKey(mode: number | undefined): string {
  return mode === POSITION_HEDGE ? 'positionMode.hedge' : 'positionMode.oneWay'
}

/**
 * The user's position mode, for every contract: One-way (one position per
 * contract, buying and selling move it) or Hedge (a long and a short at
 * once, each opened and closed on its own), each explained. Confirm saves
 * it (/user/position_model_edit) and reads every contract's settings again;
 * the server refuses it while the user has a position, an open order or a
 * waiting trigger order, and its message shows in a toast while the dialog
 * stays open.
 */
export function PositionModeDialog({ open, onClose, mode }: { open: boolean; onClose: () => void; mode: number }) {
  const { t } = futuresTexts.useTexts()
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: (chosen: PositionMode) => setPositionMode(chosen),
    onSuccess: (_config, chosen) => {
      // The mode is the user's: every contract's settings have it.
      queryClient.setQueriesData<UserConfig>({ queryKey: futuresKeys.configs }, (old) => (old ? { ...old, positionMode: chosen } : old))
      void queryClient.invalidateQueries({ queryKey: futuresKeys.configs })
      notifySuccess(t('positionMode.done', { mode: t(positionModeKey(chosen)) }))
      onClose()
    },
    onError: (error) => notifyTransport(error, t('common.unreachable')),
  })
  return (
    <ChoiceDialog
      open={open}
      onClose={onClose}
      title={t('positionMode.title')}
      label={t('positionMode.label')}
      choices={MODES.map(({ mode: m, key }) => ({ value: m, key, title: t(`positionMode.${key}`), hint: t(`positionMode.${key}Hint`) }))}
      value={mode === POSITION_HEDGE ? POSITION_HEDGE : POSITION_ONE_WAY}
      note={t('positionMode.note')}
      busy={save.isPending}
      onConfirm={(m) => save.mutate(m)}
      testId="position-mode"
    />
  )
}
