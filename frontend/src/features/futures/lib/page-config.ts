import type { UserConfig } from '../api/futures-api'

/** Preferences of the page kept on the server (/user/edit_user_page_config): '0' turns a confirmation off. */
export const PAGE_CONFIG = { orderConfirm: 'orderConfirm', closeConfirm: 'closeConfirm' } as const
export type PageConfigKey = keyof typeof PAGE_CONFIG

/** True unless the user turned the confirmation off. */
export function confirmOn(config: Pick<UserConfig, 'pageConfig'> | undefined, key: PageConfigKey): boolean {
  return config?.pageConfig?.[PAGE_CONFIG[key]] !== '0'
}
