package apperr

import "net/http"

// Market data (internal/marketdata): depth, recent trades, tickers, klines.
// Codes 14500–14999 belong to this area.
var (
	// CodeMarketSymbolUnknown: no open trading pair with this symbol.
	CodeMarketSymbolUnknown = register("14500", http.StatusOK,
		"Unknown trading pair %s",
		"%s арилжааны хос олдсонгүй")
	// CodeMarketPeriodUnknown: the kline period is not one of the supported ones.
	CodeMarketPeriodUnknown = register("14501", http.StatusOK,
		"Unknown kline period %s: use 1min, 5min, 15min, 30min, 60min, 4h, 1day, 1week or 1month",
		"%s лааны хугацаа буруу: 1min, 5min, 15min, 30min, 60min, 4h, 1day, 1week эсвэл 1month")
	// CodeMarketStepInvalid: the depth step is not 0, 1 or 2.
	CodeMarketStepInvalid = register("14502", http.StatusOK,
		"The depth step must be 0, 1 or 2",
		"Гүнзгийн алхам 0, 1 эсвэл 2 байна")
	// CodeMarketRangeInvalid: a kline range whose start is after its end, or a bad limit.
	CodeMarketRangeInvalid = register("14503", http.StatusOK,
		"Invalid range: from must not be after to, and limit must be positive",
		"Хугацааны муж буруу: from нь to-оос хойш байж болохгүй, limit эерэг байна")
	// CodeFavouritesFull: a favourite list may hold at most favourites.MaxSymbols pairs.
	CodeFavouritesFull = register("14504", http.StatusOK,
		"At most %d favourite pairs",
		"Дуртай хосууд хамгийн ихдээ %d байна")
)
