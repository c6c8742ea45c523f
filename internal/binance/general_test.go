package binance

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/markets"
)

const btcusdtInfo = `{"symbol":"BTCUSDT","status":"TRADING","baseAsset":"BTC","baseAssetPrecision":8,"quoteAsset":"USDT",` +
	`"quotePrecision":6,"quoteAssetPrecision":6,"baseCommissionPrecision":8,"quoteCommissionPrecision":6,` +
	`"orderTypes":["LIMIT","LIMIT_MAKER","MARKET","STOP_LOSS_LIMIT"],"icebergAllowed":false,` +
	`"ocoAllowed":false,"otoAllowed":false,"opoAllowed":false,"quoteOrderQtyMarketAllowed":true,"allowTrailingStop":false,` +
	`"cancelReplaceAllowed":false,"amendAllowed":false,"pegInstructionsAllowed":false,"isSpotTradingAllowed":true,` +
	`"isMarginTradingAllowed":false,"filters":[` +
	// 2^31 ticks of 0.01, 2^31 lots of 0.000001, minQty 0.00001 = 10 lots,
	// notional up to 2^62 quote units of 0.01 × 0.000001.
	`{"filterType":"PRICE_FILTER","minPrice":"0.01","maxPrice":"21474836.48","tickSize":"0.01"},` +
	`{"filterType":"LOT_SIZE","minQty":"0.000010","maxQty":"2147.483648","stepSize":"0.000001"},` +
	`{"filterType":"MARKET_LOT_SIZE","minQty":"0.000010","maxQty":"2147.483648","stepSize":"0.000001"},` +
	`{"filterType":"NOTIONAL","minNotional":"5.00000000","applyMinToMarket":true,"maxNotional":"46116860184.27387904",` +
	`"applyMaxToMarket":false,"avgPriceMins":0}],"permissions":["SPOT"],"permissionSets":[["SPOT"]],` +
	`"defaultSelfTradePreventionMode":"EXPIRE_TAKER","allowedSelfTradePreventionModes":["EXPIRE_TAKER","EXPIRE_MAKER","EXPIRE_BOTH"]}`

const infoHead = `{"timezone":"UTC","serverTime":1769990430000,"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT",` +
	`"interval":"MINUTE","intervalNum":1,"limit":6000}],"exchangeFilters":[],"symbols":`

func TestGeneralEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	runOKCases(t, e, []okCase{
		{"ping", "/api/v3/ping", `{}`},
		{"time", "/api/v3/time", `{"serverTime":1769990430000}`},
		{"system status", "/sapi/v1/system/status", `{"status":0,"msg":"normal"}`},
		{"exchangeInfo symbol", "/api/v3/exchangeInfo?symbol=BTCUSDT", infoHead + `[` + btcusdtInfo + `]}`},
		{"fapi exchangeInfo", "/fapi/v1/exchangeInfo", `{"timezone":"UTC","serverTime":1769990430000,` +
			`"futuresType":"U_MARGINED","rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE",` +
			`"intervalNum":1,"limit":6000}],"exchangeFilters":[],"assets":[],"symbols":[]}`},
		{"dapi exchangeInfo", "/dapi/v1/exchangeInfo", `{"timezone":"UTC","serverTime":1769990430000,` +
			`"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":6000}],` +
			`"exchangeFilters":[],"symbols":[]}`},
		{"fapi ping", "/fapi/v1/ping", `{}`},
		{"dapi time", "/dapi/v1/time", `{"serverTime":1769990430000}`},
		{"permissions MARGIN only", "/api/v3/exchangeInfo?permissions=MARGIN", infoHead + `[]}`},
		{"symbolStatus BREAK", "/api/v3/exchangeInfo?symbolStatus=BREAK", infoHead + `[]}`},
	})
}

