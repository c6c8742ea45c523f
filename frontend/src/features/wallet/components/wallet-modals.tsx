import type { ModalState } from '../lib/search'
import { AddAddressModal } from './add-address-modal'
import { AddBankModal } from './add-bank-modal'
import { DepositModal } from './deposit-modal'
import { TradePasswordModal } from './trade-password-modal'
import { TransferModal } from './transfer-modal'
import { WithdrawModal } from './withdraw-modal'

export { WALLET_MODALS, type ModalState, type WalletModal } from '../lib/search'

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
