package apperr

import "net/http"

// Perpetual futures (internal/futures): contracts, order entry, leverage,
// margin mode, position margin and the futures account. Codes 18000–18499
// belong to this area.
var (
	// CodeFuturesSymbol: no such contract (%s names what was asked).
	CodeFuturesSymbol = register("18000", http.StatusOK,
		"Unknown contract %s",
		"%s гэрээ олдсонгүй")
	// CodeFuturesClosed: the contract takes no orders that open or add to positions.
	CodeFuturesClosed = register("18001", http.StatusOK,
		"%s is closed: only orders that reduce positions are taken",
		"%s гэрээ хаалттай: зөвхөн позицийг бууруулах захиалга авна")
	// CodeFuturesSide: side is not BUY or SELL.
	CodeFuturesSide = register("18002", http.StatusOK,
		"Side must be BUY or SELL",
		"Чиглэл BUY эсвэл SELL байх ёстой")
	// CodeFuturesType: type or time in force unknown, or not allowed together.
	CodeFuturesType = register("18003", http.StatusOK,
		"Unknown order type or time in force: %s",
		"Захиалгын төрөл эсвэл хугацаа буруу: %s")
	// CodeFuturesPrice: a limit order's price missing, not positive, off the tick or beyond the contract's range.
	CodeFuturesPrice = register("18004", http.StatusOK,
		"Price must be a positive multiple of %s",
		"Үнэ %s-ийн эерэг үржвэр байх ёстой")
	// CodeFuturesVolume: volume not a whole number of contracts within the contract's limits.
	CodeFuturesVolume = register("18005", http.StatusOK,
		"Volume must be a whole number of contracts from %s to %s",
		"Хэмжээ %s-%s гэрээний бүхэл тоо байх ёстой")
	// CodeFuturesPriceBand: a limit price too far from the mark price.
	CodeFuturesPriceBand = register("18006", http.StatusOK,
		"Price must be within %s of the mark price %s",
		"Үнэ тэмдэглэгээний үнэ %s-аас %s-ийн дотор байх ёстой")
	// CodeFuturesInsufficient: the futures account cannot cover the order's margin and fee.
	CodeFuturesInsufficient = register("18007", http.StatusOK,
		"Insufficient margin in the futures account",
		"Фьючерс дансны барьцаа хүрэлцэхгүй байна")
	// CodeFuturesLeverage: leverage out of range or above the tier of the position's size.
	CodeFuturesLeverage = register("18008", http.StatusOK,
		"Leverage must be from 1 to %s for this position size",
		"Энэ позицийн хэмжээнд хөшүүрэг 1-ээс %s хүртэл байх ёстой")
	// CodeFuturesPositionLimit: the position the order could make exceeds the contract's last tier.
	CodeFuturesPositionLimit = register("18009", http.StatusOK,
		"The position would exceed the contract's limit",
		"Позиц гэрээний хязгаараас хэтэрнэ")
	// CodeFuturesModeLocked: margin mode or leverage changes need no open orders (and, for the mode, no position).
	CodeFuturesModeLocked = register("18010", http.StatusOK,
		"Close the open orders (and, to change the margin mode, the position) of %s first",
		"Эхлээд %s-ийн нээлттэй захиалга (маржины горимыг солихын тулд позиц)-ыг хаана уу")
	// CodeFuturesWouldLiquidate: a margin removal would leave the position below its initial margin or liquidatable.
	CodeFuturesWouldLiquidate = register("18011", http.StatusOK,
		"That much margin cannot be removed: the position would be at risk of liquidation",
		"Ийм хэмжээний барьцааг хасах боломжгүй: позиц албадан хаалтын эрсдэлд орно")
	// CodeFuturesNoPosition: no position (an isolated one, for margin changes) in the contract.
	CodeFuturesNoPosition = register("18012", http.StatusOK,
		"No open position in %s",
		"%s-д нээлттэй позиц алга")
	// CodeFuturesReduceOnly: a reduce-only order that would open or add to a position.
	CodeFuturesReduceOnly = register("18013", http.StatusOK,
		"A reduce-only order cannot be larger than what the position has left to close",
		"Зөвхөн бууруулах захиалга позицийн хаах боломжтой хэмжээнээс их байж болохгүй")
	// CodeFuturesOrderNotFound: no such open order of the caller's.
	CodeFuturesOrderNotFound = register("18014", http.StatusOK,
		"Order not found or already finished",
		"Захиалга олдсонгүй эсвэл дууссан")
	// CodeFuturesMarginMode: margin mode is not 1 (cross) or 2 (isolated).
	CodeFuturesMarginMode = register("18015", http.StatusOK,
		"Margin mode must be 1 (cross) or 2 (isolated)",
		"Маржины горим 1 (cross) эсвэл 2 (isolated) байх ёстой")
	// CodeFuturesAmount: a margin amount that is not a positive decimal within the coin's precision.
	CodeFuturesAmount = register("18016", http.StatusOK,
		"Amount must be a positive number with at most %s decimals",
		"Дүн %s-аас ихгүй аравтын оронтой эерэг тоо байх ёстой")
	// CodeFuturesBusy: the engine did not answer; nothing is known to have changed.
	CodeFuturesBusy = register("18017", http.StatusOK,
		"The futures engine is busy; try again",
		"Фьючерсийн систем завгүй байна, дахин оролдоно уу")
	// CodeFuturesNoPrice: the contract has no mark price yet (its index is not available).
	CodeFuturesNoPrice = register("18018", http.StatusOK,
		"%s has no mark price yet; try again shortly",
		"%s-д тэмдэглэгээний үнэ хараахан алга, түр хүлээгээд дахин оролдоно уу")
	// CodeFuturesClientOid: the client order id was used for another order.
	CodeFuturesClientOid = register("18019", http.StatusOK,
		"This client order id was used for another order",
		"Энэ захиалгын дугаарыг өөр захиалгад ашигласан байна")
)

