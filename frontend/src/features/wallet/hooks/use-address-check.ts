import { useQuery } from '@tanstack/react-query'
import { isSuccess } from '@/lib/request-client'
import { validateWithdrawAddress } from '../api/wallet-api'
import { useDebouncedValue } from './use-debounced-value'

/** How long typing must pause before the address is checked. */
export const ADDRESS_CHECK_DEBOUNCE_MS = 400
/** How long a check's answer is reused (also by the step's Confirm). */
const CHECK_FRESH_MS = 60_000
/** The server's code of a memo (tag) the chain refuses: the memo field is at fault. */
export const CODE_MEMO_INVALID = '13006'

/**
 * The validity call of spec §7 (validate_withdraw_address) as a query:
 * the as-you-type check and the step's Confirm share its answers. Outside
 * ['wallet'], so a balance refresh does not check the address again.
 */
export function addressCheckQuery(symbol: string, chain: string, target: string) {
  return {
    queryKey: ['withdraw-address-check', symbol, chain, target] as const,
    queryFn: () => validateWithdrawAddress(symbol, chain, target),
    staleTime: CHECK_FRESH_MS,
    retry: false,
  }
}

/**
 * What the address check says: nothing yet (empty, or still being typed),
 * checking, valid, invalid (with the server's message and the field at
 * fault), or unknown (no answer: the Confirm step asks again).
 */
export type AddressCheck =
  | { state: 'idle' | 'checking' | 'valid' | 'unknown' }
  | { state: 'invalid'; field: 'address' | 'memo'; message: string }

/**
 * Checks a withdrawal destination (address, or address_memo) through the
 * server as it is typed, once typing pauses; `flush` checks what is typed
 * now (the step's Confirm).
 */
export function useAddressCheck(symbol: string, chain: string, target: string, enabled: boolean): { check: AddressCheck; flush: () => void } {
  const [settled, flush] = useDebouncedValue(target, ADDRESS_CHECK_DEBOUNCE_MS)
  const active = enabled && !!symbol && !!chain && settled !== '' && settled === target
  const query = useQuery({ ...addressCheckQuery(symbol, chain, settled), enabled: active })
  if (!active) return { check: { state: 'idle' }, flush }
  if (query.isPending) return { check: { state: 'checking' }, flush }
  if (query.isError || !query.data) return { check: { state: 'unknown' }, flush }
  const envelope = query.data
  if (isSuccess(envelope)) return { check: { state: 'valid' }, flush }
  return {
    check: { state: 'invalid', field: String(envelope.code) === CODE_MEMO_INVALID ? 'memo' : 'address', message: envelope.msg },
    flush,
  }
}