// symbolsOf lists the symbols of an exchangeInfo answer.
func symbolsOf(t *testing.T, a answer) []string {
	t.Helper()
	var info struct {
		Symbols []struct {
			Symbol         string
			Status         string
			PermissionSets [][]string
		}
	}
	if err := json.Unmarshal([]byte(a.body), &info); err != nil || a.status != http.StatusOK {
		t.Fatalf("%d %s", a.status, a.body)
	}
	var out []string
	for _, s := range info.Symbols {
		out = append(out, s.Symbol+" "+s.Status+" "+jsonString(s.PermissionSets))
	}
	return out
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestExchangeInfoSelection(t *testing.T) {
	e := newEnv(t, nil)
	cases := []struct {
		name, query, want string
	}{
		{"all open pairs, catalogue order", "", `["BTCUSDT TRADING [[\"SPOT\"]]","ETHUSDT TRADING [[\"SPOT\"]]",` +
			`"TRXUSDT TRADING [[\"SPOT\"]]","XRPUSDT TRADING [[\"SPOT\"]]","TONUSDT TRADING [[\"SPOT\"]]",` +
			`"USDTMNT TRADING [[\"SPOT\"]]","BTCMNT TRADING [[\"SPOT\"]]"]`},
		{"symbols in the order asked", `?symbols=["ETHUSDT","BTCUSDT"]`,
			`["ETHUSDT TRADING [[\"SPOT\"]]","BTCUSDT TRADING [[\"SPOT\"]]"]`},
		{"symbols url-encoded", `?symbols=%5B%22BTCMNT%22%5D`, `["BTCMNT TRADING [[\"SPOT\"]]"]`},
		{"permissions array with SPOT", `?permissions=["MARGIN","SPOT"]&symbolStatus=TRADING`, ""},
		{"no permission sets", `?symbol=USDTMNT&showPermissionSets=false`, `["USDTMNT TRADING []"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := jsonString(symbolsOf(t, e.get("/api/v3/exchangeInfo"+c.query)))
			if c.want == "" {
				if n := len(symbolsOf(t, e.get("/api/v3/exchangeInfo"+c.query))); n != 7 {
					t.Fatalf("%d symbols, want 7", n)
				}
				return
			}
			if got != c.want {
				t.Fatalf("got %s want %s", got, c.want)
			}
		})
	}
	runErrCases(t, e, []errCase{
		{"lower case", "/api/v3/exchangeInfo?symbol=btcusdt", 400, -1100,
			"Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."},
		{"unknown", "/api/v3/exchangeInfo?symbol=DOGEUSDT", 400, -1121, "Invalid symbol."},
		{"separator", "/api/v3/exchangeInfo?symbol=BTC_USDT", 400, -1121, "Invalid symbol."},
		{"unknown in list", `/api/v3/exchangeInfo?symbols=["BTCUSDT","DOGEUSDT"]`, 400, -1121, "Invalid symbol."},
		{"symbols not an array", "/api/v3/exchangeInfo?symbols=BTCUSDT", 400, -1100, ""},
		{"duplicate symbols", `/api/v3/exchangeInfo?symbols=["BTCUSDT","BTCUSDT"]`, 400, -1151,
			"Symbol is present multiple times in the list."},
		{"symbol and symbols", `/api/v3/exchangeInfo?symbol=BTCUSDT&symbols=["ETHUSDT"]`, 400, -1128,
			"Combination of optional parameters invalid."},
		{"permissions with symbol", `/api/v3/exchangeInfo?symbol=BTCUSDT&permissions=SPOT`, 400, -1128, ""},
		{"bad permissions", `/api/v3/exchangeInfo?permissions=sp%20ot`, 400, -1100, ""},
		{"bad symbolStatus", "/api/v3/exchangeInfo?symbolStatus=OPEN", 400, -1122, "Invalid symbolStatus."},
		{"bad showPermissionSets", "/api/v3/exchangeInfo?showPermissionSets=yes", 400, -1130,
			"Data sent for parameter 'showPermissionSets' is not valid."},
		{"empty symbol", "/api/v3/exchangeInfo?symbol=", 400, -1105, "Parameter 'symbol' was empty."},
	})
}

// A closed pair is BREAK: not listed, but found by name.
func TestClosedPairIsBreak(t *testing.T) {
	dir := t.TempDir()
	cat := `[{"symbol":"btcusdt","base":"BTC","quote":"USDT","sort":1,"pricePrecision":2,"volumePrecision":6,` +
		`"priceTick":"0.01","lotSize":"0.000001","minQty":"0.00001","minNotional":"5","isOpenCross":false,"etfOpen":false,"recommend":false,"closed":false},` +
		`{"symbol":"ethusdt","base":"ETH","quote":"USDT","sort":2,"pricePrecision":2,"volumePrecision":5,` +
		`"priceTick":"0.01","lotSize":"0.00001","minQty":"0.0001","minNotional":"5","isOpenCross":false,"etfOpen":false,"recommend":false,"closed":true,` +
		`"selfTradePrevention":"cancel_both"}]`
	if err := os.WriteFile(filepath.Join(dir, markets.FileName), []byte(cat), 0o600); err != nil {
		t.Fatal(err)
	}
	mk, err := markets.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvOn(t, mk, func(o *Options) { o.Coins = nil })
	if got := jsonString(symbolsOf(t, e.get("/api/v3/exchangeInfo"))); got != `["BTCUSDT TRADING [[\"SPOT\"]]"]` {
		t.Fatalf("listed %s", got)
	}
	a := e.get("/api/v3/exchangeInfo?symbol=ETHUSDT")
	var info ExchangeInfo
	if err := json.Unmarshal([]byte(a.body), &info); err != nil || len(info.Symbols) != 1 {
		t.Fatalf("%s", a.body)
	}
	s := info.Symbols[0]
	// Without a coin catalogue assets show 8 decimals; quotes stay on the
	// 0.01 × 0.00001 grid.
	if s.Status != StatusBreak || s.IsSpotTradingAllowed || s.DefaultSelfTradePreventionMode != "EXPIRE_BOTH" ||
		s.BaseAssetPrecision != 8 || s.QuotePrecision != 7 {
		t.Fatalf("%+v", s)
	}
	runErrCases(t, e, []errCase{
		{"status mismatch", "/api/v3/depth?symbol=ETHUSDT&symbolStatus=TRADING", 400, -1220,
			"The symbol's status does not match the requested symbolStatus."},
	})
	// Its market data is still served by name, and lists leave it out.
	runOKCases(t, e, []okCase{
		{"depth", "/api/v3/depth?symbol=ETHUSDT&symbolStatus=BREAK", `{"lastUpdateId":0,"bids":[],"asks":[]}`},
		{"price", "/api/v3/ticker/price?symbol=ETHUSDT", `{"symbol":"ETHUSDT","price":"0.00"}`},
		{"prices", "/api/v3/ticker/price", `[{"symbol":"BTCUSDT","price":"105.00"}]`},
		{"BREAK prices", "/api/v3/ticker/price?symbolStatus=BREAK", `[]`},
		{"BREAK among symbols", `/api/v3/ticker/price?symbols=["ETHUSDT","BTCUSDT"]&symbolStatus=BREAK`,
			`[{"symbol":"ETHUSDT","price":"0.00"}]`},
	})

	// Without market data only the general endpoints are served.
	bare := &env{t: t, srv: New(Options{Markets: mk, Log: zerolog.Nop()})}
	if a := bare.get("/api/v3/depth?symbol=BTCUSDT"); a.status != http.StatusNotFound {
		t.Fatalf("depth without market data: %d", a.status)
	}
	if a := bare.get("/api/v3/ping"); a.status != http.StatusOK {
		t.Fatalf("ping: %d", a.status)
	}
}
