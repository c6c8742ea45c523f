import { getConfig } from '@/lib/config'
import { changeLevel } from '../api/change-level'
import { getAccessToken, type AccessToken } from '../api/get-access-token'
import type { LevelList } from '../api/get-level-list'

/**
 * The Verify button's flow: move to the level (when it is not the one
 * applied for), get an access token for it, and say how to open the
 * provider's flow: Sumsub's WebSDK with the token, or the simulator's page
 * of `tenger serve --dev`.
 */

/** How the provider's flow opens. */
export type VerifyLaunch =
  | { kind: 'sumsub'; token: string; levelName: string }
  | { kind: 'simulator'; url: string }
  /** A provider this app cannot open (or a simulator answer without its page). */
  | { kind: 'unsupported'; provider: string }

/**
 * The simulator's page as an absolute URL: a path is on the API's host (the
 * server that made it); anything but http(s) is refused.
 */
export function simulatorHref(url: string, apiBase: string = getConfig().api['/fe-ex-api']): string | undefined {
  try {
    const abs = new URL(url, apiBase)
    return abs.protocol === 'https:' || abs.protocol === 'http:' ? abs.toString() : undefined
  } catch {
    return undefined
  }
}

/** How to open the flow of an access token. */
export function launchOf(token: AccessToken): VerifyLaunch {
  if (token.provider === 'sumsub' && token.token) return { kind: 'sumsub', token: token.token, levelName: token.levelName }
  if (token.provider === 'simulator') {
    const url = simulatorHref(token.simulatorUrl)
    if (url) return { kind: 'simulator', url }
  }
  return { kind: 'unsupported', provider: token.provider }
}

/** The calls of the flow (replaced in tests). */
export interface VerifyCalls {
  changeLevel: (levelName?: string) => Promise<LevelList | undefined>
  getAccessToken: (levelName?: string) => Promise<AccessToken | undefined>
}

const calls: VerifyCalls = { changeLevel, getAccessToken }

/** What the flow got: the launch, and the level list when the level moved. */
export interface VerifyStart {
  launch?: VerifyLaunch
  list?: LevelList
}

/**
 * Starts verification at `levelName` for a user whose verification is
 * `list`. A refusal (shown by the request client's toast) ends it with no
 * launch.
 */
export async function startVerification(levelName: string, list: LevelList, deps: VerifyCalls = calls): Promise<VerifyStart> {
  let moved: LevelList | undefined
  if (levelName && levelName !== list.currentLevel) {
    moved = await deps.changeLevel(levelName)
    if (!moved) return {}
  }
  const token = await deps.getAccessToken(levelName || undefined)
  if (!token) return { list: moved }
  return { launch: launchOf(token), list: moved }
}
