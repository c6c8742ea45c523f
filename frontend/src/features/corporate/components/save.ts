import type { QueryClient } from '@tanstack/react-query'
import { notifyError } from '@/lib/notify'
import { failureText, isNetworkError, isSuccess, type ApiEnvelope } from '@/lib/request-client'
import { corporateKeys, normalizeApplication, type CorporateApplication } from '../api/types'
import { serverFieldError, STALE_CODES } from '../lib/server-errors'
import type { FieldErrors } from '../lib/validation'

/** What a save came to. */
export type SaveResult =
  | { ok: true; app: CorporateApplication }
  | { ok: false; fieldErrors?: FieldErrors }

/**
 * Sends one save and reads its answer: the whole application on success
 * (the query's data is replaced with it); a refusal of a field mapped onto
 * it; a change of state meanwhile (submitted elsewhere, approved) told and
 * the application reloaded; any other refusal in the error toast. A request
 * the exchange did not answer is told by the request client.
 */
export async function runSave(queryClient: QueryClient, send: () => Promise<ApiEnvelope<unknown>>): Promise<SaveResult> {
  let envelope: ApiEnvelope<unknown>
  try {
    envelope = await send()
  } catch (e) {
    if (!isNetworkError(e)) notifyError(e instanceof Error ? e.message : String(e))
    return { ok: false }
  }
  if (isSuccess(envelope)) {
    const app = normalizeApplication(envelope.data)
    queryClient.setQueryData(corporateKeys.application, app)
    return { ok: true, app }
  }
  const code = String(envelope.code)
  const mapped = serverFieldError(code, envelope.msg)
  if (mapped) return { ok: false, fieldErrors: { [mapped.field]: mapped.message } }
  if (code !== '10002') notifyError(failureText(envelope))
  if (STALE_CODES.has(code)) void queryClient.invalidateQueries({ queryKey: corporateKeys.all })
  return { ok: false }
}
