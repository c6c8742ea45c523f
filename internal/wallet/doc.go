// Package wallet is the accounts side of Tenger's wallet: balances and
// valuations of every account kind, the per-locale rate tables, transfers
// between the spot account and the OTC, futures and margin accounts (one
// idempotent ledger posting each, with its transfer record in the same
// transaction), transfer history, the withdrawal address book and the
// verify-address switch, bank accounts and the payment list, the trade
// (capital) password and its 24 h withdrawal ban, and the fee-coin switch.
// Balances change only through internal/ledger.
//
// # Item layout (one table)
//
//	pk              sk                           what
//	WALLET#<uid>    SETTINGS                     verifyAddress (0|1), useFeeCoinOpen (0|1),
//	                                             capitalPwHash (argon2id PHC), capitalSetAt (ms),
//	                                             withdrawLockedUntil (ms)
//	WALLET#<uid>    ADDR#<id>                    saved address: coin, chain, address, memo, label, ctime
//	                                             (id = hash of coin, chain, canonical address, memo:
//	                                             one entry per destination)
//	WALLET#<uid>    BANK#<id>                    bank account: title, account (IBAN), userName, icon,
//	                                             payment, ctime (id = hash of the IBAN)
//	BANKIBAN#<iban> CLAIM                        uid: the one user whose bank account this IBAN is
//	                                             (written and deleted with the BANK# item)
//	WALLET#<uid>    XFER#<ms:013d>#<posting>     transfer record, written in the posting's transaction
//	WALLET#<uid>    SNAP#<yyyy-mm-dd>            daily valuation snapshot (USDT per account kind)
//
// Everything a user owns is under that user's partition, so a query can
// never reach another user's entries; ids in requests only ever address
// keys under the caller's own partition.
package wallet
