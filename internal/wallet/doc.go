// Package wallet is the accounts side of Tenger's wallet: balances and
// valuations of every account kind, the per-locale rate tables, transfers
// between the spot account and the OTC, futures and margin accounts (a
// pending transfer record and idempotent money steps, spot's through
// spotfunds.Funds, finished by a retry or by ResumeTransfers), transfer
// history, the withdrawal address book and the verify-address switch, bank
// accounts and the payment list, the trade (capital) password and its 24 h
// withdrawal ban, and the fee-coin switch. The package changes spot
// balances only through spotfunds.Funds, the others only through
// internal/ledger.
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
//	WALLET#<uid>    XFER#<id>                    transfer record: id, uid, type, coin, amount, from, to,
//	                                             symbol, requestId, ctime, status (pending|success|failed;
//	                                             none: success); gsi1 XFERLOG#<uid> / <ctime:013d>#<seq>#<id>
//	                                             (history); gsi2 XFERPEND#<nn> / <ctime:013d>#<uid>#<id> only
//	                                             while pending (ResumeTransfers). id is "c"+hash of the
//	                                             request id, or "r"+random; the money moves under the Ref
//	                                             "xfer:<uid>:<id>" (an other→spot transfer's ledger posting
//	                                             to transit is "xfer:<uid>:<id>:out", its way back ":back")
//	WALLET#<uid>    SNAP#<yyyy-mm-dd>            daily valuation snapshot (USDT per account kind)
//
// Everything a user owns is under that user's partition, so a query can
// never reach another user's entries; ids in requests only ever address
// keys under the caller's own partition.
package wallet
