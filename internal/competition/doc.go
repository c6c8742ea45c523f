// Package competition is the futures trading competition: competitions an
// operator defines (names, description, start and end, the margin coin,
// a prize table by rank and the rules for joining), users joining them,
// a ranking by return on investment refreshed every minute, and the
// prizes paid once the competition has ended.
//
// # Joining
//
// A user joins a running competition (Join) when every rule holds: a
// verified identity (KYC level 1), a bound mobile number, an opened
// futures account and at least the minimum futures margin balance. The
// participant is recorded with its initial equity, the margin balance at
// joining; joining again is a no-op.
//
// # Ranking
//
// Every minute (Refresher; in AWS a schedule calling Refresh) each
// participant's standing is computed from two sources behind small
// interfaces: the futures margin balance now (Futures: wallet balance +
// unrealized PnL at mark) and the transfers between its spot and futures
// accounts since joining (Transfers). Compute (roi.go) gives
//
//	profit = equity − initial equity − net transfers in
//	ROI    = profit ÷ (initial equity + time-weighted net transfers in)
//
// where each transfer is weighted by the fraction of the competition left
// when it came, so money brought in late counts little in the
// denominator, and none of it counts as profit. Participants whose
// denominator is not positive are ranked last. A refresh reads every
// participant once and writes only what changed (a refresh with nothing
// changed writes nothing but the competition's refresh time): it is
// O(participants) and idempotent.
//
// # The end and the prizes
//
// The first refresh at or after the end is the final one: it writes the
// final ranks and then, in one transaction, the final marker (the winners:
// rank, user and prize of each prize rank held by a participant with an
// ROI) and the competition's finalAt. The marker exists once (written
// only where none is), and every later ranking write and every join is
// conditioned on it, so the ranks stop there and the winners never
// change. Settle (the refresher after the final refresh, or the operator's
// `tenger competition settle`) credits each winner's prize to their spot
// account through spotfunds.Funds.Credit with the reference
// "competition:<id>:<uid>" from the treasury account
// ledger.TreasuryAccount("competition"), then marks the competition
// settled, only after every credit answered. A settle stopped part-way is
// finished by the next: the credits already made answer "done before"
// (idempotent by reference), so nobody is paid twice.
//
// # Item layout
//
//	pk                 sk          what
//	COMP#<id>          C           a competition: names, descriptions (JSON), start, end, coin, prizes
//	                               (JSON), kycLevel, mobile, minBalance, futuresAccount, participants,
//	                               ranked, refreshedAt, finalAt, settledAt, paid, created, updated, ver;
//	                               gsi1 "COMPS" / "<start 13d>#<id>" (every competition); gsi2
//	                               "COMPOPEN" / "<start 13d>#<id>" until settled (what Refresh reads)
//	COMP#<id>          FINAL       the final marker: at, ranked, winners (JSON: rank, uid, amount)
//	COMPU#<id>         <uid>       a participant: nick, initial, joinedAt; from the refreshes rank,
//	                               equity, profit, roi, netIn, weighted, ranked, at; prize, paidAt once paid
//	COMPRANK#<id>      <rank 8d>   a rank: uid, nick, equity, initial, profit, roi, ranked, at
package competition
