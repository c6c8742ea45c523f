package apperr

import "net/http"

// Spot trading (internal/spot): order entry, cancellation and order
// queries. Codes 14000–14499 belong to this area. Order-entry checks mirror
// the matching core's reject reasons one to one, so a client learns exactly
// which rule of the pair's grid an order broke.
var (
	// CodeTradeSymbolUnknown: no such trading pair.
	CodeTradeSymbolUnknown = register("14000", http.StatusOK,
		"Unknown trading pair %s",
		"%s арилжааны хос олдсонгүй")
	// CodeTradeSymbolClosed: the pair exists but takes no orders.
	CodeTradeSymbolClosed = register("14001", http.StatusOK,
		"Trading of %s is suspended",
		"%s хосын арилжаа түр зогссон байна")
	// CodeTradeSide: side is not BUY or SELL.
	CodeTradeSide = register("14002", http.StatusOK,
		"Side must be BUY or SELL",
		"Чиглэл BUY эсвэл SELL байх ёстой")
	// CodeTradeType: unknown order type.
	CodeTradeType = register("14003", http.StatusOK,
		"Order type must be LIMIT, MARKET, FOK, IOC, POST_ONLY or STOP_LIMIT",
		"Захиалгын төрөл LIMIT, MARKET, FOK, IOC, POST_ONLY эсвэл STOP_LIMIT байх ёстой")
	// CodeTradePriceRequired: a priced order without a price.
	CodeTradePriceRequired = register("14004", http.StatusOK,
		"Please enter a price",
		"Үнээ оруулна уу")
	// CodeTradeVolumeRequired: neither volume nor quoteVolume.
	CodeTradeVolumeRequired = register("14005", http.StatusOK,
		"Please enter an amount",
		"Тоо хэмжээгээ оруулна уу")
	// CodeTradeVolumeBoth: volume and quoteVolume together, or quoteVolume where only volume fits.
	CodeTradeVolumeBoth = register("14006", http.StatusOK,
		"Give either volume or quoteVolume (quoteVolume only for a market buy)",
		"volume эсвэл quoteVolume-ийн аль нэгийг өгнө үү (quoteVolume зөвхөн зах зээлийн худалдан авалтад)")
	// CodeTradePriceTick: price not on the pair's tick grid.
	CodeTradePriceTick = register("14007", http.StatusOK,
		"The price must be a multiple of %s",
		"Үнэ %s-ийн үржвэр байх ёстой")
	// CodeTradeVolumeLot: quantity not on the pair's lot grid.
	CodeTradeVolumeLot = register("14008", http.StatusOK,
		"The amount must be a multiple of %s",
		"Тоо хэмжээ %s-ийн үржвэр байх ёстой")
	// CodeTradeMinQty: quantity below the pair's minimum.
	CodeTradeMinQty = register("14009", http.StatusOK,
		"The minimum amount is %s",
		"Хамгийн бага тоо хэмжээ %s")
	// CodeTradeMinNotional: price × quantity (or the quote amount) below the minimum.
	CodeTradeMinNotional = register("14010", http.StatusOK,
		"The minimum order value is %s",
		"Захиалгын хамгийн бага дүн %s")
	// CodeTradeNumber: a price or amount that is not a positive decimal within range.
	CodeTradeNumber = register("14011", http.StatusOK,
		"Please enter a valid positive number",
		"Зөв эерэг тоо оруулна уу")
	// CodeTradeInsufficient: the spot account holds less than the order needs.
	CodeTradeInsufficient = register("14013", http.StatusOK,
		"Insufficient available balance",
		"Боломжит үлдэгдэл хүрэлцэхгүй байна")
	// CodeTradeOrderNotFound: no such order of this user.
	CodeTradeOrderNotFound = register("14014", http.StatusOK,
		"Order not found",
		"Захиалга олдсонгүй")
	// CodeTradeOrderFinished: the order is already filled, cancelled or rejected.
	CodeTradeOrderFinished = register("14015", http.StatusOK,
		"The order is already finished",
		"Захиалга аль хэдийн дууссан байна")
	// CodeTradeClientOrderReused: a clientOrderId reused for a different order.
	CodeTradeClientOrderReused = register("14016", http.StatusOK,
		"This clientOrderId was already used for a different order",
		"Энэ clientOrderId өөр захиалгад ашиглагдсан байна")
	// CodeTradeStopPrice: a stop price where none fits, or none for STOP_LIMIT.
	CodeTradeStopPrice = register("14017", http.StatusOK,
		"STOP_LIMIT orders need a stopPrice; other types take none",
		"STOP_LIMIT захиалгад stopPrice шаардлагатай; бусад төрөлд өгөхгүй")
	// CodeTradeTooLarge: price × quantity beyond what one order may carry.
	CodeTradeTooLarge = register("14018", http.StatusOK,
		"The order is too large",
		"Захиалга хэт том байна")
	// CodeTradeBusy: the engine's queue did not accept the command; retry.
	CodeTradeBusy = register("14019", http.StatusOK,
		"The exchange is busy, please try again",
		"Бирж ачаалалтай байна, дахин оролдоно уу")
	// CodeTradeAmendVolume: an amend that does not reduce the order's
	// quantity, or reduces it to what is already filled or less.
	CodeTradeAmendVolume = register("14020", http.StatusOK,
		"The new amount must be below the order's amount %s and above its filled amount %s",
		"Шинэ тоо хэмжээ захиалгын %s-ээс бага, биелсэн %s-ээс их байх ёстой")
	// CodeTradeAmendType: only orders that rest in the book can be amended.
	CodeTradeAmendType = register("14021", http.StatusOK,
		"Only LIMIT, POST_ONLY and STOP_LIMIT orders can be amended",
		"Зөвхөн LIMIT, POST_ONLY, STOP_LIMIT захиалгыг өөрчилж болно")
	// CodeTradeSTP: an unknown self-trade prevention mode.
	CodeTradeSTP = register("14022", http.StatusOK,
		"Self-trade prevention (stp) must be cancel_taker, cancel_maker or cancel_both",
		"Өөртэйгөө арилжаалахаас сэргийлэх горим (stp) нь cancel_taker, cancel_maker эсвэл cancel_both байна")
	// CodeTradeMarketPrice: a price sent with a MARKET order, which trades
	// at the book's prices (a limit price needs LIMIT, IOC or FOK).
	CodeTradeMarketPrice = register("14023", http.StatusOK,
		"A MARKET order takes no price; for a price limit use LIMIT, IOC or FOK",
		"MARKET захиалгад үнэ өгөхгүй; үнийн хязгаартай бол LIMIT, IOC эсвэл FOK ашиглана уу")
	// CodeTradeStopReached: a STOP_LIMIT whose stop the last price has
	// already reached (it would trigger at once).
	CodeTradeStopReached = register("14024", http.StatusOK,
		"The last price %s has already reached your stop price: a buy stop must be above it, a sell stop below it",
		"Сүүлийн үнэ %s таны стоп үнэд аль хэдийн хүрсэн байна: худалдан авах стоп түүнээс дээш, зарах стоп доош байх ёстой")
)
