// Package account is the end of an account's life: whether the owner may
// cancel it (check_user_cancellation_info), the cancellation itself
// (user_cancellation), and the operator's side: the cancelled accounts
// that received money afterwards, and reopening one (`tenger account`).
//
// # What blocks a cancellation
//
// A cancellation must never strand the owner's money or leave work half
// done, so it is refused while any of these holds, every one listed:
//
//   - a non-zero balance (available or frozen) in any of the user's
//     accounts: spot (which the engine owns and projects into the store),
//     earn, futures, margin (cross and isolated) and OTC;
//   - open spot orders (they hold part of a balance; listed on their own
//     so the user knows to cancel them);
//   - withdrawals not yet finished (PENDING, PROCESSING);
//   - transfers between the user's accounts still between their two steps
//     (their money sits in the transit account, in none of the balances);
//   - chain deposits waiting for confirmations (they will be credited).
//
// API keys do not block it: the cancellation deletes them, in its own
// transaction. Verification (KYC) state, the histories and the records
// stay as they are.
//
// # One transaction
//
// The cancellation is one store transaction (auth.Service.CancelAccount):
// the profile marked cancelled with its session generation raised (every
// session ends), the codes used up, the setting history, the cancellation
// record below, the deletion of every API key (on condition that the key
// count is what was read), and a check of every balance item read that it
// is still zero. A deposit or a transfer that the store shows between the
// check and the commit therefore refuses the cancellation
// (CodeAccountChanged), and an order needs a balance, so the engine
// refuses any placed meanwhile; a session or key used meanwhile ends with
// the commit.
//
// # Money that arrives later
//
// The engine owns the spot balances and the store shows them a few
// milliseconds behind; the chains and the bank may deliver at any time
// after, too. Nothing refuses a credit to a cancelled account: money is
// never lost or bounced by this package. A deposit to a cancelled
// account's addresses, or a bank transfer naming its user id, is credited
// to it as to any account and stays there, held: the owner cannot sign in
// to move it. Review lists the cancelled accounts holding money; after
// checking who asks, an operator reopens the account (`tenger account
// reopen <uid>`) and the owner signs in and withdraws. The cancellation
// e-mail tells the owner so.
//
// # Addresses stay reserved
//
// A cancelled account keeps its e-mail and phone (auth's EMAIL#/PHONE#
// items keep naming it): its records are kept under the law anyway
// (RetentionPeriod), deposits to it stay attributable to it, an operator
// can reopen it, and nobody else can take over the identity of a closed
// account. Signing up again with them answers that they are registered.
//
// # Item layout
//
//	pk             sk             what
//	USER#<uid>     CANCELLATION   the last cancellation: uid, cancelledAt (ms), reason (the owner's,
//	                              optional), ip, device, apiKeys (the ids of the keys deleted),
//	                              retainUntil (ms), reopenedAt, reopenNote and reopenedBy (the
//	                              operator, when named) once reopened;
//	                              gsi1 "ACCTCLOSED" / "<cancelledAt 13d>#<uid>" while cancelled (Review)
package account
