/**
 * The wallet area's URL search values. The route files validate them, and
 * route files are part of the first load, so this module imports nothing of
 * the wallet's pages (they load with the route).
 */

/** The views of the wallet area (spec §2). */
export const WALLET_VIEWS = ['overview', 'spot', 'cross', 'isolated', 'otc', 'futures', 'earn'] as const
export type WalletView = (typeof WALLET_VIEWS)[number]

/** Wallet modal types (spec §2 plus the account modals). */
export const WALLET_MODALS = ['deposit', 'withdraw', 'transfer', 'addAddress', 'addBank', 'tradePassword'] as const
export type WalletModal = (typeof WALLET_MODALS)[number]

/** The accounts of the transfer modal besides spot. */
export type TransferAccount = 'otc' | 'margin_cross' | 'margin_isolated' | 'futures'
export const TRANSFER_ACCOUNTS: TransferAccount[] = ['otc', 'margin_cross', 'margin_isolated', 'futures']

/** Which modal is open and for what (kept in the URL search so links can open one). */
export interface ModalState {
  modal?: WalletModal
  coin?: string
  account?: TransferAccount
}

/** The wallet search parameters: the view and the open modal. */
export interface WalletSearch extends ModalState {
  view?: WalletView
}

/** The tabs of the deposit and withdrawal history page. */
export const HISTORY_TABS = ['deposit', 'withdraw', 'transfer'] as const
export type HistoryTab = (typeof HISTORY_TABS)[number]
