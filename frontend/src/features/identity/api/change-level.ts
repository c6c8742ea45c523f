import { apiPost, isSuccess } from '@/lib/request-client'
import { normalizeLevelList, type LevelList, type RawLevelList } from './get-level-list'

/**
 * POST /fe-ex-api/sumsub/change_level_and_create_info (spec §7): starts
 * verification at a level, or moves to another one, and answers the level
 * list. Idempotent; refused while a review runs (16003) and after a FINAL
 * rejection (16002). A refusal shows in the global error toast and resolves
 * undefined.
 */
export async function changeLevel(levelName?: string): Promise<LevelList | undefined> {
  const envelope = await apiPost<RawLevelList | null>(
    '/fe-ex-api/sumsub/change_level_and_create_info',
    levelName ? { levelName } : {},
  )
  return isSuccess(envelope) ? normalizeLevelList(envelope.data) : undefined
}
