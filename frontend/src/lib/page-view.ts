import { apiPost } from './request-client'

/** Body of POST /fe-ex-api/common/page_view. */
export interface PageView {
  path: string
  title: string
  referrer: string
}

export const PAGE_VIEW_PATH = '/fe-ex-api/common/page_view'

/** Reports a page view; analytics must never disturb the user, so failures are ignored. */
export async function reportPageView(view: PageView): Promise<void> {
  try {
    await apiPost(PAGE_VIEW_PATH, { ...view }, { silent: true })
  } catch {
    // Analytics is best effort.
  }
}
