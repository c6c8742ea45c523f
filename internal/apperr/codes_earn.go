package apperr

import "net/http"

// Earn (internal/earn): flexible savings, staking, the launchpad and
// crypto loans. Codes 19000–19399 belong to this area: 190xx savings,
// 191xx staking, 192xx launchpad, 193xx loans.
var (
	// CodeEarnUnknownProduct: no such product (%s names what was asked).
	CodeEarnUnknownProduct = register("19000", http.StatusOK,
		"Unknown product %s",
		"%s бүтээгдэхүүн олдсонгүй")
	// CodeEarnCoinMismatch: the coin named is not the product's (%s: the product's coin).
	CodeEarnCoinMismatch = register("19001", http.StatusOK,
		"This product takes %s only",
		"Энэ бүтээгдэхүүн зөвхөн %s хүлээн авна")
	// CodeEarnClosed: the product takes no new subscriptions.
	CodeEarnClosed = register("19002", http.StatusOK,
		"The product is closed to new subscriptions",
		"Бүтээгдэхүүн шинээр захиалга авахгүй байна")
	// CodeEarnBelowMin: the amount is below the product's minimum (%s: the minimum and coin).
	CodeEarnBelowMin = register("19003", http.StatusOK,
		"The least you can subscribe is %s",
		"Хамгийн багадаа %s захиалах боломжтой")
	// CodeEarnAboveCap: the amount would take the user above the product's cap (%s: what is left under it).
	CodeEarnAboveCap = register("19004", http.StatusOK,
		"Above the product's limit per user: you can add at most %s",
		"Хэрэглэгчийн дээд хязгаараас хэтэрч байна: дахин %s хүртэл нэмэх боломжтой")
	// CodeEarnRedeemTooMuch: the amount is more than the user can redeem (%s: what can be).
	CodeEarnRedeemTooMuch = register("19005", http.StatusOK,
		"You can redeem at most %s",
		"Хамгийн ихдээ %s буцаан авах боломжтой")
	// CodeEarnRedeemType: the redemption type is neither fast nor standard.
	CodeEarnRedeemType = register("19006", http.StatusOK,
		"Redemption type must be fast or standard",
		"Буцаан авах төрөл fast эсвэл standard байх ёстой")
	// CodeEarnBusy: the position kept changing under the request; try again.
	CodeEarnBusy = register("19007", http.StatusOK,
		"Your savings are being updated; try again in a moment",
		"Таны хадгаламж шинэчлэгдэж байна; хэсэг хүлээгээд дахин оролдоно уу")
	// CodeEarnRequestReused: the request id was used for another request.
	CodeEarnRequestReused = register("19008", http.StatusOK,
		"This request id was used for another request",
		"Энэ хүсэлтийн дугаарыг өөр хүсэлтэд ашигласан байна")
	// CodeEarnNothingHeld: the user holds nothing in the product.
	CodeEarnNothingHeld = register("19009", http.StatusOK,
		"You hold nothing in this product",
		"Танд энэ бүтээгдэхүүнд хөрөнгө байхгүй байна")
	// CodeEarnStakeUnknown: no such stake of the user (%s: the id asked).
	CodeEarnStakeUnknown = register("19100", http.StatusOK,
		"Unknown stake %s",
		"%s стейк олдсонгүй")
	// CodeEarnStakeEnded: the stake has matured or was redeemed already.
	CodeEarnStakeEnded = register("19101", http.StatusOK,
		"This stake has ended already",
		"Энэ стейк аль хэдийн дууссан байна")
	// CodeLaunchNotOpen: the sale is not in its subscription phase (%s: its phase).
	CodeLaunchNotOpen = register("19200", http.StatusOK,
		"The sale takes no commitment now: it is %s",
		"Худалдаа одоо хөрөнгө хүлээн авахгүй: %s үе шат")
	// CodeLoanPair: the coin cannot be borrowed against that collateral (%s, %s: loan coin, collateral).
	CodeLoanPair = register("19300", http.StatusOK,
		"%s cannot be borrowed against %s",
		"%s-г %s барьцаалан зээлэх боломжгүй")
	// CodeLoanTerm: the term is not 7, 14, 30 or 90 days.
	CodeLoanTerm = register("19301", http.StatusOK,
		"Loan term must be 7, 14, 30 or 90 days",
		"Зээлийн хугацаа 7, 14, 30 эсвэл 90 хоног байх ёстой")
	// CodeLoanLTV: the loan would be above the initial LTV (%s: the initial LTV).
	CodeLoanLTV = register("19302", http.StatusOK,
		"Not enough collateral: the loan may be at most %s of the collateral's value",
		"Барьцаа хүрэлцэхгүй: зээл барьцааны үнэ цэнийн %s-аас ихгүй байх ёстой")
	// CodeLoanTooMuch: the amount is above the most one loan may be (%s).
	CodeLoanTooMuch = register("19303", http.StatusOK,
		"One loan may be at most %s",
		"Нэг зээл хамгийн ихдээ %s байна")
	// CodeLoanUnknown: no such loan of the user (%s).
	CodeLoanUnknown = register("19304", http.StatusOK,
		"Unknown loan %s",
		"%s зээл олдсонгүй")
	// CodeLoanEnded: the loan is repaid, liquidated or being liquidated.
	CodeLoanEnded = register("19305", http.StatusOK,
		"This loan is closed",
		"Энэ зээл хаагдсан байна")
	// CodeLoanNoPrice: no index price for the pair yet (%s).
	CodeLoanNoPrice = register("19306", http.StatusOK,
		"No index price for %s yet; try again later",
		"%s-н индекс үнэ одоогоор алга; дараа дахин оролдоно уу")
)
