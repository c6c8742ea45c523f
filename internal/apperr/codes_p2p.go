package apperr

import "net/http"

// P2P trading (internal/p2p): merchants' ads, orders with escrow, appeals
// and the order chat. Codes 17000–17149 belong to this area (17150–17199
// to the payment methods). Two carry the spec's catalogue texts (§8):
// "only merchant can place ad" and the key own_ad_cannot_be_traded, which
// they also send as errorMsg.
var (
	// CodeP2PNotMerchant: only a merchant places ads (spec §6).
	CodeP2PNotMerchant = register("17000", http.StatusOK,
		"only merchant can place ad",
		"Зөвхөн мерчант зар нийтэлж болно")
	// CodeP2POwnAd: a user cannot trade their own ad (spec §6, errorMsg
	// own_ad_cannot_be_traded).
	CodeP2POwnAd = register("17001", http.StatusOK,
		"You cannot trade your own ad",
		"Та өөрийн зарыг арилжих боломжгүй")
	// CodeP2PAdNotFound: no such ad (or not the caller's, for the owner's calls).
	CodeP2PAdNotFound = register("17002", http.StatusOK,
		"Ad not found",
		"Зар олдсонгүй")
	// CodeP2PAdClosed: the ad is closed (or was closed meanwhile).
	CodeP2PAdClosed = register("17003", http.StatusOK,
		"This ad is closed",
		"Энэ зар хаагдсан байна")
	// CodeP2PAdField: a field of the ad is missing or out of its range (%s names it).
	CodeP2PAdField = register("17004", http.StatusOK,
		"Invalid ad: %s",
		"Зарын мэдээлэл буруу: %s")
	// CodeP2PAdRemaining: the order is larger than what the ad has left.
	CodeP2PAdRemaining = register("17005", http.StatusOK,
		"The ad has only %s %s left",
		"Зард ердөө %s %s үлдсэн байна")
	// CodeP2POrderLimits: the order's fiat amount is outside the ad's per-order limits.
	CodeP2POrderLimits = register("17006", http.StatusOK,
		"The order must be between %s and %s %s",
		"Захиалгын дүн %s-аас %s %s-ийн хооронд байх ёстой")
	// CodeP2PAdChanged: the ad changed between reading and writing (its
	// price or amount moved); nothing was done, try again.
	CodeP2PAdChanged = register("17007", http.StatusOK,
		"The ad changed meanwhile, please check it and try again",
		"Зар энэ хооронд өөрчлөгдсөн байна, шалгаад дахин оролдоно уу")
	// CodeP2PKYCRequired: the ad trades only with verified users.
	CodeP2PKYCRequired = register("17008", http.StatusOK,
		"This ad trades only with verified users: complete identity verification first",
		"Энэ зар зөвхөн баталгаажсан хэрэглэгчтэй арилжина: эхлээд иргэний баталгаажуулалтаа хийнэ үү")
	// CodeP2PInsufficient: the seller's OTC account holds less than the ad or order needs.
	CodeP2PInsufficient = register("17009", http.StatusOK,
		"Insufficient %s in your P2P (OTC) account",
		"Таны P2P (OTC) дансанд %s хүрэлцэхгүй байна")
	// CodeP2POrderNotFound: no such order of the caller (another user's
	// order answers the same, so ids reveal nothing).
	CodeP2POrderNotFound = register("17010", http.StatusOK,
		"Order not found",
		"Захиалга олдсонгүй")
	// CodeP2POrderState: the action does not fit the order's state (%s is it).
	CodeP2POrderState = register("17011", http.StatusOK,
		"This order is %s: the action is not possible",
		"Энэ захиалга %s төлөвт байна: үйлдэл хийх боломжгүй")
	// CodeP2POrderRole: the action belongs to the other side of the order
	// (only the buyer marks paid, only the seller releases).
	CodeP2POrderRole = register("17012", http.StatusOK,
		"Only the %s of this order can do that",
		"Үүнийг зөвхөн энэ захиалгын %s хийж болно")
	// CodeP2PFundPassword: the fund (trade) password is missing or wrong.
	CodeP2PFundPassword = register("17013", http.StatusOK,
		"Fund password is wrong",
		"Хөрөнгийн нууц үг буруу байна")
	// CodeP2PFundPasswordUnset: no fund password is set; release needs one.
	CodeP2PFundPasswordUnset = register("17014", http.StatusOK,
		"Set a fund password before releasing coins",
		"Зоос шилжүүлэхийн өмнө хөрөнгийн нууц үгээ тохируулна уу")
	// CodeP2PAppealField: the appeal's reason or description is missing or too long.
	CodeP2PAppealField = register("17015", http.StatusOK,
		"Invalid appeal: %s",
		"Гомдлын мэдээлэл буруу: %s")
	// CodeP2PAppealNotYours: only the side that appealed can withdraw the appeal.
	CodeP2PAppealNotYours = register("17016", http.StatusOK,
		"Only the side that appealed can cancel the appeal",
		"Гомдлыг зөвхөн гаргасан тал цуцалж болно")
	// CodeP2PChatText: a chat message is empty, too long, or has an image that is not the sender's upload.
	CodeP2PChatText = register("17017", http.StatusOK,
		"Invalid message: %s",
		"Мессеж буруу: %s")
	// CodeP2PChatClosed: the order's chat takes no more messages (it ended long ago, or is full).
	CodeP2PChatClosed = register("17018", http.StatusOK,
		"This order's chat is closed",
		"Энэ захиалгын чат хаагдсан байна")
	// CodeP2PTooManyOpen: the taker has too many unfinished orders.
	CodeP2PTooManyOpen = register("17019", http.StatusOK,
		"You have %d unfinished P2P orders: finish or cancel one first",
		"Танд дуусаагүй %d P2P захиалга байна: эхлээд нэгийг нь дуусгах эсвэл цуцална уу")
	// CodeP2PTooManyAds: the merchant has as many open ads as allowed.
	CodeP2PTooManyAds = register("17020", http.StatusOK,
		"You have %d open ads, the most allowed",
		"Танд %d нээлттэй зар байна, энэ нь дээд хязгаар")
	// CodeP2PNoPrice: a floating price has no reference rate for the coin and fiat now.
	CodeP2PNoPrice = register("17021", http.StatusOK,
		"No reference price for %s/%s right now",
		"%s/%s-ийн лавлах ханш одоогоор алга")
	// CodeP2PMerchantState: the merchant application does not fit the user's state (%s).
	CodeP2PMerchantState = register("17022", http.StatusOK,
		"Merchant application: %s",
		"Мерчантын өргөдөл: %s")
	// CodeP2PAppealDecision: an operator's decision that does not fit (no
	// open appeal, or an unknown outcome).
	CodeP2PAppealDecision = register("17023", http.StatusOK,
		"Appeal decision: %s",
		"Гомдлын шийдвэр: %s")
	// CodeP2PAdOpenOrders: an ad with unfinished orders cannot change its coin, side or fiat.
	CodeP2PAdOpenOrders = register("17024", http.StatusOK,
		"The ad has unfinished orders: only its price, limits, methods and terms can change now",
		"Зард дуусаагүй захиалга байна: одоо зөвхөн үнэ, хязгаар, төлбөрийн арга, нөхцөлийг өөрчилж болно")
	// CodeP2PNoQuote: express found no ad that can fill the amount now.
	CodeP2PNoQuote = register("17025", http.StatusOK,
		"No ad can fill this amount right now: try another amount or the P2P market",
		"Одоогоор энэ дүнг бөглөх зар алга: өөр дүн эсвэл P2P зах зээлийг үзнэ үү")
	// CodeP2PBlocked: one side has blocked the other; they cannot trade.
	CodeP2PBlocked = register("17026", http.StatusOK,
		"You cannot trade with this user",
		"Та энэ хэрэглэгчтэй арилжаа хийх боломжгүй")
	// CodeP2PRelation: a relation that is not block or follow, or with oneself.
	CodeP2PRelation = register("17027", http.StatusOK,
		"Invalid contact: %s",
		"Харилцагч буруу: %s")
)
