// Package p2p is peer-to-peer trading between users for fiat (MNT first):
// merchants' ads, orders whose coins are held in escrow while the buyer pays
// outside the exchange, the seller's release, timeouts, appeals an operator
// decides, and the order's chat. Coins trade from and to the users' OTC
// accounts, which the store ledger keeps (internal/ledger): orders never
// touch an engine-owned balance.
//
// # Ads
//
// Only a merchant (an approved application, MerchantApply and the
// operator's ApproveMerchant) places ads. An ad is the merchant's side (SELL:
// the merchant sells coins for fiat; BUY: buys them), a coin, a fiat, a
// price (fixed, or floating: a percentage of the reference rate, read when
// an order opens), the amount of coin it offers, per-order limits in fiat,
// the merchant's payment methods (a copy, so an order shows what it was
// opened with), the time the buyer has to pay, terms, and whether takers
// must be verified. A SELL ad holds its coins in the merchant's OTC account
// (available → frozen) while it is open: its "remaining" is exactly what
// it holds for future orders.
//
// # Orders and escrow
//
// An order is opened by a taker against an ad. Its coins are in escrow in
// the seller's frozen OTC balance from the moment it opens: for a SELL ad
// they move from the ad's remaining to the order (no posting: they stay
// frozen); for a BUY ad the taker is the seller and the order's posting
// holds them. Then:
//
//	PENDING     the buyer pays outside the exchange within the ad's time
//	            limit, then marks the order paid (BUYER_PAID); the buyer may
//	            cancel; at the deadline the system cancels it
//	            (CANCELLED_BY_SYSTEM)
//	BUYER_PAID  the seller checks the money arrived and releases the coins
//	            with the fund password (COMPLETED); the buyer may still
//	            cancel (not paid after all); either side may appeal
//	IN_APPEAL   the escrow stays held; the appellant may withdraw the
//	            appeal (back to BUYER_PAID); the seller may still release;
//	            an operator decides: release to the buyer (COMPLETED) or
//	            return to the seller (CANCELLED)
//
// A release is the posting "p2p:order:<id>:release" (seller frozen → buyer
// available). A return is, while the ad it came from is open, the coins
// going back to the SELL ad's remaining (still frozen, no posting), and
// otherwise the posting "p2p:order:<id>:refund" (frozen → available).
// Every transition is one store transaction conditioned on the order's
// state and version, so a release and a return of the same order can
// never both happen, and neither twice; a posting's id makes a retried
// transition a no-op.
//
// Hence, per seller and coin, the frozen OTC balance equals the remaining
// of their open SELL ads plus the escrow of their orders that are not
// finished: Escrowed computes that sum, and the tests compare it with the
// ledger after random concurrent actions.
//
// The deadline is a workflow instance (internal/workflow, kind
// TimeoutKind) created in the order's transaction and due at the deadline;
// its step cancels the order if it is still PENDING and does nothing
// otherwise. In AWS the same step runs from a Step Functions Wait state.
//
// # Chat
//
// Each order has a chat: the two sides' text and images (upload ids the
// sender owns), and a system message for each transition, written in the
// transition's transaction. The operator reads it in an appeal.
//
// # Item layout
//
//	pk                  sk                         what
//	P2PAD#<id>          A                          an ad: uid, side, coin, fiat, priceType, price, margin,
//	                                               remaining, minFiat, maxFiat, methods (JSON), payMinutes,
//	                                               terms, kyc, status (open|closed), orders, ever (edit
//	                                               version), ver; gsi1 "P2PADS#<coin>#<fiat>#<side>" /
//	                                               "<created 13d>#<id>" while open; gsi2 "P2PMYADS#<uid>" /
//	                                               "<created 13d>#<id>"
//	P2PORD#<id>         O                          an order: ad, maker, taker, buyer, seller, side (the
//	                                               taker's), coin, fiat, price, volume, total, methods,
//	                                               status, deadline, paidAt, doneAt, appeal (JSON),
//	                                               ver; gsi2 "P2PAPPEALS#open" / "<at 13d>#<id>" while
//	                                               in appeal
//	P2PORD#<id>         M#<at 13d>#<rand>          a chat message: by (uid | "system" | "operator"),
//	                                               text, image, kind
//	P2PORD#<id>         CHAT                       the chat's message count (n), bounded
//	P2PUSER#<uid>       P                          the user's P2P profile: merchant state, counts (ads,
//	                                               open orders as taker, trades, buys, sells, cancelled),
//	                                               release and payment times
//	P2PUSER#<uid>       OPEN#<created 13d>#<id>    an unfinished order of the user (either side)
//	P2PUSER#<uid>       DONE#<created 13d>#<id>    a finished one, with the order's attributes as it
//	                                               finished (it never changes again: the finished
//	                                               list reads no order item)
package p2p
