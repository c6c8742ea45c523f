// Package paymethod keeps a user's P2P payment methods: the accounts a P2P
// buyer pays the seller's fiat (MNT) into. A user lists, adds, edits,
// turns on or off and deletes their methods (the OTC service's
// /otc/payment/find, add, update, open and /otc/v4/payment/delete), and
// the ads package reads the open ones an ad offers (Get). The kinds a
// method may be of are Kinds (getCompanyPayment).
//
// # Kinds
//
//	bank       an MNT bank transfer: a bank of the wallet's bank list and the
//	           account as an IBAN (MN and 18 digits, coins.NormalizeIBAN)
//	qpay       the QPay wallet: the account is a phone number of 8 digits
//	socialpay  Golomt's SocialPay wallet: a phone number of 8 digits
//
// Cash is not a kind: a P2P trade settles by a transfer both sides can
// show, and cash in hand leaves nothing to show an appeal.
//
// # Who sees what
//
// Every call names its caller, and the methods live under the caller's own
// partition, so an id reaches only the caller's methods: another user's id
// answers CodePayMethodNotFound, as an id that does not exist does, and
// ids reveal nothing.
//
// # Account holder
//
// The holder's name (userName) must be the user's own: with
// Options.HolderName wired it is the verified real name, and a different
// name given is refused; P2P buyers pay into the account the ad shows, so
// an account in another person's name is how a scammer takes the fiat of
// someone else's trade.
//
// # Limits
//
// At most MaxMethods methods per user, and one method per account (kind
// and normalized account). A method an ad shows may still be deleted: the
// ads keep their own copy of what they show, so nothing here looks at them.
//
// # Item layout
//
//	pk              sk                       what
//	P2PPAY#<uid>    M#<id>                   a method: id, uid, kind, bank (bank kind only), title,
//	                                         titleMn, account (normalized), userName, open (bool),
//	                                         ctime, mtime (ms), ver (store.AttrVersion)
//	P2PPAY#<uid>    A#<kind>#<account>       the account claim: id of the method holding it
//	P2PPAY#<uid>    N                        n: how many methods the user has
//
// id is 16 random hex characters. An add writes the method, its claim (on
// condition there is none) and the count (on condition it is below
// MaxMethods) in one transaction, so concurrent adds never pass the limit
// nor save one account twice. An update or a switch conditions the method
// on the version it read (store.VersionIs) and sets the next one; an
// update that changes the account moves the claim in the same
// transaction. A delete removes the method and its claim and lowers the
// count together.
package paymethod
