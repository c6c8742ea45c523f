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
)
