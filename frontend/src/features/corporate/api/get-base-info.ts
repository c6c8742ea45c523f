import { queryOptions } from '@tanstack/react-query'
import { apiData } from '@/lib/request-client'
import { corporateKeys, normalizeApplication, type CorporateApplication } from './types'

/** POST /fe-ex-api/company/get_base_info: the user's whole application (status none before the first save). */
export const GET_BASE_INFO_PATH = '/fe-ex-api/company/get_base_info'

export async function getBaseInfo(signal?: AbortSignal): Promise<CorporateApplication> {
  return normalizeApplication(await apiData<unknown>(GET_BASE_INFO_PATH, {}, { signal }))
}

/** The application's query: every save answers the whole application and replaces its data. */
export const corporateApplicationQuery = queryOptions({
  queryKey: corporateKeys.application,
  queryFn: ({ signal }) => getBaseInfo(signal),
  staleTime: 10_000,
})
