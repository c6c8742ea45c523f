import { apiPost, type ApiEnvelope } from '@/lib/request-client'
import type { People } from './types'

/**
 * POST /fe-ex-api/company/company_user: saves step 3, the whole list of
 * representatives and owners (a person sent with their id keeps it, and
 * their ID documents). Silent, like the other saves.
 */
export const COMPANY_USER_PATH = '/fe-ex-api/company/company_user'

export function saveCompanyUser(people: People): Promise<ApiEnvelope<unknown>> {
  return apiPost<unknown>(
    COMPANY_USER_PATH,
    {
      people: people.people.map((p) => ({
        ...(p.id ? { id: p.id } : {}),
        name: p.name,
        roles: p.roles,
        nationality: p.nationality,
        dateOfBirth: p.dateOfBirth,
        ...(p.roles.includes('owner') ? { ownershipPercent: p.ownershipPercent } : {}),
      })),
      allOwnersListed: people.allOwnersListed,
    },
    { silent: true },
  )
}
