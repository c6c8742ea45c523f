import type { TransferAccount } from '../api/wallet-api'
import { AddAddressModal } from './add-address-modal'
import { AddBankModal } from './add-bank-modal'
import { DepositModal } from './deposit-modal'
import { TradePasswordModal } from './trade-password-modal'
import { TransferModal } from './transfer-modal'
import { WithdrawModal } from './withdraw-modal'

/** Wallet modal types (spec §2 plus the account modals). */
export const WALLET_MODALS = ['deposit', 'withdraw', 'transfer', 'addAddress', 'addBank', 'tradePassword'] as const
export type WalletModal = (typeof WALLET_MODALS)[number]

/** Which modal is open and for what (kept in the URL search so links can open one). */
export interface ModalState {
  modal?: WalletModal
  coin?: string
  account?: TransferAccount
}

/** Renders the wallet modals; exactly the one named by `state.modal` is open. */
export function WalletModals({ state, onClose }: { state: ModalState; onClose: () => void }) {
  const { modal, coin, account } = state
  return (
    <>
      <DepositModal open={modal === 'deposit'} onClose={onClose} coin={coin} />
      <WithdrawModal open={modal === 'withdraw'} onClose={onClose} coin={coin} />
      <TransferModal open={modal === 'transfer'} onClose={onClose} account={account} coin={coin} />
      <AddAddressModal open={modal === 'addAddress'} onClose={onClose} coin={coin} />
      <AddBankModal open={modal === 'addBank'} onClose={onClose} />
      <TradePasswordModal open={modal === 'tradePassword'} onClose={onClose} />
    </>
  )
}