// CodeFuturesNotOpened: the caller has not opened a futures account yet (create_co_id).
var CodeFuturesNotOpened = register("18020", http.StatusOK,
	"Open a futures account first",
	"Эхлээд фьючерс данс нээнэ үү")

// CodeFuturesWouldTrigger: a trigger order whose price the market is already at or beyond.
var CodeFuturesWouldTrigger = register("18021", http.StatusOK,
	"The trigger price is already reached: it would fire at once",
	"Өдөөх үнэд аль хэдийн хүрсэн тул шууд идэвхжинэ")

// CodeFuturesTooManyTriggers: the user's waiting trigger orders are at the limit.
var CodeFuturesTooManyTriggers = register("18022", http.StatusOK,
	"At most %s trigger orders may wait at once",
	"Нэг дор хамгийн ихдээ %s нөхцөлт захиалга хүлээж болно")

// CodeFuturesPositionSide: an order or a request names no position of the user's position mode.
var CodeFuturesPositionSide = register("18023", http.StatusOK,
	"positionSide must be LONG or SHORT in hedge mode and left out in one-way mode",
	"Хедж горимд positionSide нь LONG эсвэл SHORT байна; нэг чиглэлийн горимд түүнийг бөглөхгүй")

// CodeFuturesPositionMode: a position mode other than 1 (one-way) or 2 (hedge).
var CodeFuturesPositionMode = register("18024", http.StatusOK,
	"Position mode must be 1 (one-way) or 2 (hedge)",
	"Позицийн горим 1 (нэг чиглэл) эсвэл 2 (хедж) байна")

// CodeFuturesPositionModeLocked: the position mode cannot change while anything is open.
var CodeFuturesPositionModeLocked = register("18025", http.StatusOK,
	"Close your positions and cancel your open and trigger orders in every contract before changing the position mode",
	"Позицийн горимыг солихын өмнө бүх гэрээний позицоо хааж, нээлттэй болон нөхцөлт захиалгуудаа цуцлана уу")

// CodeFuturesParentEnded: a TP/SL for an order that ended without a fill.
var CodeFuturesParentEnded = register("18026", http.StatusOK,
	"The order this take-profit or stop-loss belongs to ended without a fill",
	"Энэ ашиг авах эсвэл алдагдал зогсоох захиалгын үндсэн захиалга биелэлгүй дууссан байна")
