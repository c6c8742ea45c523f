import type { ApiEnvelope } from '@/lib/request-client'

/** errorMsg keys of the withdraw submit (spec §8). */
export const ERROR_NOT_ENOUGH = 'the.amount.is.not.enough'
export const ERROR_EXCEEDED = 'the.amount.is.exceeded'
/** Code of a wrong mobile or e-mail verification code (spec §8). */
export const CODE_VERIFY_WRONG = '10009'

/**
 * The text key (walletModals) or the server message to show for a failed
 * withdraw submit: 10009 and the two errorMsg keys have their own texts,
 * anything else shows the server's msg as is.
 */
export function withdrawErrorText(
  envelope: Pick<ApiEnvelope, 'code' | 'msg' | 'errorMsg'>,
): { key: string } | { message: string } {
  if (String(envelope.code) === CODE_VERIFY_WRONG) return { key: 'errors.code10009' }
  if (envelope.errorMsg === ERROR_NOT_ENOUGH) return { key: 'errors.amountNotEnough' }
  if (envelope.errorMsg === ERROR_EXCEEDED) return { key: 'errors.amountExceeded' }
  return { message: envelope.msg }
}

/**
 * The method (chain) a coin starts with in the deposit and withdraw
 * modals: its only chain. A coin on several chains starts with none, so
 * the user picks the network the coins travel on (a wrong one can lose
 * them), except that a withdrawal takes the bank when the second chain is
 * the bank (spec §4).
 */
export function defaultMethod(chains: { name: string }[], dir: 'deposit' | 'withdraw'): string {
  if (chains.length === 1) return chains[0].name
  if (dir === 'withdraw' && chains[1]?.name.toLowerCase() === 'bank') return chains[1].name
  return ''
}
